// ids.js prints the reference's token ids for ids_test.go: Hugging Face's
// tokenizers library (the `tokenizers` npm package that .ci/run installs).
// Usage, with NODE_PATH pointing at that node_modules directory:
//
//   node ids.js TOKENIZER_JSON TEXTS_JSON
//
// prints, for the array of strings in TEXTS_JSON, [{"plain": ids of
// encode(text, add_special_tokens=false), "ids": ids of encode(text),
// "pair": ids of encode(text, next text), "types": its type ids}], the
// next text of the last being the first.
'use strict';
const fs = require('fs');
const { Tokenizer } = require('tokenizers');

async function main() {
  const [file, textsFile] = process.argv.slice(2);
  const tok = Tokenizer.fromFile(file);
  tok.disableTruncation();
  tok.disablePadding();
  const texts = JSON.parse(fs.readFileSync(textsFile, 'utf8'));
  const out = [];
  for (let k = 0; k < texts.length; k++) {
    const t = texts[k];
    const plain = await tok.encode(t, null, { addSpecialTokens: false });
    const single = await tok.encode(t, null);
    const pair = await tok.encode(t, texts[(k + 1) % texts.length]);
    out.push({ plain: plain.getIds(), ids: single.getIds(), pair: pair.getIds(), types: pair.getTypeIds() });
  }
  process.stdout.write(JSON.stringify(out));
}

main().catch((e) => { console.error(e); process.exit(1); });
