package bert_test

import (
	"encoding/binary"
	"encoding/json"
	"flag"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// The tiny models in testdata/tiny are random-weight BERT models made for
// the tests by TestGenerateTiny:
//
//	go test -run TestGenerateTiny -generate .
//
// and their reference outputs by an independent implementation, a BERT
// forward pass in plain Python (no numpy):
//
//	python3 testdata/reference.py testdata/tiny > testdata/tiny/expected.json
var generate = flag.Bool("generate", false, "rewrite testdata/tiny")

// tinyVocab is the WordPiece vocabulary of the tiny models: the special
// tokens, words, word pieces and the letters, so that every ASCII word
// has a segmentation.
func tinyVocab() []string {
	v := []string{"[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]"}
	v = append(v, ".", ",", "!", "?", "'", "-", "(", ")", ":")
	v = append(v, "the", "a", "is", "of", "and", "to", "in", "it", "this", "that",
		"cat", "dog", "sat", "on", "mat", "rain", "sun", "model", "text", "token",
		"embed", "search", "query", "answer", "fox", "quick", "brown", "jump", "over", "lazy",
		"##s", "##ed", "##ing", "##er", "##ly", "##ding", "##ize")
	for c := 'a'; c <= 'z'; c++ {
		v = append(v, string(c), "##"+string(c))
	}
	for c := '0'; c <= '9'; c++ {
		v = append(v, string(c), "##"+string(c))
	}
	return v
}

// tinyModel is one folder of testdata/tiny.
type tinyModel struct {
	dir        string // under testdata/tiny
	files      string // where config.json, tokenizer.json and the weights go, under dir
	arch       string
	dtype      string
	act        string
	pooling    string // mean_tokens, cls_token, or "" for no sentence-transformers files
	normalize  bool
	maxSeq     int
	seed       uint64
	classifier bool
}

var tinyModels = []tinyModel{
	{dir: "embed", arch: "BertModel", dtype: "F32", act: "gelu", pooling: "mean_tokens", normalize: true, maxSeq: 16, seed: 1},
	{dir: "embed-f16", arch: "BertModel", dtype: "F16", act: "gelu_new", pooling: "cls_token", maxSeq: 24, seed: 2},
	{dir: "embed-bf16", files: "model", arch: "BertModel", dtype: "BF16", act: "relu", seed: 3},
	{dir: "rerank", arch: "BertForSequenceClassification", dtype: "F32", act: "gelu", maxSeq: 20, seed: 4, classifier: true},
}

const (
	tinyHidden = 16
	tinyHeads  = 4 // head size 4: the kernel's paths for fewer than 8 values
	tinyInter  = 40
	tinyLayers = 2
	tinyPos    = 32
)

func TestGenerateTiny(t *testing.T) {
	if !*generate {
		t.Skip("run with -generate to rewrite testdata/tiny")
	}
	for _, tm := range tinyModels {
		if err := tm.write(filepath.Join("testdata", "tiny", tm.dir)); err != nil {
			t.Fatal(err)
		}
	}
}

func (tm tinyModel) write(dir string) error {
	files := filepath.Join(dir, tm.files)
	if err := os.MkdirAll(files, 0o755); err != nil {
		return err
	}
	vocab := tinyVocab()
	arch := map[string]any{
		"architectures": []string{tm.arch}, "model_type": "bert",
		"hidden_size": tinyHidden, "num_hidden_layers": tinyLayers, "num_attention_heads": tinyHeads,
		"intermediate_size": tinyInter, "hidden_act": tm.act, "layer_norm_eps": 1e-12,
		"max_position_embeddings": tinyPos, "type_vocab_size": 2, "vocab_size": len(vocab),
		"position_embedding_type": "absolute", "pad_token_id": 0,
	}
	if tm.classifier {
		arch["id2label"] = map[string]string{"0": "LABEL_0"}
	}
	if err := writeJSON(filepath.Join(files, "config.json"), arch); err != nil {
		return err
	}
	if err := writeJSON(filepath.Join(files, "tokenizer.json"), tinyTokenizer(vocab)); err != nil {
		return err
	}
	if tm.pooling != "" {
		modules := []map[string]any{
			{"idx": 0, "name": "0", "path": "", "type": "sentence_transformers.models.Transformer"},
			{"idx": 1, "name": "1", "path": "1_Pooling", "type": "sentence_transformers.models.Pooling"},
		}
		if tm.normalize {
			modules = append(modules, map[string]any{"idx": 2, "name": "2", "path": "2_Normalize", "type": "sentence_transformers.models.Normalize"})
		}
		if err := writeJSON(filepath.Join(dir, "modules.json"), modules); err != nil {
			return err
		}
		if err := os.MkdirAll(filepath.Join(dir, "1_Pooling"), 0o755); err != nil {
			return err
		}
		pool := map[string]any{"word_embedding_dimension": tinyHidden, "pooling_mode_cls_token": false,
			"pooling_mode_mean_tokens": false, "pooling_mode_max_tokens": false, "pooling_mode_mean_sqrt_len_tokens": false}
		pool["pooling_mode_"+tm.pooling] = true
		if err := writeJSON(filepath.Join(dir, "1_Pooling", "config.json"), pool); err != nil {
			return err
		}
	}
	if tm.maxSeq > 0 {
		if err := writeJSON(filepath.Join(dir, "sentence_bert_config.json"), map[string]any{"max_seq_length": tm.maxSeq, "do_lower_case": false}); err != nil {
			return err
		}
	}
	return writeSafetensors(filepath.Join(files, "model.safetensors"), tm.tensors(len(vocab)), tm.dtype)
}

type namedTensor struct {
	name  string
	shape []int
	data  []float32
}

// tensors draws the model's weights: normal values scaled so that the
// activations neither vanish nor saturate, LayerNorm gains around 1.
func (tm tinyModel) tensors(vocab int) []namedTensor {
	r := rand.New(rand.NewPCG(tm.seed, 41))
	var out []namedTensor
	prefix := ""
	if tm.classifier {
		prefix = "bert."
	}
	add := func(name string, scale float32, center float32, shape ...int) {
		n := 1
		for _, d := range shape {
			n *= d
		}
		v := make([]float32, n)
		for i := range v {
			v[i] = center + scale*float32(r.NormFloat64())
		}
		out = append(out, namedTensor{name, shape, v})
	}
	lin := func(name string, o, i int) {
		add(prefix+name+".weight", float32(1/math.Sqrt(float64(i))), 0, o, i)
		add(prefix+name+".bias", 0.1, 0, o)
	}
	ln := func(name string) {
		add(prefix+name+".weight", 0.1, 1, tinyHidden)
		add(prefix+name+".bias", 0.1, 0, tinyHidden)
	}
	add(prefix+"embeddings.word_embeddings.weight", 1, 0, vocab, tinyHidden)
	add(prefix+"embeddings.position_embeddings.weight", 0.5, 0, tinyPos, tinyHidden)
	add(prefix+"embeddings.token_type_embeddings.weight", 0.5, 0, 2, tinyHidden)
	ln("embeddings.LayerNorm")
	for l := range tinyLayers {
		p := fmt.Sprintf("encoder.layer.%d.", l)
		for _, n := range []string{"query", "key", "value"} {
			lin(p+"attention.self."+n, tinyHidden, tinyHidden)
		}
		lin(p+"attention.output.dense", tinyHidden, tinyHidden)
		ln(p + "attention.output.LayerNorm")
		lin(p+"intermediate.dense", tinyInter, tinyHidden)
		lin(p+"output.dense", tinyHidden, tinyInter)
		ln(p + "output.LayerNorm")
	}
	if tm.classifier {
		lin("pooler.dense", tinyHidden, tinyHidden)
		prefix = ""
		lin("classifier", 1, tinyHidden)
	}
	return out
}

func tinyTokenizer(vocab []string) map[string]any {
	ids := make(map[string]int, len(vocab))
	for i, tok := range vocab {
		ids[tok] = i
	}
	var added []map[string]any
	for i, tok := range vocab[:5] {
		added = append(added, map[string]any{"id": i, "content": tok, "single_word": false, "lstrip": false,
			"rstrip": false, "normalized": false, "special": true})
	}
	special := func(tok string, typ int) map[string]any {
		return map[string]any{"SpecialToken": map[string]any{"id": tok, "type_id": typ}}
	}
	sequence := func(id string, typ int) map[string]any {
		return map[string]any{"Sequence": map[string]any{"id": id, "type_id": typ}}
	}
	return map[string]any{
		"version": "1.0", "truncation": nil, "padding": nil, "added_tokens": added,
		"normalizer": map[string]any{"type": "BertNormalizer", "clean_text": true, "handle_chinese_chars": true,
			"strip_accents": nil, "lowercase": true},
		"pre_tokenizer": map[string]any{"type": "BertPreTokenizer"},
		"post_processor": map[string]any{
			"type":   "TemplateProcessing",
			"single": []any{special("[CLS]", 0), sequence("A", 0), special("[SEP]", 0)},
			"pair":   []any{special("[CLS]", 0), sequence("A", 0), special("[SEP]", 0), sequence("B", 1), special("[SEP]", 1)},
			"special_tokens": map[string]any{
				"[CLS]": map[string]any{"id": "[CLS]", "ids": []int{2}, "tokens": []string{"[CLS]"}},
				"[SEP]": map[string]any{"id": "[SEP]", "ids": []int{3}, "tokens": []string{"[SEP]"}},
			},
		},
		"decoder": map[string]any{"type": "WordPiece", "prefix": "##", "cleanup": true},
		"model": map[string]any{"type": "WordPiece", "unk_token": "[UNK]", "continuing_subword_prefix": "##",
			"max_input_chars_per_word": 100, "vocab": ids},
	}
}

func writeJSON(path string, v any) error {
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return err
	}
	return os.WriteFile(path, append(b, '\n'), 0o644)
}

// writeSafetensors writes tensors in dtype (F32, F16 or BF16, rounded to
// nearest even), in the order given, with a __metadata__ entry as
// PyTorch's writer puts one.
func writeSafetensors(path string, tensors []namedTensor, dtype string) error {
	width := 4
	if dtype != "F32" {
		width = 2
	}
	header := map[string]any{"__metadata__": map[string]string{"format": "pt"}}
	var body []byte
	for _, t := range tensors {
		start := len(body)
		for _, x := range t.data {
			switch dtype {
			case "F32":
				body = binary.LittleEndian.AppendUint32(body, math.Float32bits(x))
			case "F16":
				body = binary.LittleEndian.AppendUint16(body, floatToHalf(x))
			case "BF16":
				body = binary.LittleEndian.AppendUint16(body, floatToBF16(x))
			}
		}
		header[t.name] = map[string]any{"dtype": dtype, "shape": t.shape, "data_offsets": []int{start, start + width*len(t.data)}}
	}
	h, err := json.Marshal(header)
	if err != nil {
		return err
	}
	for len(h)%8 != 0 {
		h = append(h, ' ') // the writer pads the header to 8 bytes
	}
	out := binary.LittleEndian.AppendUint64(nil, uint64(len(h)))
	return os.WriteFile(path, slices.Concat(out, h, body), 0o644)
}

// floatToHalf rounds x to the nearest binary16 (ties to even); x is
// within the normal range of the tiny models' weights.
func floatToHalf(x float32) uint16 {
	b := math.Float32bits(x)
	sign := uint16(b>>16) & 0x8000
	exp := int(b>>23&0xff) - 127 + 15
	mant := b & 0x7fffff
	if exp <= 0 {
		return sign // the tiny weights have no values this small
	}
	h := uint32(exp)<<10 | mant>>13
	rest := mant & 0x1fff
	if rest > 0x1000 || (rest == 0x1000 && h&1 == 1) {
		h++
	}
	return sign | uint16(h)
}

func floatToBF16(x float32) uint16 {
	b := math.Float32bits(x)
	rest := b & 0xffff
	h := b >> 16
	if rest > 0x8000 || (rest == 0x8000 && h&1 == 1) {
		h++
	}
	return uint16(h)
}
