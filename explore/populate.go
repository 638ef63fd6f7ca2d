package explore

// populateMin is the smallest slice populate (populate_linux.go) maps in:
// a page. A table read before it is written (a segment's rehash) is first
// mapped to the shared zero page, and each write then faults again and,
// with a worker on the other core, flushes its TLB there: at n = 12 on
// two workers the tables of 8 to 64 KiB cost 2,000 faults and 6 % of the
// run, where their populate costs a system call each.
const populateMin = 4 << 10
