// Package evaluate measures retrieval on the user's own documents: how
// often a [Retriever] returns what answers a question, how high, how much
// of what it returns is relevant, and whether the answer survives the
// prompt's budget, so that a change of chunking, headers, search or
// budget is judged against a baseline rather than by how it looks.
//
// A question set is JSON Lines, one [Question] per line, read by
// [ReadQuestions]:
//
//	{"id": "q1", "question": "How much may a hotel cost?", "docs": ["travel.md"], "answer": "170 euros"}
//	{"id": "q2", "question": "Who approves first class?", "spans": [{"doc": "travel.md", "start": 25, "end": 52}]}
//	{"id": "q3", "question": "What is the parking policy?"}
//
// What counts as relevant is the question's byte spans of documents, or
// its documents as a whole, or its answer string (see [Evaluate] for
// which decides); a question with none is unanswerable from the corpus,
// kept to see what a retriever returns for it, and left out of the
// retrieval metrics.
//
// [Evaluate] asks the retriever each question and scores the first K
// passages, one [Result] per question:
//
//   - hit@1 and hit@k: a relevant passage is first, or among the K;
//   - MRR: the mean of 1/rank of the first relevant passage (0 for a
//     miss), so MRR@k; [ReciprocalRank] and [Hit] are the per-question
//     values, for harnesses that rank by their own rules;
//   - nDCG@k: binary gains, each target credited once, so duplicates
//     gain nothing (the formula is at [Evaluate]);
//   - span recall: the share of the spans' bytes the passages cover;
//   - context precision: relevant tokens over returned tokens;
//   - answer in passages and answer in prompt: the answer string is in
//     a passage, and still in the prompt an [AssembleFunc] builds from
//     them (after the budget's cuts);
//   - passage and prompt tokens: what the context costs.
//
// [Summarize] aggregates results: each metric's mean over the questions
// it applies to, with a percentile bootstrap confidence interval from a
// seeded generator (so a summary is reproducible). [Compare] runs several
// [Configuration]s on one question set, and [WriteTable] prints them side
// by side; a [Run] encodes as JSON with encoding/json. [Paired] tells
// whether two runs differ: the per-question differences with a paired
// bootstrap interval, which excludes 0 where the set tells them apart.
//
// A [Judge] scores what retrieval metrics cannot, with a chat model as
// the judge (any [Chat]; llm/openai through [ChatFunc]): faithfulness of
// an answer to its context (claims extracted, each checked), answer
// relevance and context relevance, by RAGAS's definitions with the
// prompts documented at [FaithfulnessClaimsPrompt] and the others.
// Replies are checked strictly; a malformed one is retried and then
// reported ([ErrJudge]), never guessed; accepted judgments are cached by
// content, and [Judge.Calls] counts the model calls.
//
// Without labelled questions, [Judge.Generate] writes a synthetic set
// from chunks: questions grounded in a chunk (the answer is checked to be
// in it), deduplicated, each with the chunk's span as its target.
//
// The costs are the retriever's: scoring is linear in the passages'
// bytes per question (each passage is counted by the Tokenizer once), and
// Summarize is Resamples × questions per metric.
//
// Example:
//
//	qs, err := evaluate.ReadQuestions(file)
//	...
//	results, err := evaluate.Evaluate(ctx, evaluate.Config{Tokenizer: tok, K: 5}, retriever, qs)
//	...
//	s, err := evaluate.Summarize(results, evaluate.SummaryConfig{})
//	fmt.Printf("hit@5 %.2f [%.2f, %.2f]\n", s.HitAtK.Mean, s.HitAtK.Low, s.HitAtK.High)
package evaluate
