package pgvector

import (
	"github.com/ragkit/ragkit/document"
	"github.com/ragkit/ragkit/vectorstore"
)

// location is a record's Location as the location column's JSON holds
// it, zero fields left out.
type location struct {
	Page     int    `json:"page,omitempty"`
	LastPage int    `json:"last_page,omitempty"`
	Line     int    `json:"line,omitempty"`
	LastLine int    `json:"last_line,omitempty"`
	Sheet    string `json:"sheet,omitempty"`
	Row      int    `json:"row,omitempty"`
	LastRow  int    `json:"last_row,omitempty"`
}

func locationJSON(l document.Location) location { return location(l) }

// notes is a record's Notes as the notes column's JSON holds them, empty
// ones left out; the keyword index reads notes->>'keywords'.
type notes struct {
	Keywords    string `json:"keywords,omitempty"`
	Gap         string `json:"gap,omitempty"`
	Embed       string `json:"embed,omitempty"`
	Fingerprint string `json:"fingerprint,omitempty"`
	Summary     string `json:"summary,omitempty"`
	SummaryOf   string `json:"summary_of,omitempty"`
}

func notesJSON(n vectorstore.Notes) notes { return notes(n) }
