package ingest

// Key exposes the key of an embed text to the tests, which check that
// records carry it.
var Key = key
