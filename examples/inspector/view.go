package main

import (
	"context"
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/ragkit/ragkit/budget"
	"github.com/ragkit/ragkit/retrieve"
)

// pageData is everything the page template shows.
type pageData struct {
	S         settings
	AnswerURL string // where the page fetches the streamed answer
	Corpus    string
	Documents int
	Chunks    int
	Encoding  string
	Embedder  string
	Questions []string
	Skipped   []string
	Failed    []string
	Err       string
	Building  string // not empty: an index is being built; the page reloads
	IndexTook string
	Passages  []passageView
	Budget    *budgetView
	Prompt    string
	Doc       *docView
	DocIDs    []string
	ChatModel string // not empty: the answer is streamed from this model
}

type passageView struct {
	N       int
	DocID   string
	Title   string
	Section string
	Units   string // "chunks 2–4"
	Score   string
	Hits    []string // "chunk 3: 0.0312"
	Tokens  int
	Status  string // what the budget did with it
	CutBy   string // for a cut passage: "to its share of the room" or "by the budget"
	// HitsKept says, for a cut passage, what survived of each of its
	// hits in the prompt, in words: "chunk 3: kept", "chunk 5: lost".
	HitsKept []hitKept
	Text     []piece
	DocURL   string // the page with this passage's document shown
}

// hitKept is what survived of one hit of a cut passage.
type hitKept struct {
	Chunk int
	Kept  string // "kept", "partly kept" or "lost"
}

// A piece of text is marked when it is one of the question's terms.
type piece struct {
	Text string
	Mark bool
}

type budgetView struct {
	Sections []sectionView
	Tokens   int
	Avail    int
	Pct      int
	Limit    int
	Reserve  int
	Warnings []string
}

type sectionView struct {
	Name    string
	Tokens  int
	Budget  string // "300", or "none"
	Pct     int    // tokens as a share of the budget (or of the space available), at most 100
	Status  string
	Limited bool
	Items   []itemView
}

type itemView struct {
	ID      string
	Passage int // 1-based; 0 for an item that is not a passage
	Status  string
	Tokens  int // exact count of the text kept
}

type docView struct {
	ID        string
	Title     string
	MaxTokens int
	Chunks    []chunkView
	Hist      []binView
	Total     int // chunks in the index
}

type chunkView struct {
	Index   int
	Tokens  int
	Pct     int
	Header  string
	Text    []piece
	Passage int // 1-based passage that holds it; 0 if none
	Hit     bool
}

type binView struct {
	Label string
	Count int
	Pct   int // the bar's height, as a share of the highest
	Y     int // 100 - Pct: where the bar starts, from the top
}

// passageViews describes the passages, with what the budget did to each
// (item i of the context section is passage i).
func (a *app) passageViews(s settings, ans answer, terms map[string]bool) []passageView {
	ctxReport, _ := ans.prompt.Section("context")
	vs := make([]passageView, len(ans.passages))
	for i, p := range ans.passages {
		section := p.Section
		if len(section) > 0 && section[0] == p.Title {
			section = section[1:] // the title is shown already
		}
		v := passageView{N: i + 1, DocID: p.DocID, Title: p.Title, Section: strings.Join(section, " › "),
			Units: units(p.First, p.Last), Score: fmt.Sprintf("%.4f", p.Score), Tokens: p.Tokens,
			Text: mark(p.Text, terms), DocURL: "/?" + s.query(func(s *settings) { s.Doc = p.DocID }) + "#doc-h"}
		for _, h := range p.Hits {
			v.Hits = append(v.Hits, fmt.Sprintf("chunk %d: %.4f", h.Index, h.Score))
		}
		if i < len(ctxReport.Items) && i < len(ans.items) {
			ir := ctxReport.Items[i]
			v.Status = statusWord(ir.Status)
			if ir.Status != budget.Dropped && ans.sized[i] {
				v.Status, v.CutBy = "cut", "to its share of the room"
			} else if ir.Status == budget.Truncated {
				v.CutBy = "by the budget"
			}
			if v.Status == "cut" {
				v.HitsKept = hitsKept(p, ans.items[i], ir)
			}
		}
		vs[i] = v
	}
	return vs
}

// hitsKept says what survived of each hit of passage p, whose item it was
// cut to ir in the prompt, from the budget's report of its protected spans
// (ir.SpansKept): a hit is kept if a span of its whole text survived, partly
// kept if a span inside it did (a sentence that matched the question, or
// what a cut to the passage's share left of the hit), lost otherwise.
func hitsKept(p retrieve.Passage, it budget.Item, ir budget.ItemReport) []hitKept {
	hs := make([]hitKept, len(p.Hits))
	for j, h := range p.Hits {
		hs[j] = hitKept{Chunk: h.Index, Kept: "lost"}
		hit := strings.TrimSpace(h.Text)
		if hit == "" {
			continue
		}
		for k, sp := range it.Keep {
			if k >= len(ir.SpansKept) || !ir.SpansKept[k] {
				continue
			}
			kept := strings.TrimSpace(it.Text[sp.Start:sp.End])
			switch {
			case kept == hit:
				hs[j].Kept = "kept"
			case kept != "" && strings.Contains(hit, kept) && hs[j].Kept == "lost":
				hs[j].Kept = "partly kept"
			}
		}
	}
	return hs
}

func units(first, last int) string {
	if first == last {
		return fmt.Sprintf("chunk %d", first)
	}
	return fmt.Sprintf("chunks %d–%d", first, last)
}

func statusWord(s budget.Status) string {
	switch s {
	case budget.Preserved:
		return "kept"
	case budget.Truncated:
		return "cut"
	}
	return "dropped"
}

// budgetView describes the budget's report.
func (a *app) budgetView(res budget.Result) *budgetView {
	b := &budgetView{Tokens: res.Tokens, Limit: res.Limit, Reserve: res.Reserve, Avail: res.Limit - res.Reserve, Warnings: res.Warnings}
	b.Pct = percent(res.Tokens, b.Avail)
	for _, sr := range res.Sections {
		sv := sectionView{Name: sr.Name, Tokens: sr.Tokens, Limited: sr.Limited, Budget: "none", Pct: percent(sr.Tokens, b.Avail)}
		if sr.Budget > 0 {
			sv.Budget = fmt.Sprint(sr.Budget + sr.Extra)
			sv.Pct = percent(sr.Tokens, sr.Budget+sr.Extra)
		}
		sv.Status = sectionStatus(sr)
		if sr.Name == "context" {
			for _, ir := range sr.Items {
				iv := itemView{ID: ir.ID, Passage: ir.Index + 1, Status: statusWord(ir.Status)}
				if ir.Text != "" {
					iv.Tokens = a.models.tokenizer.Count(ir.Text)
				}
				sv.Items = append(sv.Items, iv)
			}
		}
		b.Sections = append(b.Sections, sv)
	}
	return b
}

// sectionStatus words a section's status as the report table does.
func sectionStatus(sr budget.SectionReport) string {
	n := len(sr.Items)
	switch sr.Status {
	case budget.Preserved:
		return "preserved"
	case budget.Dropped:
		return fmt.Sprintf("dropped (%d of %d items)", n, n)
	}
	s := fmt.Sprintf("truncated (%d of %d items dropped", sr.Count(budget.Dropped), n)
	if c := sr.Count(budget.Truncated); c > 0 {
		s += fmt.Sprintf(", %d cut", c)
	}
	return s + ")"
}

func percent(n, of int) int {
	if of <= 0 {
		return 0
	}
	return min(100, (n*100+of/2)/of)
}

// docView describes document i as ix cut it: its chunks with their headers
// and the passages that hold them, and a histogram of every chunk's size.
func (a *app) docView(ctx context.Context, ix *index, i int, ps []retrieve.Passage, terms map[string]bool) (*docView, error) {
	d := a.corpus.docs[i]
	chunks := ix.docChunks(i)
	v := &docView{ID: d.ID, Title: d.Title, MaxTokens: ix.key.MaxTokens}
	headers := make([]string, len(chunks))
	if ix.dec != nil && len(chunks) > 0 {
		// The headers as ingest embedded them; the decorator's cache
		// holds the document's summary, so no model is asked again.
		dc, err := ix.dec.Decorate(ctx, d, chunks)
		if err != nil {
			return nil, err
		}
		for j, c := range dc {
			headers[j] = c.Header
		}
	}
	for j, c := range chunks {
		cv := chunkView{Index: c.Index, Tokens: c.Tokens, Pct: percent(c.Tokens, ix.key.MaxTokens), Header: headers[j], Text: mark(c.Text, terms)}
		for n, p := range ps {
			if p.DocID != d.ID || c.Index < p.First || c.Index > p.Last {
				continue
			}
			if cv.Passage == 0 {
				cv.Passage = n + 1
			}
			for _, h := range p.Hits {
				cv.Hit = cv.Hit || h.Index == c.Index
			}
		}
		v.Chunks = append(v.Chunks, cv)
	}
	v.Hist, v.Total = histogram(ix.chunkTokens(), ix.key.MaxTokens)
	return v, nil
}

// histogram counts chunk sizes in eight bins from 1 to maxTokens.
func histogram(sizes []int, maxTokens int) ([]binView, int) {
	const bins = 8
	width := (maxTokens + bins - 1) / bins
	counts := make([]int, bins)
	for _, n := range sizes {
		b := min(bins-1, max(0, (n-1)/width))
		counts[b]++
	}
	top := 0
	for _, c := range counts {
		top = max(top, c)
	}
	hist := make([]binView, bins)
	for b, c := range counts {
		lo, hi := b*width+1, min((b+1)*width, maxTokens)
		if b == bins-1 {
			hi = maxTokens
		}
		pct := percent(c, top)
		hist[b] = binView{Label: fmt.Sprintf("%d–%d", lo, hi), Count: c, Pct: pct, Y: 100 - pct}
	}
	return hist, len(sizes)
}

// stopWords are left unmarked: they are in every passage.
var stopWords = map[string]bool{
	"the": true, "and": true, "for": true, "what": true, "how": true, "does": true, "did": true, "with": true,
	"which": true, "when": true, "was": true, "were": true, "are": true, "per": true, "from": true, "that": true,
	"this": true, "who": true, "why": true, "where": true, "many": true, "much": true, "must": true, "can": true,
	"within": true, "into": true, "there": true, "their": true, "have": true, "has": true, "its": true, "our": true,
}

// questionTerms are the question's words worth marking: three letters or
// more, or any word with a digit, lower-cased, without stop words.
func questionTerms(q string) map[string]bool {
	terms := map[string]bool{}
	for _, w := range strings.FieldsFunc(strings.ToLower(q), func(r rune) bool { return !isWord(r) }) {
		if (utf8.RuneCountInString(w) >= 3 || strings.ContainsFunc(w, unicode.IsDigit)) && !stopWords[w] {
			terms[w] = true
		}
	}
	return terms
}

func isWord(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) }

// mark splits text into pieces, the question's terms marked.
func mark(text string, terms map[string]bool) []piece {
	var ps []piece
	plain := 0 // start of the unmarked text not yet in ps
	for i := 0; i < len(text); {
		r, n := utf8.DecodeRuneInString(text[i:])
		if !isWord(r) {
			i += n
			continue
		}
		j := i + n
		for j < len(text) {
			r, m := utf8.DecodeRuneInString(text[j:])
			if !isWord(r) {
				break
			}
			j += m
		}
		if terms[strings.ToLower(text[i:j])] {
			if plain < i {
				ps = append(ps, piece{Text: text[plain:i]})
			}
			ps = append(ps, piece{Text: text[i:j], Mark: true})
			plain = j
		}
		i = j
	}
	if plain < len(text) {
		ps = append(ps, piece{Text: text[plain:]})
	}
	return ps
}
