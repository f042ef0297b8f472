package document_test

import (
	"testing"

	"github.com/ragkit/ragkit/document"
)

func TestLocate(t *testing.T) {
	text := "aaaa\nbbbb\ncccc\ndddd\n" // lines start at 0, 5, 10, 15
	sheets := []document.Mark{
		{Offset: 0, Sheet: "Costs", Row: 1},
		{Offset: 5, Sheet: "Costs", Row: 2},
		{Offset: 10, Sheet: "Staff", Row: 1},
		{Offset: 15, Sheet: "Staff", Row: 2},
	}
	tests := []struct {
		name       string
		marks      []document.Mark
		start, end int
		want       document.Location
		str        string
	}{
		{"no marks", nil, 0, 4, document.Location{}, ""},
		{"before the first mark", []document.Mark{{Offset: 5, Page: 2}}, 0, 4, document.Location{}, ""},
		{"one page", []document.Mark{{Offset: 0, Page: 1}, {Offset: 10, Page: 2}}, 0, 10, document.Location{Page: 1, LastPage: 1}, "p. 1"},
		{"end is exclusive", []document.Mark{{Offset: 0, Page: 1}, {Offset: 10, Page: 2}}, 2, 11, document.Location{Page: 1, LastPage: 2}, "pp. 1-2"},
		{"empty stretch", []document.Mark{{Offset: 0, Page: 1}, {Offset: 10, Page: 2}}, 10, 10, document.Location{Page: 2, LastPage: 2}, "p. 2"},
		{"rows of one sheet", sheets, 0, 9, document.Location{Sheet: "Costs", Row: 1, LastRow: 2}, "sheet Costs, rows 1-2"},
		{"across sheets: no rows", sheets, 5, 14, document.Location{Sheet: "Costs"}, "sheet Costs"},
		{"lines", []document.Mark{{Offset: 0, Line: 7}, {Offset: 5, Line: 9}, {Offset: 10, Line: 12}}, 1, 12, document.Location{Line: 7, LastLine: 12}, "lines 7-12"},
		{"clamped", []document.Mark{{Offset: 0, Page: 3}}, -4, 1 << 30, document.Location{Page: 3, LastPage: 3}, "p. 3"},
		{"reversed", []document.Mark{{Offset: 0, Page: 3}}, 9, 2, document.Location{Page: 3, LastPage: 3}, "p. 3"},
		{"page and line", []document.Mark{{Offset: 0, Page: 4, Line: 80}}, 0, 3, document.Location{Page: 4, LastPage: 4, Line: 80, LastLine: 80}, "p. 4, line 80"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d := document.Document{Text: text, Marks: tt.marks}
			got := d.Locate(tt.start, tt.end)
			if got != tt.want {
				t.Fatalf("Locate(%d, %d) = %+v, want %+v", tt.start, tt.end, got, tt.want)
			}
			if s := got.String(); s != tt.str {
				t.Errorf("String() = %q, want %q", s, tt.str)
			}
			if got.IsZero() != (tt.str == "") {
				t.Errorf("IsZero() = %v for %+v", got.IsZero(), got)
			}
		})
	}
}

// Marks out of order never make Locate fail or leave the text.
func TestLocateUnsortedMarks(t *testing.T) {
	d := document.Document{Text: "abcdef", Marks: []document.Mark{{Offset: 4, Page: 9}, {Offset: 0, Page: 1}, {Offset: 99, Page: 5}}}
	for start := -1; start <= 7; start++ {
		for end := -1; end <= 7; end++ {
			_ = d.Locate(start, end).String()
		}
	}
}
