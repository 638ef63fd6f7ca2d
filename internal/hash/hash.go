// Package hash is elcheck's stable hashing: the same input hashes alike in
// every run, build and process, so state counts, digests and traces are
// reproducible (hash/maphash is seeded per process).
package hash

import (
	"encoding/binary"
	"math/bits"
)

// Bytes is a stable 64-bit hash with a fixed seed: the same state has
// the same fingerprint in every run, build and process, so counts and
// traces are reproducible (hash/maphash is seeded per process). It is
// wyhash (final version 4, public domain): one 64x64->128-bit multiply
// per 16 bytes, and it passes SMHasher.
func Bytes(p []byte) uint64 {
	const (
		p0 = 0xa0761d6478bd642f
		p1 = 0xe7037ed1a0b428db
		p2 = 0x8ebc6af09c88c6e3
		p3 = 0x589965cc75374cc3
	)
	seed := uint64(0x9e3779b97f4a7c15)
	seed ^= wymix(seed^p0, p1)
	n := len(p)
	var a, b uint64
	switch {
	case n > 16:
		i, q := n, 0
		if i > 48 {
			s1, s2 := seed, seed
			for ; i > 48; i, q = i-48, q+48 {
				seed = wymix(r8(p, q)^p1, r8(p, q+8)^seed)
				s1 = wymix(r8(p, q+16)^p2, r8(p, q+24)^s1)
				s2 = wymix(r8(p, q+32)^p3, r8(p, q+40)^s2)
			}
			seed ^= s1 ^ s2
		}
		for ; i > 16; i, q = i-16, q+16 {
			seed = wymix(r8(p, q)^p1, r8(p, q+8)^seed)
		}
		a, b = r8(p, q+i-16), r8(p, q+i-8)
	case n >= 4:
		a = r4(p, 0)<<32 | r4(p, (n>>3)<<2)
		b = r4(p, n-4)<<32 | r4(p, n-4-(n>>3)<<2)
	case n > 0:
		a = uint64(p[0])<<16 | uint64(p[n>>1])<<8 | uint64(p[n-1])
	}
	a ^= p1
	b ^= seed
	hi, lo := bits.Mul64(a, b)
	return wymix(lo^p0^uint64(n), hi^p1)
}

func wymix(a, b uint64) uint64 {
	hi, lo := bits.Mul64(a, b)
	return hi ^ lo
}

func r8(p []byte, i int) uint64 { return binary.LittleEndian.Uint64(p[i:]) }
func r4(p []byte, i int) uint64 { return uint64(binary.LittleEndian.Uint32(p[i:])) }

// Mix is splitmix64's finaliser: every input bit affects every output bit.
func Mix(x uint64) uint64 {
	x ^= x >> 30
	x *= 0xbf58476d1ce4e5b9
	x ^= x >> 27
	x *= 0x94d049bb133111eb
	x ^= x >> 31
	return x
}
