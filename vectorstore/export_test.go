package vectorstore

// Crc32c exposes the format's checksum to the external tests.
var Crc32c = crc32c

// ForceFanOut makes every query of m share its scan among all of m's
// workers however small the store, so that tests of small stores cover
// the parallel scan.
func ForceFanOut(m *Memory) { m.minWork = 1 }
