package vectorstore

// Crc32c exposes the format's checksum to the external tests.
var Crc32c = crc32c
