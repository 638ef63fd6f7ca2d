package cli

import (
	"bufio"
	"os"
	"strconv"
	"strings"
)

// availableMemory is what the system has available for this process: the
// kernel's estimate of the memory a new program can take without swapping
// (MemAvailable in /proc/meminfo), plus what the process already holds, or
// its control group's limit if that is less; 0 if neither can be read.
func availableMemory() uint64 {
	avail := meminfo("MemAvailable")
	if avail > 0 {
		avail += heldMemory()
	}
	for _, path := range []string{"/sys/fs/cgroup/memory.max", "/sys/fs/cgroup/memory/memory.limit_in_bytes"} {
		b, err := os.ReadFile(path)
		if err != nil {
			continue
		}
		// "max" (v2) or a huge number (v1) means no limit.
		if v, err := strconv.ParseUint(strings.TrimSpace(string(b)), 10, 64); err == nil && v < 1<<60 && (avail == 0 || v < avail) {
			avail = v
		}
	}
	return avail
}

// meminfo returns the field of /proc/meminfo in bytes, or 0.
func meminfo(field string) uint64 {
	f, err := os.Open("/proc/meminfo")
	if err != nil {
		return 0
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		name, rest, ok := strings.Cut(sc.Text(), ":")
		if !ok || name != field {
			continue
		}
		kb, err := strconv.ParseUint(strings.TrimSuffix(strings.TrimSpace(rest), " kB"), 10, 64)
		if err != nil {
			return 0
		}
		return kb << 10
	}
	return 0
}
