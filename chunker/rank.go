package chunker

// rank orders the places where the planner may cut, strongest first. It
// is finer than the exported [Boundary]: several ranks report the same
// Boundary but cost the planner different amounts.
type rank uint8

const (
	rStart     rank = iota // the start or end of the text
	rH1                    // before a level 1 heading
	rH2                    // before a level 2 heading
	rH3                    // before a level 3 heading
	rH4                    // before a heading of level 4 to 6
	rBlock                 // between Markdown blocks of different kinds
	rBreak                 // at two or more blank lines (plain text)
	rItem                  // between the items of a top-level list
	rPara                  // at a blank line
	rLine                  // at a real single line break
	rSentence              // between sentences
	rAfterHead             // right after a heading, parting it from its section
	rClause                // after clause punctuation
	rWrap                  // between words, at a line break that wraps a paragraph
	rWord                  // between words
	rGrapheme              // between grapheme clusters
	rRune                  // between the code points of a grapheme cluster
	numRanks
)

// rankBoundary maps a rank to the Boundary it reports.
var rankBoundary = [numRanks]Boundary{
	rStart: DocumentStart, rH1: Heading, rH2: Heading, rH3: Heading, rH4: Heading,
	rBlock: Block, rBreak: Paragraph, rItem: Block, rPara: Paragraph, rLine: Line,
	rSentence: Sentence, rAfterHead: Block, rClause: Clause, rWrap: Word, rWord: Word, rGrapheme: Grapheme, rRune: Rune,
}

// rankCost is the planner's price of a cut at each rank, in units of the
// square of the target chunk size. The planner also pays the squared
// difference between each chunk's size and the target, so moving a cut by
// a fraction f of the target costs about 2f²: a paragraph break is worth
// moving a cut by about 12% of a chunk rather than cutting between
// sentences, and a heading about 17% rather than cutting at a paragraph.
// Clauses, words and graphemes are candidates only inside units too long
// for a chunk, so their costs only choose among forced cuts.
var rankCost = [numRanks]float64{
	rStart:     0,
	rH1:        0,
	rH2:        0.004,
	rH3:        0.008,
	rH4:        0.012,
	rBlock:     0.03,
	rBreak:     0.045,
	rItem:      0.05,
	rPara:      0.06,
	rLine:      0.07,
	rSentence:  0.09,
	rAfterHead: 0.3,
	rClause:    0.25,
	rWrap:      0.55,
	rWord:      0.6,
	rGrapheme:  1.5,
	rRune:      3,
}

// unitKind says how the text after a candidate, up to the next one, is
// cut further when it is too long for a chunk on its own.
type unitKind uint8

const (
	uProse     unitKind = iota // a sentence or verse line: clauses, then words, then graphemes
	uAtomic                    // code, a table or an HTML block: lines, then words, then graphemes
	uWords                     // a heading, a clause or a line of code: words, then graphemes
	uGraphemes                 // a word: graphemes
	uRunes                     // a grapheme longer than a chunk: code points
	uNone                      // cannot be cut
)
