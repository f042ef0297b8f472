package window

import (
	"strings"

	"github.com/ragkit/ragkit/vectorstore"
)

func hasOffsets(r *vectorstore.Record) bool { return r.Start != 0 || r.End != 0 }

// join rebuilds the text of units[lo..hi]. With a separator it joins the
// units' texts with it; otherwise it rebuilds the text between units from
// their offsets: the gap kept in Notes.Gap, nothing for touching units, the
// unrepeated part of an overlapping unit, and a space where the records
// say nothing more.
func join(units []vectorstore.Record, lo, hi int, sep string) string {
	if lo == hi {
		return units[lo].Text
	}
	var b strings.Builder
	n := 0
	for i := lo; i <= hi; i++ {
		n += len(units[i].Text) + 1
	}
	b.Grow(n + 8) // a gap longer than a space is rare
	b.WriteString(units[lo].Text)
	for i := lo + 1; i <= hi; i++ {
		prev, r := &units[i-1], &units[i]
		if sep != "" || !hasOffsets(prev) || !hasOffsets(r) {
			b.WriteString(sepOr(sep))
			b.WriteString(r.Text)
			continue
		}
		switch {
		case r.Start < prev.End:
			if cut := prev.End - r.Start; cut <= len(r.Text) && r.End-r.Start == len(r.Text) {
				b.WriteString(r.Text[cut:])
			} else {
				b.WriteString(" ")
				b.WriteString(r.Text)
			}
			continue
		case r.Start == prev.End:
		default:
			if gap := r.Notes.Gap; gap != "" && len(gap) == r.Start-prev.End {
				b.WriteString(gap)
			} else {
				b.WriteString(" ")
			}
		}
		b.WriteString(r.Text)
	}
	return b.String()
}

func sepOr(sep string) string {
	if sep == "" {
		return " "
	}
	return sep
}

// span returns the byte offsets of units[lo..hi] in their document, or
// zeros when a unit carries none.
func span(units []vectorstore.Record, lo, hi int) (start, end int) {
	end = units[lo].End
	for i := lo; i <= hi; i++ {
		if !hasOffsets(&units[i]) {
			return 0, 0
		}
		end = max(end, units[i].End)
	}
	return units[lo].Start, end
}
