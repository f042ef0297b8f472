package window

// GapKey is the Metadata key under which a unit keeps the text between it
// and the unit before it, when that is anything but a single space (a
// line break, a blank line, nothing at all). package ingest writes it on
// every record it makes (ingest.Records, an ingest.Indexer; index sentence
// units with ingest.Sentences), so that the windows of an [Expander]
// rebuild the document's text exactly, without the document:
// Window.Text is document[Window.Start:Window.End]. Most units carry no
// gap, so the cost is a few bytes per paragraph.
const GapKey = "window.gap"
