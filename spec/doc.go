// Package spec is elcheck's vocabulary: identities, ports, messages, the
// process-level protocol contract, configurations, and the canonical byte
// encoding that the explorer hashes.
//
// A protocol is a pure transition function. A process's step maps its local
// state and one event (a spontaneous wake-up, or one message delivered on a
// port) to a new local state and the messages it sends on its own ports. A
// process sees its own identity and its own ports only; it never learns its
// position in the topology, and it learns n only when the protocol declares
// that it assumes it (Info.KnowsN).
//
// spec imports nothing else of elcheck's, so protocols written in other
// modules depend on it alone.
package spec
