package memory

import "os"

// claim does nothing on Windows: a file that SaveFile has open cannot be
// removed there.
func claim(*os.File) (bool, error) { return true, nil }

// removeIfOrphan removes the temporary file at name, which fails while a
// running SaveFile has it open.
func removeIfOrphan(name string) { os.Remove(name) }
