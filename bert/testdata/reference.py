"""reference.py: the reference outputs of the tiny models, for bert's tests.

An implementation of BERT independent of package bert's: plain Python, no
numpy, in float64, following the Hugging Face transformers library's
BertModel and BertForSequenceClassification and sentence-transformers'
Pooling and Normalize modules. It reads each model folder under DIR (as
TestGenerateTiny wrote them) and prints, as JSON, the vectors of TEXTS for
the embedders and the scores of (QUERY, text) for the cross-encoder:

    python3 testdata/reference.py testdata/tiny > testdata/tiny/expected.json
"""

import json
import math
import os
import struct
import sys
import unicodedata

TEXTS = [
    "This is an example sentence.",
    "The quick brown fox jumped over the lazy dog!",
    "",
    "a",
    "Cats sat on the mat, and it rained: (the sun is embedding?) 42",
    "Zebras xylophone query answers tokenize models the search of it that"
    " is in and to of a the cat dog sat on mat rain sun",
    "UPPER case Words, Ponctuation-heavy: a-b-c!?",
    "the cat sat on the mat and the dog is in",  # as long as QUERY: a tie to truncate
]
QUERY = "where is the cat now?"


def is_punct(ch):
    cp = ord(ch)
    if 33 <= cp <= 47 or 58 <= cp <= 64 or 91 <= cp <= 96 or 123 <= cp <= 126:
        return True
    return unicodedata.category(ch).startswith("P")


def basic_tokens(text):
    """BertNormalizer (lower case, accents stripped) and BertPreTokenizer."""
    text = "".join(" " if ch.isspace() else ch for ch in text
                   if not (ord(ch) == 0 or ord(ch) == 0xFFFD or
                           (unicodedata.category(ch).startswith("C") and ch not in "\t\n\r")))
    text = unicodedata.normalize("NFD", text.lower())
    text = "".join(ch for ch in text if unicodedata.category(ch) != "Mn")
    words = []
    for w in text.split():
        cur = ""
        for ch in w:
            if is_punct(ch):
                if cur:
                    words.append(cur)
                    cur = ""
                words.append(ch)
            else:
                cur += ch
        if cur:
            words.append(cur)
    return words


def wordpiece(word, vocab):
    if len(word) > 100:
        return [vocab["[UNK]"]]
    out, start = [], 0
    while start < len(word):
        end, found = len(word), None
        while end > start:
            piece = word[start:end] if start == 0 else "##" + word[start:end]
            if piece in vocab:
                found = vocab[piece]
                break
            end -= 1
        if found is None:
            return [vocab["[UNK]"]]
        out.append(found)
        start = end
    return out


def ids_of(text, vocab):
    return [i for w in basic_tokens(text) for i in wordpiece(w, vocab)]


def read_safetensors(path):
    with open(path, "rb") as f:
        data = f.read()
    n = struct.unpack("<Q", data[:8])[0]
    header = json.loads(data[8:8 + n])
    body = data[8 + n:]
    out = {}
    for name, e in header.items():
        if name == "__metadata__":
            continue
        a, b = e["data_offsets"]
        raw = body[a:b]
        if e["dtype"] == "F32":
            vals = list(struct.unpack("<%df" % (len(raw) // 4), raw))
        elif e["dtype"] == "F16":
            vals = list(struct.unpack("<%de" % (len(raw) // 2), raw))
        elif e["dtype"] == "BF16":
            halves = struct.unpack("<%dH" % (len(raw) // 2), raw)
            vals = [struct.unpack("<f", struct.pack("<I", h << 16))[0] for h in halves]
        else:
            raise ValueError(e["dtype"])
        shape = e["shape"]
        if len(shape) == 2:
            r, c = shape
            vals = [vals[i * c:(i + 1) * c] for i in range(r)]
        out[name] = vals
    return out


def linear(x, w, b):
    return [[sum(xi * wi for xi, wi in zip(row, wr)) + bj for wr, bj in zip(w, b)] for row in x]


def layer_norm(x, g, b, eps):
    out = []
    for row in x:
        mean = sum(row) / len(row)
        var = sum((v - mean) ** 2 for v in row) / len(row)
        out.append([(v - mean) / math.sqrt(var + eps) * gi + bi for v, gi, bi in zip(row, g, b)])
    return out


def act(v, kind):
    if kind == "gelu":
        return 0.5 * v * (1 + math.erf(v / math.sqrt(2)))
    if kind in ("gelu_new", "gelu_pytorch_tanh"):
        return 0.5 * v * (1 + math.tanh(math.sqrt(2 / math.pi) * (v + 0.044715 * v ** 3)))
    if kind == "relu":
        return max(v, 0.0)
    raise ValueError(kind)


def encoder(cfg, t, ids, types):
    p = "bert." if "bert.embeddings.word_embeddings.weight" in t else ""
    h = [[w + q + r for w, q, r in zip(t[p + "embeddings.word_embeddings.weight"][i],
                                       t[p + "embeddings.position_embeddings.weight"][pos],
                                       t[p + "embeddings.token_type_embeddings.weight"][ty])]
         for pos, (i, ty) in enumerate(zip(ids, types))]
    eps = cfg["layer_norm_eps"]
    h = layer_norm(h, t[p + "embeddings.LayerNorm.weight"], t[p + "embeddings.LayerNorm.bias"], eps)
    H, nh = cfg["hidden_size"], cfg["num_attention_heads"]
    dh = H // nh
    for layer in range(cfg["num_hidden_layers"]):
        lp = p + "encoder.layer.%d." % layer
        q = linear(h, t[lp + "attention.self.query.weight"], t[lp + "attention.self.query.bias"])
        k = linear(h, t[lp + "attention.self.key.weight"], t[lp + "attention.self.key.bias"])
        v = linear(h, t[lp + "attention.self.value.weight"], t[lp + "attention.self.value.bias"])
        ctx = [[0.0] * H for _ in h]
        for hd in range(nh):
            sl = slice(hd * dh, (hd + 1) * dh)
            for i in range(len(h)):
                s = [sum(a * b for a, b in zip(q[i][sl], k[j][sl])) / math.sqrt(dh) for j in range(len(h))]
                m = max(s)
                e = [math.exp(x - m) for x in s]
                z = sum(e)
                for d in range(dh):
                    ctx[i][hd * dh + d] = sum(e[j] / z * v[j][hd * dh + d] for j in range(len(h)))
        a = linear(ctx, t[lp + "attention.output.dense.weight"], t[lp + "attention.output.dense.bias"])
        h = layer_norm([[x + y for x, y in zip(r1, r2)] for r1, r2 in zip(h, a)],
                       t[lp + "attention.output.LayerNorm.weight"], t[lp + "attention.output.LayerNorm.bias"], eps)
        inter = linear(h, t[lp + "intermediate.dense.weight"], t[lp + "intermediate.dense.bias"])
        inter = [[act(x, cfg["hidden_act"]) for x in row] for row in inter]
        o = linear(inter, t[lp + "output.dense.weight"], t[lp + "output.dense.bias"])
        h = layer_norm([[x + y for x, y in zip(r1, r2)] for r1, r2 in zip(h, o)],
                       t[lp + "output.LayerNorm.weight"], t[lp + "output.LayerNorm.bias"], eps)
    return h


def load(root):
    files = root if os.path.exists(os.path.join(root, "config.json")) else os.path.join(root, "model")
    with open(os.path.join(files, "config.json")) as f:
        cfg = json.load(f)
    with open(os.path.join(files, "tokenizer.json")) as f:
        vocab = json.load(f)["model"]["vocab"]
    t = read_safetensors(os.path.join(files, "model.safetensors"))
    pooling, normalize, max_len = "mean_tokens", False, cfg["max_position_embeddings"]
    if os.path.exists(os.path.join(root, "modules.json")):
        with open(os.path.join(root, "modules.json")) as f:
            for m in json.load(f):
                if m["type"].endswith("Normalize"):
                    normalize = True
                if m["type"].endswith("Pooling"):
                    with open(os.path.join(root, m["path"], "config.json")) as g:
                        pc = json.load(g)
                    pooling = [k[len("pooling_mode_"):] for k, v in pc.items() if k.startswith("pooling_mode_") and v][0]
    if os.path.exists(os.path.join(root, "sentence_bert_config.json")):
        with open(os.path.join(root, "sentence_bert_config.json")) as f:
            max_len = json.load(f)["max_seq_length"]
    return cfg, vocab, t, pooling, normalize, max_len


def embed(root):
    cfg, vocab, t, pooling, normalize, max_len = load(root)
    out = []
    for text in TEXTS:
        ids = [vocab["[CLS]"]] + ids_of(text, vocab)[:max_len - 2] + [vocab["[SEP]"]]
        h = encoder(cfg, t, ids, [0] * len(ids))
        if pooling == "cls_token":
            v = h[0]
        else:
            v = [sum(col) / len(h) for col in zip(*h)]
        if normalize:
            n = max(math.sqrt(sum(x * x for x in v)), 1e-12)
            v = [x / n for x in v]
        out.append(v)
    return {"vectors": out}


def rerank(root):
    cfg, vocab, t, _, _, max_len = load(root)
    q = ids_of(QUERY, vocab)
    scores = []
    for text in TEXTS:
        a, b = list(q), ids_of(text, vocab)
        room = max_len - 3
        if len(a) + len(b) > room:
            # tokenizers' TruncationStrategy::LongestFirst, as written there.
            n1, n2, swap = len(a), len(b), len(a) > len(b)
            if swap:
                n1, n2 = n2, n1
            n2 = n1 if n1 > room else max(n1, room - n1)
            if n1 + n2 > room:
                n1 = room // 2
                n2 = n1 + room % 2
            if swap:
                n1, n2 = n2, n1
            a, b = a[:n1], b[:n2]
        ids = [vocab["[CLS]"]] + a + [vocab["[SEP]"]] + b + [vocab["[SEP]"]]
        types = [0] * (len(a) + 2) + [1] * (len(b) + 1)
        h = encoder(cfg, t, ids, types)
        pooled = [math.tanh(x) for x in linear([h[0]], t["bert.pooler.dense.weight"], t["bert.pooler.dense.bias"])[0]]
        scores.append(linear([pooled], t["classifier.weight"], t["classifier.bias"])[0][0])
    return {"scores": scores}


def main():
    root = sys.argv[1]
    models = {}
    for name in sorted(os.listdir(root)):
        d = os.path.join(root, name)
        if not os.path.isdir(d):
            continue
        models[name] = rerank(d) if name.startswith("rerank") else embed(d)
    json.dump({"texts": TEXTS, "query": QUERY, "models": models}, sys.stdout, indent=1)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()
