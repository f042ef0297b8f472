// Package corpus holds the quickstart's corpus, the policies and reports of
// a fictional company, embedded, so that other example programs (the
// inspector, in a module of its own) use the same files without a copy:
// a go:embed pattern cannot reach outside its own module, an import can.
package corpus

import "embed"

// FS holds the corpus's Markdown files at its root.
//
//go:embed *.md
var FS embed.FS

// Questions are questions about the corpus, each answered by one document
// whose answering section does not name what the question names (the
// office, the quarter, the project): contextual headers are what find it.
var Questions = []string{
	"What is the nightly hotel limit for staff of the Singapore office?",
	"What does the Toronto office pay per kilometre for driving?",
	"What was the gross margin in Q2 2026?",
	"Within how many days must an expense claim be submitted?",
	"When does the FieldSense pilot with customers start?",
}
