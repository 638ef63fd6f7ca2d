package explore

// populateMin is the smallest slice populate (populate_linux.go) maps in:
// below a few pages the system call costs more than the faults it spares.
const populateMin = 64 << 10
