package evaluate

// The judge's prompts, filled in with fmt.Sprintf. They follow the
// instructions of RAGAS's metrics (see [Judge]) in words of their own,
// and each asks for one JSON object, which the Judge checks.
const (
	// FaithfulnessClaimsPrompt asks for the statements of an answer;
	// its verbs are the question and the answer.
	FaithfulnessClaimsPrompt = `You are checking an answer for the claims it makes.
Break the answer to the question below into standalone statements: each one a single fact from the answer, understandable without the others (no pronouns that refer to other statements). Add nothing that the answer does not say. If the answer makes no claim (it declines, or only asks back), give an empty list.

Reply with a JSON object only, of this form:
{"statements": ["first statement", "second statement"]}

Question: %s

Answer: %s`

	// FaithfulnessVerdictsPrompt asks for a verdict on each statement;
	// its verbs are the context and the numbered statements.
	FaithfulnessVerdictsPrompt = `You are checking statements against a context.
For each numbered statement below, decide whether it can be inferred directly from the context alone: verdict 1 if it can, 0 if it cannot (the context does not say it, or says otherwise). Judge by the context only, not by what you know.

Reply with a JSON object only, one verdict per statement, of this form:
{"verdicts": [{"statement": 1, "reason": "why, briefly", "verdict": 1}]}

Context:
%s

Statements:
%s`

	// AnswerRelevancePrompt asks for questions that an answer answers;
	// its verbs are their number and the answer.
	AnswerRelevancePrompt = `You are reading an answer to find what it answers.
Write %d different questions that the answer below answers, each one that a person could have asked to get this answer. Also say whether the answer is noncommittal: 1 if it is evasive, vague or declines to answer ("I don't know", "I'm not sure"), 0 if it commits to an answer.

Reply with a JSON object only, of this form:
{"questions": ["first question?", "second question?"], "noncommittal": 0}

Answer: %s`

	// ContextRelevancePrompt asks for the sentences of a context needed
	// to answer a question; its verbs are the question and the context.
	ContextRelevancePrompt = `You are selecting the parts of a context that answer a question.
Copy, word for word, every sentence of the context below that is needed to answer the question. Do not change the sentences. If no sentence helps, or the question cannot be answered from the context, give an empty list.

Reply with a JSON object only, of this form:
{"sentences": ["a sentence copied from the context"]}

Question: %s

Context:
%s`
)

// GeneratePrompt asks for questions that a chunk answers, for
// [Judge.Generate]; its verbs are their number and the chunk's text.
const GeneratePrompt = `You are writing questions to test a search engine over a collection of documents.
Write %d different questions that the passage below answers. Each question must be answerable from the passage alone, be specific enough that another passage would not answer it as well, and read as a person would ask it, without mentioning "the passage". Give each a short answer copied word for word from the passage.

Reply with a JSON object only, of this form:
{"questions": [{"question": "a question?", "answer": "words from the passage"}]}

Passage:
%s`
