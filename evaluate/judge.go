package evaluate

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/ragkit/ragkit/segment"
	"github.com/ragkit/ragkit/vectorstore"
)

// A Chat is a chat model used as a judge: it completes one prompt, given
// as a user message, with the model's reply. Judgments are only as
// repeatable as the model: run it at temperature 0 (see [ChatFunc] for
// llm/openai).
type Chat interface {
	Complete(ctx context.Context, prompt string) (string, error)
}

// ChatFunc adapts a function to [Chat]. With llm/openai:
//
//	judge := evaluate.ChatFunc(func(ctx context.Context, prompt string) (string, error) {
//		r, err := client.Chat(ctx, []openai.Message{{Role: openai.RoleUser, Content: prompt}},
//			openai.ChatOptions{Model: "gpt-4o-mini", Temperature: 0})
//		return r.Content, err
//	})
type ChatFunc func(ctx context.Context, prompt string) (string, error)

// Complete calls f.
func (f ChatFunc) Complete(ctx context.Context, prompt string) (string, error) { return f(ctx, prompt) }

// MaxReplyBytes is the longest judge reply read; a longer one is
// malformed.
const MaxReplyBytes = 64 << 10

// JudgeConfig configures a [Judge].
type JudgeConfig struct {
	// Chat is the judge model. Required.
	Chat Chat
	// Embedder embeds questions for answer relevance; nil leaves
	// AnswerRelevance unavailable (it returns an error wrapping
	// ErrConfig).
	Embedder vectorstore.Embedder
	// Attempts is how many times a prompt is sent before malformed
	// replies give ErrJudge; zero means 3. At most 10.
	Attempts int
	// Questions is the number of questions answer relevance asks the
	// judge to write for an answer; zero means 3. At most 20.
	Questions int
}

// A Judge scores answers and contexts with a chat model, by the
// definitions of RAGAS (Es, James, Espinosa-Anke and Schockaert, "RAGAS:
// Automated Evaluation of Retrieval Augmented Generation", EACL 2024
// demos, arXiv:2309.15217; docs.ragas.io, "Metrics"):
//
//   - faithfulness = |V| / |S|: the statements S the judge extracts from
//     the answer, of which V it finds can be inferred from the context;
//   - answer relevance = the mean cosine similarity of the question to
//     n questions the judge writes for the answer (0 when the judge
//     finds the answer noncommittal, as RAGAS's implementation does);
//   - context relevance = the sentences of the context the judge
//     extracts as needed to answer, over the context's sentences
//     (package segment's).
//
// The prompts are [FaithfulnessClaimsPrompt], [FaithfulnessVerdictsPrompt],
// [AnswerRelevancePrompt] and [ContextRelevancePrompt], written for this
// package after RAGAS's instructions, each asking for a JSON object.
//
// A reply is accepted only when it is such an object, with every field
// and nothing more, checked against the input (a verdict per statement,
// sentences that are in the context); otherwise the prompt is sent again
// with what was wrong, up to Attempts times, and then the call returns
// an error wrapping [ErrJudge]: a malformed or refused judgment is
// reported, never guessed. An error of the Chat (a timeout, a refusal
// by the server) is not retried here (llm/openai retries its own) and is
// returned wrapped, for errors.Is.
//
// Accepted replies are cached by the prompt's content (its SHA-256), so
// that a judgment asked twice (the same answer and context in two
// configurations) costs one model call; [Judge.Calls] counts the calls.
// A Judge is safe for concurrent use.
type Judge struct {
	cfg   JudgeConfig
	calls atomic.Int64
	mu    sync.Mutex
	cache map[[sha256.Size]byte]string
}

// NewJudge returns a Judge configured by cfg.
func NewJudge(cfg JudgeConfig) (*Judge, error) {
	switch {
	case cfg.Chat == nil:
		return nil, fmt.Errorf("%w: Chat is required", ErrConfig)
	case cfg.Attempts < 0 || cfg.Attempts > 10:
		return nil, fmt.Errorf("%w: Attempts is %d: must be in [1, 10], or zero for 3", ErrConfig, cfg.Attempts)
	case cfg.Questions < 0 || cfg.Questions > 20:
		return nil, fmt.Errorf("%w: Questions is %d: must be in [1, 20], or zero for 3", ErrConfig, cfg.Questions)
	}
	if cfg.Attempts == 0 {
		cfg.Attempts = 3
	}
	if cfg.Questions == 0 {
		cfg.Questions = 3
	}
	return &Judge{cfg: cfg, cache: map[[sha256.Size]byte]string{}}, nil
}

// Config returns the Judge's configuration, defaults filled in.
func (j *Judge) Config() JudgeConfig { return j.cfg }

// Calls returns the number of calls made to the Chat so far.
func (j *Judge) Calls() int { return int(j.calls.Load()) }

// ask sends prompt until parse accepts the reply, and returns it.
func (j *Judge) ask(ctx context.Context, prompt string, parse func(reply string) error) error {
	key := sha256.Sum256([]byte(prompt))
	j.mu.Lock()
	reply, ok := j.cache[key]
	j.mu.Unlock()
	if ok {
		return parse(reply)
	}
	send := prompt
	var why error
	for range j.cfg.Attempts {
		if err := ctx.Err(); err != nil {
			return err
		}
		j.calls.Add(1)
		reply, err := j.cfg.Chat.Complete(ctx, send)
		if err != nil {
			return err
		}
		if why = parse(reply); why == nil {
			j.mu.Lock()
			j.cache[key] = reply
			j.mu.Unlock()
			return nil
		}
		send = prompt + "\n\nYour previous reply was not accepted: " + why.Error() + ". Reply with the JSON object only."
	}
	return fmt.Errorf("%w: after %d attempts: %v", ErrJudge, j.cfg.Attempts, why)
}

// decodeReply decodes the JSON object of reply (the text from its first
// "{" to its last "}", so that a code fence around it does no harm) into
// v, strictly.
func decodeReply(reply string, v any) error {
	if len(reply) > MaxReplyBytes {
		return fmt.Errorf("the reply is longer than %d bytes", MaxReplyBytes)
	}
	lo, hi := strings.Index(reply, "{"), strings.LastIndex(reply, "}")
	if lo < 0 || hi < lo {
		return errors.New("the reply holds no JSON object")
	}
	dec := json.NewDecoder(bytes.NewReader([]byte(reply[lo : hi+1])))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return fmt.Errorf("the JSON object is not as asked: %v", err)
	}
	return nil
}

// A Claim is a statement of an answer and the judge's verdict on it.
type Claim struct {
	Statement string `json:"statement"`
	Supported bool   `json:"supported"`
}

// A Faithfulness is the judged faithfulness of an answer to its context.
type Faithfulness struct {
	// Score is the share of the claims that are supported.
	Score  float64 `json:"score"`
	Claims []Claim `json:"claims"`
}

// Faithfulness judges how much of answer, given to question, can be
// inferred from context: two model calls (statements, then verdicts), or
// none when both are cached. An answer with no statement gives
// ErrNoClaims.
func (j *Judge) Faithfulness(ctx context.Context, question, answer, context string) (Faithfulness, error) {
	if err := nonEmpty("question", question, "answer", answer, "context", context); err != nil {
		return Faithfulness{}, err
	}
	var claims struct {
		Statements *[]string `json:"statements"`
	}
	err := j.ask(ctx, fmt.Sprintf(FaithfulnessClaimsPrompt, question, answer), func(reply string) error {
		claims.Statements = nil
		if err := decodeReply(reply, &claims); err != nil {
			return err
		}
		if claims.Statements == nil {
			return errors.New(`"statements" is missing`)
		}
		for i, s := range *claims.Statements {
			if strings.TrimSpace(s) == "" {
				return fmt.Errorf("statement %d is empty", i+1)
			}
		}
		return nil
	})
	if err != nil {
		return Faithfulness{}, fmt.Errorf("faithfulness: statements: %w", err)
	}
	statements := *claims.Statements
	if len(statements) == 0 {
		return Faithfulness{}, ErrNoClaims
	}
	var listed strings.Builder
	for i, s := range statements {
		fmt.Fprintf(&listed, "%d. %s\n", i+1, s)
	}
	type verdict struct {
		Statement *int   `json:"statement"`
		Verdict   *int   `json:"verdict"`
		Reason    string `json:"reason"`
	}
	var verdicts struct {
		Verdicts []verdict `json:"verdicts"`
	}
	f := Faithfulness{Claims: make([]Claim, len(statements))}
	err = j.ask(ctx, fmt.Sprintf(FaithfulnessVerdictsPrompt, context, listed.String()), func(reply string) error {
		verdicts.Verdicts = nil
		if err := decodeReply(reply, &verdicts); err != nil {
			return err
		}
		if len(verdicts.Verdicts) != len(statements) {
			return fmt.Errorf("%d verdicts for %d statements", len(verdicts.Verdicts), len(statements))
		}
		seen := make([]bool, len(statements))
		for i, v := range verdicts.Verdicts {
			switch {
			case v.Statement == nil || *v.Statement < 1 || *v.Statement > len(statements):
				return fmt.Errorf("verdict %d: \"statement\" must be a number from 1 to %d", i+1, len(statements))
			case seen[*v.Statement-1]:
				return fmt.Errorf("verdict %d: statement %d is judged twice", i+1, *v.Statement)
			case v.Verdict == nil || *v.Verdict != 0 && *v.Verdict != 1:
				return fmt.Errorf("verdict %d: \"verdict\" must be 0 or 1", i+1)
			}
			seen[*v.Statement-1] = true
			f.Claims[*v.Statement-1] = Claim{Statement: statements[*v.Statement-1], Supported: *v.Verdict == 1}
		}
		return nil
	})
	if err != nil {
		return Faithfulness{}, fmt.Errorf("faithfulness: verdicts: %w", err)
	}
	var supported int
	for _, c := range f.Claims {
		if c.Supported {
			supported++
		}
	}
	f.Score = float64(supported) / float64(len(f.Claims))
	return f, nil
}

// AnswerRelevance judges how directly answer addresses question: the
// judge writes Questions questions that the answer answers and says
// whether it is noncommittal; the score is 0 for a noncommittal answer,
// else the mean cosine similarity of the question's embedding to theirs
// (negative similarities count as 0). One model call and one Embed call.
func (j *Judge) AnswerRelevance(ctx context.Context, question, answer string) (float64, error) {
	if j.cfg.Embedder == nil {
		return 0, fmt.Errorf("%w: Embedder is required for answer relevance", ErrConfig)
	}
	if err := nonEmpty("question", question, "answer", answer); err != nil {
		return 0, err
	}
	var gen struct {
		Questions    []string `json:"questions"`
		Noncommittal *int     `json:"noncommittal"`
	}
	n := j.cfg.Questions
	err := j.ask(ctx, fmt.Sprintf(AnswerRelevancePrompt, n, answer), func(reply string) error {
		gen.Questions, gen.Noncommittal = nil, nil
		if err := decodeReply(reply, &gen); err != nil {
			return err
		}
		if gen.Noncommittal == nil || *gen.Noncommittal != 0 && *gen.Noncommittal != 1 {
			return errors.New(`"noncommittal" must be 0 or 1`)
		}
		if len(gen.Questions) != n {
			return fmt.Errorf("%d questions, not %d", len(gen.Questions), n)
		}
		for i, q := range gen.Questions {
			if strings.TrimSpace(q) == "" {
				return fmt.Errorf("question %d is empty", i+1)
			}
		}
		return nil
	})
	if err != nil {
		return 0, fmt.Errorf("answer relevance: %w", err)
	}
	if *gen.Noncommittal == 1 {
		return 0, nil
	}
	vecs, err := j.cfg.Embedder.Embed(ctx, append([]string{question}, gen.Questions...))
	if err != nil {
		return 0, fmt.Errorf("answer relevance: embedding: %w", err)
	}
	if len(vecs) != n+1 {
		return 0, fmt.Errorf("answer relevance: the Embedder returned %d vectors for %d texts", len(vecs), n+1)
	}
	var sum float64
	for _, v := range vecs[1:] {
		sum += max(0, cosine(vecs[0], v))
	}
	return sum / float64(n), nil
}

// ContextRelevance judges how much of context is needed to answer
// question: the share of its sentences (by package segment) that the
// judge extracts as needed. Each sentence the judge returns must be in
// the context (ignoring case and runs of white space), or the reply is
// malformed. One model call.
func (j *Judge) ContextRelevance(ctx context.Context, question, context string) (float64, error) {
	if err := nonEmpty("question", question, "context", context); err != nil {
		return 0, err
	}
	total := max(len(segment.Sentences(context)), 1) // the context is not blank
	var got struct {
		Sentences *[]string `json:"sentences"`
	}
	var relevant int
	err := j.ask(ctx, fmt.Sprintf(ContextRelevancePrompt, question, context), func(reply string) error {
		got.Sentences = nil
		if err := decodeReply(reply, &got); err != nil {
			return err
		}
		if got.Sentences == nil {
			return errors.New(`"sentences" is missing`)
		}
		norm := normalize(context)
		ss := distinct(*got.Sentences)
		for i, s := range ss {
			if n := normalize(s); n == "" || !strings.Contains(norm, n) {
				return fmt.Errorf("sentence %d is not in the context", i+1)
			}
		}
		relevant = len(ss)
		return nil
	})
	if err != nil {
		return 0, fmt.Errorf("context relevance: %w", err)
	}
	return float64(min(relevant, total)) / float64(total), nil
}

func nonEmpty(nameValue ...string) error {
	for i := 0; i+1 < len(nameValue); i += 2 {
		if strings.TrimSpace(nameValue[i+1]) == "" {
			return fmt.Errorf("%w: the %s is empty", ErrInvalid, nameValue[i])
		}
	}
	return nil
}

func cosine(a, b []float32) float64 {
	if len(a) != len(b) {
		return 0
	}
	var dot, na, nb float64
	for i := range a {
		dot += float64(a[i]) * float64(b[i])
		na += float64(a[i]) * float64(a[i])
		nb += float64(b[i]) * float64(b[i])
	}
	if na == 0 || nb == 0 {
		return 0
	}
	return dot / math.Sqrt(na*nb)
}
