// Package retrieve is the query side of ragkit's flow, between a search and
// the prompt: it turns what a search found into the [budget.Item] values that
// a [budget.Assembler] fits into a model's context window, so that a program
// does not write the same conversion loop by hand.
//
// [Items] converts the hits of a query ([vectorstore.Hit], from
// [vectorstore.Memory.Query], [vectorstore.Hybrid.Query] or any store) into
// items whose Rank is the hit's score, so that [budget.DropLowestRank] drops
// the weakest hits first, and whose ID is the record's, so that the budget's
// report names what it kept and dropped. [WindowItems] does the same for
// the windows and segments of package window ([window.Expander.Expand],
// [window.Extractor.Extract]), ranked by the best score of their hits.
// [ItemConfig.Label] puts a line of provenance (a source, a section path) before each item's text, where the
// model can cite it.
//
// Scores become ranks unchanged: a float32 converts to a float64 exactly, so
// the order of the items is the order of the search, ties included. Scores of
// different searches are not comparable (see [vectorstore.Hit]); convert the
// hits of one search, or of one fusion, at a time.
package retrieve
