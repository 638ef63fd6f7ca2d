package cli

import "syscall"

// ioctlGetTermios is the request for a terminal's settings.
const ioctlGetTermios = syscall.TCGETS
