// Package document is ragkit's model of a document: its text and what is
// known about it ([Document]), how to read its structure ([Format]), and
// that structure, computed once ([Outline]): the headings of Markdown and of
// plain text, and the section path of any stretch of the text.
//
// Every other package that needs to know what a document is or where its
// sections are uses this one: the chunker cuts before headings, the
// contextheader package puts the section path into each chunk's header,
// ingest stores the title, section path and source with every record (in
// the record's own fields) so that the query side can label and cite
// passages without the document, and the windows of the window package stay inside
// sections.
//
// # Headings
//
// For [Markdown] the headings are ATX ("## Title") and setext (a line
// underlined with = or -) headings, never lines inside fenced or indented
// code or HTML blocks. For [Text], which has no markup, a heading is a line
// that looks like one: numbered ("2.1 Scope"), in capitals ("ENVIRONMENTAL
// REVIEW") or a short title-like line on its own ("Environmental review");
// [Headings] gives the exact rules.
//
// Everything here is linear in the text and never fails: any text, even
// invalid UTF-8, has an outline (possibly without headings).
package document
