package openai

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"math"
	"math/rand/v2"
	"net/http"
	"strings"
	"testing"
	"time"
	"unicode/utf8"
)

// FuzzEventReader writes events as a server-sent event stream (with the
// variations servers use: CRLF or LF, comments, other fields, an optional
// space after the colon) and checks that the reader gives back exactly
// those events, and that it never fails on arbitrary bytes.
func FuzzEventReader(f *testing.F) {
	f.Add("{\"choices\":[]}\x00[DONE]", byte(0))
	f.Add("line one\nline two\x00\x00 leading space", byte(0xff))
	f.Add(": not a comment\x00data: nested", byte(0x5a))
	f.Fuzz(func(t *testing.T, payload string, style byte) {
		payload = strings.ReplaceAll(payload, "\r", "")
		events := strings.Split(payload, "\x00")
		stream := encodeEvents(events, style)
		got := readAll(t, strings.NewReader(stream))
		if len(got) != len(events) {
			t.Fatalf("got %d events, want %d, from %q", len(got), len(events), stream)
		}
		for i := range events {
			if got[i] != events[i] {
				t.Fatalf("event %d: got %q, want %q, from %q", i, got[i], events[i], stream)
			}
		}
		// Arbitrary bytes: no failure but EOF, and no more data than input.
		n := 0
		for _, e := range readAll(t, strings.NewReader(payload)) {
			n += len(e)
		}
		if n > len(payload) {
			t.Fatalf("%d bytes of data from %d bytes of input", n, len(payload))
		}
	})
}

// encodeEvents writes events as a stream; bits of style choose the
// variations.
func encodeEvents(events []string, style byte) string {
	eol := "\n"
	if style&1 != 0 {
		eol = "\r\n"
	}
	var b strings.Builder
	for i, e := range events {
		if style&2 != 0 {
			b.WriteString(": keep-alive" + eol + eol)
		}
		if style&4 != 0 && i%2 == 0 {
			b.WriteString("event: message" + eol + "id: 7" + eol)
		}
		for _, line := range strings.Split(e, "\n") {
			if style&8 != 0 && !strings.HasPrefix(line, " ") {
				b.WriteString("data:" + line + eol)
			} else {
				b.WriteString("data: " + line + eol)
			}
		}
		b.WriteString(eol)
	}
	return b.String()
}

func readAll(t *testing.T, r io.Reader) []string {
	var out []string
	er := newEventReader(r)
	for {
		data, err := er.next()
		if errors.Is(err, io.EOF) {
			return out
		}
		if err != nil {
			t.Fatalf("error %v", err)
		}
		out = append(out, string(data))
	}
}

// FuzzErrorBody checks that any error body gives a message fit for an
// error: valid UTF-8, on one line, of bounded length, and free of the key.
func FuzzErrorBody(f *testing.F) {
	f.Add([]byte(`{"error":{"message":"Incorrect API key provided: sk-abc","type":"invalid_request_error","param":null,"code":"invalid_api_key"}}`))
	f.Add([]byte(`{"error":{"code":503,"message":"Loading model","type":"unavailable_error"}}`))
	f.Add([]byte(`{"object":"error","message":"bad","type":"BadRequestError","code":400}`))
	f.Add([]byte(`{"error":"plain"}`))
	f.Add([]byte("<html>\n<body>502</body></html>"))
	f.Fuzz(func(t *testing.T, body []byte) {
		const key = "sk-fuzz-0123456789"
		c := &Client{key: func() string { return key }}
		orig := string(body)
		// The key at the end, and again where the cut falls.
		body = append(body, []byte(key)...)
		if len(body) < maxMessage+len(key) {
			body = append(body, bytes.Repeat([]byte("x"), maxMessage-len(body)%maxMessage)...)
		}
		body = append(append(body[:maxMessage-len(key)/2:maxMessage-len(key)/2], key...), body[maxMessage-len(key)/2:]...)
		e := &APIError{StatusCode: 400, RequestID: string(body)}
		parseErrorBody(e, body)
		c.cleanAPIError(e)
		for _, s := range []string{e.Message, e.Type, e.Code, e.RequestID} {
			if !utf8.ValidString(s) || strings.ContainsAny(s, "\n\r") || len(s) > maxMessage+len(redacted+"…") {
				t.Fatalf("unfit field %q", s)
			}
		}
		for i := 0; i+minPartial+4 <= len(key); i++ {
			if part := key[i : i+minPartial+4]; strings.Contains(e.Error(), part) && !strings.Contains(orig, part) {
				t.Fatalf("part of the key in %q", e.Error())
			}
		}
	})
}

// FuzzRetryAfter checks that no header gives a negative wait.
func FuzzRetryAfter(f *testing.F) {
	f.Add("120", "")
	f.Add("Wed, 21 Oct 2015 07:28:00 GMT", "")
	f.Add("", "1500.5")
	f.Add("-1", "-3")
	f.Add("99999999999999999999", "1e300")
	f.Fuzz(func(t *testing.T, after, afterMs string) {
		h := http.Header{}
		h.Set("Retry-After", after)
		h.Set("Retry-After-Ms", afterMs)
		if d, ok := retryAfter(h, time.Unix(1700000000, 0)); d < 0 || (!ok && d != 0) {
			t.Fatalf("Retry-After %q, retry-after-ms %q: %v, %v", after, afterMs, d, ok)
		}
	})
}

func TestEventReaderLongLine(t *testing.T) {
	_, err := newEventReader(bytes.NewReader(bytes.Repeat([]byte("a"), maxEvent+100))).next()
	if err == nil || errors.Is(err, io.EOF) {
		t.Fatalf("got %v, want a line-too-long error", err)
	}
}

// FuzzDecodeEmbeddings holds the fast decoder to encoding/json: whatever
// it accepts, encoding/json accepts too and decodes to the same indexes
// and vectors, bit for bit.
func FuzzDecodeEmbeddings(f *testing.F) {
	f.Add([]byte(`{"object":"list","data":[{"object":"embedding","index":1,"embedding":[0.0023064255,-0.009327292,1e-7]},{"object":"embedding","index":0,"embedding":[-0,3.4e38,1E+2]}],"model":"text-embedding-3-small","usage":{"prompt_tokens":8,"total_tokens":8}}`))
	f.Add([]byte(`{"data":[{"embedding":[1,2]},{"embedding":null,"index":null}],"x":[true,false,null,"a\"\\\/\b\f\n\r\t\u00e9",{"y":[[]]}]}`))
	f.Add([]byte(`{"data":null}`))
	f.Add([]byte(` { "data" : [ { "index" : 0 , "embedding" : [ ] } ] } `))
	f.Add([]byte(`{"Data":[{"INDEX":0}]}`))
	f.Add([]byte(`{"data":[{"index":1.0,"embedding":[1e39]}]}`))
	f.Fuzz(func(t *testing.T, body []byte) {
		items, ok := decodeEmbeddings(body)
		if !ok {
			return
		}
		var r embeddingResponse
		if err := json.Unmarshal(body, &r); err != nil {
			t.Fatalf("fast path accepted what encoding/json rejects (%v): %q", err, body)
		}
		if len(items) != len(r.Data) {
			t.Fatalf("%d items, encoding/json %d: %q", len(items), len(r.Data), body)
		}
		for i, it := range items {
			want := r.Data[i]
			if it.hasIndex != (want.Index != nil) || (it.hasIndex && it.index != *want.Index) {
				t.Fatalf("item %d: index differs: %q", i, body)
			}
			if len(it.vector) != len(want.Embedding) {
				t.Fatalf("item %d: %v, encoding/json %v: %q", i, it.vector, want.Embedding, body)
			}
			for j := range it.vector {
				if math.Float32bits(it.vector[j]) != math.Float32bits(want.Embedding[j]) {
					t.Fatalf("item %d, value %d: %v, encoding/json %v: %q", i, j, it.vector[j], want.Embedding[j], body)
				}
			}
		}
	})
}

// The shapes servers send take the fast path.
func TestDecodeEmbeddingsFastPath(t *testing.T) {
	for _, body := range []string{
		// OpenAI
		`{"object":"list","data":[{"object":"embedding","index":0,"embedding":[-0.006929283,-0.005336422,0.00024047505]}],"model":"text-embedding-3-small","usage":{"prompt_tokens":5,"total_tokens":5}}`,
		// Ollama (pretty-printed)
		"{\n  \"object\": \"list\",\n  \"data\": [\n    {\n      \"object\": \"embedding\",\n      \"embedding\": [0.010071029, -0.0017594862, 0.05007221],\n      \"index\": 0\n    }\n  ],\n  \"model\": \"nomic-embed-text\",\n  \"usage\": {\"prompt_tokens\": 2, \"total_tokens\": 2}\n}",
		// llama.cpp
		`{"model":"nomic","object":"list","usage":{"prompt_tokens":4,"total_tokens":4},"data":[{"embedding":[0.1,2E-3,-4e+1],"index":0,"object":"embedding"}]}`,
	} {
		items, ok := decodeEmbeddings([]byte(body))
		if !ok || len(items) != 1 || len(items[0].vector) != 3 || !items[0].hasIndex || items[0].index != 0 {
			t.Errorf("not decoded: %s", body)
		}
	}
}

// FuzzDecodeRerank checks that any answer either fails with
// ErrBadResponse or gives exactly one score per text, each placed once,
// and that an answer built from arbitrary scores and a permutation is
// read back exactly.
func FuzzDecodeRerank(f *testing.F) {
	f.Add([]byte(`{"results":[{"index":1,"relevance_score":0.9},{"index":0,"relevance_score":-3.5}]}`), uint8(2), int64(7))
	f.Add([]byte(`{"data":[{"index":0,"score":1}]}`), uint8(1), int64(-1))
	f.Add([]byte(`[{"index":0,"score":1e308},{"index":0,"score":2}]`), uint8(2), int64(0))
	f.Add([]byte(`{"results":null,"data":[{"index":0}]}`), uint8(1), int64(3))
	f.Fuzz(func(t *testing.T, body []byte, n uint8, seed int64) {
		c := &Client{}
		out := make([]float64, n%16)
		if err := c.decodeRerank(body, out); err != nil {
			if !errors.Is(err, ErrBadResponse) {
				t.Fatalf("error %v does not wrap ErrBadResponse", err)
			}
		}
		// Built answers round-trip.
		r := rand.New(rand.NewPCG(uint64(seed), 0))
		want := make([]float64, len(out))
		results := make([]map[string]any, len(out))
		for i, p := range r.Perm(len(out)) {
			want[p] = r.NormFloat64() * 10
			key := "relevance_score"
			if seed&1 != 0 {
				key = "score"
			}
			results[i] = map[string]any{"index": p, key: want[p]}
		}
		var built []byte
		switch seed & 6 {
		case 0:
			built, _ = json.Marshal(results)
		case 2:
			built, _ = json.Marshal(map[string]any{"data": results})
		default:
			built, _ = json.Marshal(map[string]any{"results": results, "model": "m"})
		}
		got := make([]float64, len(out))
		if err := c.decodeRerank(built, got); err != nil {
			t.Fatalf("%v: %s", err, built)
		}
		for i := range want {
			if got[i] != want[i] {
				t.Fatalf("score %d: %v, want %v: %s", i, got[i], want[i], built)
			}
		}
	})
}

// An event is bounded as a whole, not only line by line.
func TestEventReaderLongEvent(t *testing.T) {
	line := "data: " + strings.Repeat("a", 1<<20) + "\n"
	_, err := newEventReader(strings.NewReader(strings.Repeat(line, 5) + "\n")).next()
	if !errors.Is(err, ErrTooLarge) {
		t.Fatalf("got %v, want ErrTooLarge", err)
	}
}
