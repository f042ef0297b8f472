package bert

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// Bounds on the model a config.json may describe, checked before
// anything is allocated from it: the largest BERT-family models in use
// (bge-large, e5-large) have 24 layers of 1024 values.
const (
	maxConfigFile = 1 << 20
	maxLayers     = 64
	maxHidden     = 8192
	maxVocab      = 1 << 20
	maxPositions  = 8192 // an input's attention scores are positions² values
	maxLabels     = 1 << 10
)

// architectures are the config.json architectures this package runs:
// BERT's encoder alone (embedders) or with the classification head
// (cross-encoders). The heads of the pre-training architectures are not
// read; their encoder is BertModel's.
var architectures = map[string]bool{
	"BertModel":                     false,
	"BertForSequenceClassification": true,
	"BertForMaskedLM":               false,
	"BertForPreTraining":            false,
}

// config is what config.json and the sentence-transformers files say.
type config struct {
	Architectures    []string          `json:"architectures"`
	ModelType        string            `json:"model_type"`
	Hidden           int               `json:"hidden_size"`
	Layers           int               `json:"num_hidden_layers"`
	Heads            int               `json:"num_attention_heads"`
	Intermediate     int               `json:"intermediate_size"`
	Act              string            `json:"hidden_act"`
	Eps              float64           `json:"layer_norm_eps"`
	Positions        int               `json:"max_position_embeddings"`
	TypeVocab        int               `json:"type_vocab_size"`
	Vocab            int               `json:"vocab_size"`
	PositionEmbedTyp string            `json:"position_embedding_type"`
	ID2Label         map[string]string `json:"id2label"`

	classifier bool // BertForSequenceClassification
	labels     int
	// From the sentence-transformers files, when present.
	maxSeq    int     // sentence_bert_config.json's max_seq_length, or 0
	pooling   Pooling // 1_Pooling/config.json's mode, or PoolingDefault
	normalize bool    // a Normalize module in modules.json
}

// readJSON decodes the JSON file at path into v, bounded in size. A
// missing file is reported as fs.ErrNotExist.
func readJSON(path string, v any) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	b, err := io.ReadAll(io.LimitReader(f, maxConfigFile+1))
	if err != nil {
		return fmt.Errorf("bert: %w", err)
	}
	if len(b) > maxConfigFile {
		return fmt.Errorf("%w: %s is larger than %d bytes", ErrFormat, path, maxConfigFile)
	}
	if err := json.Unmarshal(b, v); err != nil {
		return fmt.Errorf("%w: %s: %v", ErrFormat, path, err)
	}
	return nil
}

// readConfig reads config.json in dir and the sentence-transformers files
// in root (the model's folder), and checks the architecture and sizes.
func readConfig(dir, root string) (*config, error) {
	c := &config{}
	if err := readJSON(filepath.Join(dir, "config.json"), c); err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil, fmt.Errorf("%w: no config.json in %s", ErrFormat, dir)
		}
		return nil, err
	}
	if err := c.check(); err != nil {
		return nil, err
	}
	if err := c.readSentenceTransformers(root); err != nil {
		return nil, err
	}
	return c, nil
}

func (c *config) check() error {
	if len(c.Architectures) != 1 {
		return fmt.Errorf("%w: config.json names architectures %v: want one of BertModel, BertForSequenceClassification", ErrUnsupported, c.Architectures)
	}
	arch := c.Architectures[0]
	cls, ok := architectures[arch]
	if !ok {
		return fmt.Errorf("%w: architecture %s (model_type %q): this package runs BertModel and BertForSequenceClassification", ErrUnsupported, arch, c.ModelType)
	}
	c.classifier = cls
	if c.PositionEmbedTyp != "" && c.PositionEmbedTyp != "absolute" {
		return fmt.Errorf("%w: position_embedding_type %q (absolute is run)", ErrUnsupported, c.PositionEmbedTyp)
	}
	switch c.Act {
	case "gelu", "gelu_new", "gelu_pytorch_tanh", "relu":
	default:
		return fmt.Errorf("%w: hidden_act %q (gelu, gelu_new, gelu_pytorch_tanh and relu are run)", ErrUnsupported, c.Act)
	}
	if c.Eps == 0 {
		c.Eps = 1e-12 // BertConfig's default
	}
	if c.TypeVocab == 0 {
		c.TypeVocab = 2
	}
	sizes := []struct {
		name   string
		v, max int
	}{
		{"hidden_size", c.Hidden, maxHidden},
		{"num_hidden_layers", c.Layers, maxLayers},
		{"num_attention_heads", c.Heads, maxHidden},
		{"intermediate_size", c.Intermediate, 4 * maxHidden},
		{"max_position_embeddings", c.Positions, maxPositions},
		{"type_vocab_size", c.TypeVocab, 16},
		{"vocab_size", c.Vocab, maxVocab},
	}
	for _, s := range sizes {
		if s.v <= 0 || s.v > s.max {
			return fmt.Errorf("%w: config.json: %s is %d: must be in [1, %d]", ErrFormat, s.name, s.v, s.max)
		}
	}
	if c.Hidden%c.Heads != 0 {
		return fmt.Errorf("%w: config.json: hidden_size %d is not a multiple of num_attention_heads %d", ErrFormat, c.Hidden, c.Heads)
	}
	c.labels = max(1, len(c.ID2Label))
	if c.labels > maxLabels {
		return fmt.Errorf("%w: config.json: %d labels, more than %d", ErrFormat, c.labels, maxLabels)
	}
	return nil
}

// readSentenceTransformers reads modules.json, the pooling module's
// config.json and sentence_bert_config.json in root, where
// sentence-transformers saved a model; none of them is required.
func (c *config) readSentenceTransformers(root string) error {
	var modules []struct {
		Path string `json:"path"`
		Type string `json:"type"`
	}
	err := readJSON(filepath.Join(root, "modules.json"), &modules)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	for _, m := range modules {
		switch {
		case strings.HasSuffix(m.Type, ".Normalize"):
			c.normalize = true
		case strings.HasSuffix(m.Type, ".Pooling"):
			if err := c.readPooling(root, m.Path); err != nil {
				return err
			}
		case strings.HasSuffix(m.Type, ".Transformer"):
		default:
			return fmt.Errorf("%w: modules.json: module %s (Transformer, Pooling and Normalize are run)", ErrUnsupported, m.Type)
		}
	}
	var sb struct {
		MaxSeqLength int `json:"max_seq_length"`
	}
	err = readJSON(filepath.Join(root, "sentence_bert_config.json"), &sb)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	if sb.MaxSeqLength < 0 || sb.MaxSeqLength > c.Positions {
		return fmt.Errorf("%w: sentence_bert_config.json: max_seq_length %d: must be in [1, %d]", ErrFormat, sb.MaxSeqLength, c.Positions)
	}
	c.maxSeq = sb.MaxSeqLength
	return nil
}

func (c *config) readPooling(root, path string) error {
	if !filepath.IsLocal(path) {
		return fmt.Errorf("%w: modules.json: pooling path %q leaves the model folder", ErrFormat, path)
	}
	var p map[string]any
	if err := readJSON(filepath.Join(root, path, "config.json"), &p); err != nil {
		return err
	}
	var modes []string
	for k, v := range p {
		if on, ok := v.(bool); ok && on && strings.HasPrefix(k, "pooling_mode_") {
			modes = append(modes, strings.TrimPrefix(k, "pooling_mode_"))
		}
	}
	slices.Sort(modes)
	switch {
	case slices.Equal(modes, []string{"mean_tokens"}):
		c.pooling = PoolingMean
	case slices.Equal(modes, []string{"cls_token"}):
		c.pooling = PoolingCLS
	default:
		return fmt.Errorf("%w: pooling modes %v (mean_tokens or cls_token alone are run)", ErrUnsupported, modes)
	}
	return nil
}
