// Package budget assembles a prompt from sections under token budgets, on
// purpose rather than by accident: each [Section] has a priority, a budget
// of its own and a [Strategy] that says which of its content gives way
// first, and an [Assembler], made by [New] from a [Config], fits them all
// into a model's context window, less the tokens reserved for the answer. The [Result] holds the final
// text, its exact token count, chat messages and a report of what each
// section kept, cut and dropped, which renders as a table.
//
// # Sections and strategies
//
// A section holds [Item] values: retrieved chunks, conversation turns,
// remembered facts, tool calls and results. Its strategy sheds content in
// whole units (an item, or the items that share a Group), in a fixed
// order: lowest Rank first ([DropLowestRank]), oldest first
// ([DropOldest]), older ones first to keep the newest ([KeepNewest]), or
// from the end or the start of the section ([TruncateEnd],
// [TruncateStart]). The first unit that does not fit whole may be kept in
// part where the strategy allows ([Cut]): cut at a sentence boundary, or
// at a word boundary if not even one sentence fits, with a marker.
//
// # Protected spans
//
// An item may name the parts of its text that matter most, as byte spans
// in [Item.Keep], most important first: the search hits inside a
// retrieved passage. A cut of such an item keeps them longest, whatever
// the strategy's side: it gives up the sentences farthest from every span
// first, then the spans' own sentences, the last span's first, so that the
// first span is the last of the item to go (cut at its words if not even
// its sentences fit). A marker stands where text was left out, before,
// between and after the stretches kept:
//
//	[…] Revenue grew in every region. Gross margin was 43.0 percent. […]
//
// Counts stay exact as for any cut: the kept text, markers included, is
// counted as it appears in the prompt. [ItemReport.SpansKept] says which
// spans survived. Items without spans are cut at the end or the start of
// their text as their section's strategy says.
//
// # Fitting
//
// [Assembler.Assemble] first fits each section to its MaxTokens. If the
// whole then exceeds Limit - Reserve, sections give up content in
// ascending Priority, each as far as it may before the next one starts,
// until the whole fits. Required sections keep their anchor (the unit
// their strategy keeps longest); if the anchors cannot fit, Assemble
// returns an error wrapping [ErrRequiredTooLarge] together with the
// report.
//
// # Report
//
// [Result.Sections] says, for each section, its budget, the exact tokens
// of its content as it appears in the text, whether it was preserved,
// truncated or dropped, whether the limit (rather than its own budget)
// made it give way, and what became of each item. [Result.String]
// renders it as a table:
//
//	section      | tokens | budget | use | status
//	-------------+--------+--------+-----+---------------------------------
//	instructions |     22 |    255 |  9% | preserved
//	goal         |     22 |   1500 |  1% | preserved
//	memory       |     17 |     55 | 31% | preserved
//	retrieval    |    506 |    550 | 92% | truncated (2 of 6 items dropped)
//	tool outputs |     20 |    855 |  2% | preserved
//	-------------+--------+--------+-----+---------------------------------
//	total        |    587 |   7000 |  8% | limit 8000, reserve 1000
//
// For chat APIs, [Result.Messages] carries the same content as messages
// with roles.
//
// # Exact counts
//
// Token counts are not additive: "a" + "\n\n" + "b" can count differently
// from the sum of its parts. Every decision here is made on the
// Tokenizer's exact count of the string it is about (a section's rendered
// block against its budget, the whole text against the limit), and
// [Result.Tokens] is the count of [Result.Text]. Sums of per-item counts
// and token offsets from [tokencount.AppendTokenEnds] only guide the
// search, so a prompt built from hundreds of candidates costs one count
// per candidate the budget can reach, plus a few exact passes over the
// result. benchmarks/README.md has the measured figures:
// https://github.com/ragkit/ragkit/blob/main/benchmarks/README.md#prompt-assembly.
package budget
