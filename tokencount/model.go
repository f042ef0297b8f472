package tokencount

import (
	"fmt"
	"strings"
)

// modelEncodings maps exact model names to encodings.
var modelEncodings = map[string]string{
	"gpt-5":                  O200kBase,
	"gpt-4.5":                O200kBase,
	"gpt-4.1":                O200kBase,
	"gpt-4o":                 O200kBase,
	"chatgpt-4o-latest":      O200kBase,
	"gpt-oss":                O200kBase,
	"o1":                     O200kBase,
	"o3":                     O200kBase,
	"o4-mini":                O200kBase,
	"gpt-4":                  Cl100kBase,
	"gpt-3.5-turbo":          Cl100kBase,
	"gpt-35-turbo":           Cl100kBase, // Azure's spelling
	"text-embedding-ada-002": Cl100kBase,
	"text-embedding-3-small": Cl100kBase,
	"text-embedding-3-large": Cl100kBase,
	"text-davinci-003":       P50kBase,
	"text-davinci-002":       P50kBase,
	"code-davinci-002":       P50kBase,
	"code-davinci-001":       P50kBase,
	"code-cushman-002":       P50kBase,
	"code-cushman-001":       P50kBase,
	"davinci-002":            Cl100kBase,
	"babbage-002":            Cl100kBase,
	"text-davinci-001":       R50kBase,
	"text-curie-001":         R50kBase,
	"text-babbage-001":       R50kBase,
	"text-ada-001":           R50kBase,
	"davinci":                R50kBase,
	"curie":                  R50kBase,
	"babbage":                R50kBase,
	"ada":                    R50kBase,
	"gpt2":                   R50kBase,
	"gpt-2":                  R50kBase,
}

// modelPrefixes maps model families to encodings; the longest matching
// prefix wins, so "gpt-4o-mini" is o200k_base while "gpt-4-turbo" is
// cl100k_base.
var modelPrefixes = []struct{ prefix, encoding string }{
	{"gpt-5-", O200kBase},
	{"gpt-5.", O200kBase},
	{"gpt-4.5-", O200kBase},
	{"gpt-4.1-", O200kBase},
	{"gpt-4o-", O200kBase},
	{"gpt-oss-", O200kBase},
	{"o1-", O200kBase},
	{"o3-", O200kBase},
	{"o4-", O200kBase},
	{"gpt-4-", Cl100kBase},
	{"gpt-3.5-turbo-", Cl100kBase},
	{"gpt-35-turbo-", Cl100kBase},
	{"ft:gpt-4o", O200kBase},
	{"ft:gpt-4.1", O200kBase},
	{"ft:gpt-4", Cl100kBase},
	{"ft:gpt-3.5-turbo", Cl100kBase},
	{"ft:davinci-002", Cl100kBase},
	{"ft:babbage-002", Cl100kBase},
}

// EncodingForModel returns the name of the encoding that model uses, or an
// error wrapping [ErrUnknownModel]. The name is read without surrounding
// white space and in any case ("GPT-4o " is "gpt-4o"), then matched
// exactly ("gpt-4o", "gpt-4", "text-embedding-3-small"), then by the
// longest known prefix ("gpt-4o-2024-08-06", "gpt-4.1-mini", "o3-mini",
// "ft:gpt-4o:org:...").
func EncodingForModel(model string) (string, error) {
	name := strings.ToLower(strings.TrimSpace(model))
	if enc, ok := modelEncodings[name]; ok {
		return enc, nil
	}
	best, enc := 0, ""
	for _, p := range modelPrefixes {
		if len(p.prefix) > best && strings.HasPrefix(name, p.prefix) {
			best, enc = len(p.prefix), p.encoding
		}
	}
	if enc == "" {
		return "", fmt.Errorf("%w: %q (tokencount knows OpenAI's models; module "+
			"github.com/ragkit/ragkit/tokencount/hf counts for the others from their tokenizer.json)", ErrUnknownModel, model)
	}
	return enc, nil
}

// ForModel returns the [Tokenizer] for an OpenAI model name, in any case
// and with any surrounding white space, as mapped by [EncodingForModel]:
// "gpt-4o", "gpt-4.1", "gpt-5", "o1", "o3-mini" and
// "o4-mini" use o200k_base; "gpt-4", "gpt-3.5-turbo" and the
// "text-embedding-3-*" models use cl100k_base. An unknown model returns an
// error wrapping [ErrUnknownModel] that points to module
// github.com/ragkit/ragkit/tokencount/hf, which counts for the other
// models (Llama, Mistral, Qwen, ...) from their tokenizer.json.
func ForModel(model string) (Tokenizer, error) {
	enc, err := EncodingForModel(model)
	if err != nil {
		return nil, err
	}
	return Encoding(enc)
}
