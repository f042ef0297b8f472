package openai

import (
	"bytes"
	"strconv"
)

// maxDepth bounds the nesting the fast decoder follows in values it skips.
const maxDepth = 64

// decodeEmbeddings is a fast path for the one large thing the client
// reads, an embeddings response (megabytes of numbers per batch), which
// encoding/json reads slowly, by reflection, with several allocations
// per vector. It accepts only strictly valid JSON in the shape the API
// sends (an object whose "data" is an array of objects with an integer
// "index" and an array of numbers "embedding"; other members are
// skipped) and then gives exactly what encoding/json would. For anything
// else (an escaped key, a key in other case, a repeated member, a number
// a float32 cannot hold, ...) it reports false, and the caller decodes
// with encoding/json, which also words the error. Each vector is
// allocated once, to fit.
func decodeEmbeddings(body []byte) ([]embeddingItem, bool) {
	d := decoder{s: body}
	var items []embeddingItem
	seen := false
	if !d.eat('{') {
		return nil, false
	}
	for n := 0; ; n++ {
		key, done, ok := d.member(n)
		switch {
		case !ok:
			return nil, false
		case done:
			return items, d.end()
		case string(key) == "data" && !seen:
			seen = true
			ok = d.items(&items)
		default:
			ok = !bytes.EqualFold(key, []byte("data")) && d.skip(0)
		}
		if !ok {
			return nil, false
		}
	}
}

type decoder struct {
	s       []byte
	i       int
	scratch []float32 // the vector being read
}

func (d *decoder) ws() {
	for d.i < len(d.s) && (d.s[d.i] == ' ' || d.s[d.i] == '\n' || d.s[d.i] == '\r' || d.s[d.i] == '\t') {
		d.i++
	}
}

// peek skips white space and returns the next byte, or 0 at the end.
func (d *decoder) peek() byte {
	d.ws()
	if d.i < len(d.s) {
		return d.s[d.i]
	}
	return 0
}

func (d *decoder) eat(c byte) bool {
	if d.peek() == c {
		d.i++
		return true
	}
	return false
}

func (d *decoder) end() bool {
	d.ws()
	return d.i == len(d.s)
}

// member reads what comes after the n-th member of an object whose '{'
// was read: the next key (and its ':'), or done at the closing '}'.
func (d *decoder) member(n int) (key []byte, done, ok bool) {
	if d.eat('}') { // a '}' right after a ',' fails the '"' check below
		return nil, true, true
	}
	if n > 0 && !d.eat(',') {
		return nil, false, false
	}
	if d.peek() != '"' {
		return nil, false, false
	}
	key, ok = d.key()
	if !ok || !d.eat(':') {
		return nil, false, false
	}
	return key, false, true
}

// key reads a string without escapes (a key with escapes goes the slow way).
func (d *decoder) key() ([]byte, bool) {
	start := d.i + 1
	for j := start; j < len(d.s); j++ {
		switch c := d.s[j]; {
		case c == '"':
			d.i = j + 1
			return d.s[start:j], true
		case c == '\\' || c < 0x20:
			return nil, false
		}
	}
	return nil, false
}

// items reads the data array.
func (d *decoder) items(items *[]embeddingItem) bool {
	if d.literal("null") {
		return true
	}
	if !d.eat('[') {
		return false
	}
	if d.eat(']') {
		return true
	}
	for {
		it, ok := d.item()
		if !ok {
			return false
		}
		*items = append(*items, it)
		if d.eat(']') {
			return true
		}
		if !d.eat(',') {
			return false
		}
	}
}

// item reads one entry.
func (d *decoder) item() (it embeddingItem, ok bool) {
	if !d.eat('{') {
		return it, false
	}
	var haveIndex, haveVector bool
	for n := 0; ; n++ {
		key, done, ok := d.member(n)
		switch {
		case !ok:
			return it, false
		case done:
			return it, true
		case string(key) == "index" && !haveIndex:
			haveIndex = true
			ok = d.index(&it)
		case string(key) == "embedding" && !haveVector:
			haveVector = true
			ok = d.vector(&it.vector)
		default:
			ok = !bytes.EqualFold(key, []byte("index")) && !bytes.EqualFold(key, []byte("embedding")) && d.skip(0)
		}
		if !ok {
			return it, false
		}
	}
}

func (d *decoder) index(it *embeddingItem) bool {
	if d.literal("null") {
		return true
	}
	start := d.i
	if !d.number() {
		return false
	}
	n, err := strconv.Atoi(string(d.s[start:d.i]))
	if err != nil {
		return false // a fraction, an exponent or out of range: encoding/json says which
	}
	it.index, it.hasIndex = n, true
	return true
}

// vector reads an array of numbers into v, allocated to fit, as
// encoding/json would: nil for null, empty for [].
func (d *decoder) vector(v *[]float32) bool {
	if d.literal("null") {
		return true
	}
	if !d.eat('[') {
		return false
	}
	d.scratch = d.scratch[:0]
	for !d.eat(']') {
		if len(d.scratch) > 0 && !d.eat(',') {
			return false
		}
		d.ws()
		start := d.i
		if !d.number() {
			return false
		}
		// A conversion that does not escape, of at most 32 bytes,
		// does not allocate; a longer number is rare enough.
		f, err := strconv.ParseFloat(string(d.s[start:d.i]), 32)
		if err != nil {
			return false
		}
		d.scratch = append(d.scratch, float32(f))
	}
	*v = append(make([]float32, 0, len(d.scratch)), d.scratch...)
	return true
}

// number reads a number by JSON's grammar: -?(0|[1-9][0-9]*)(.[0-9]+)?([eE][+-]?[0-9]+)?
func (d *decoder) number() bool {
	d.ws()
	s, i := d.s, d.i
	if i < len(s) && s[i] == '-' {
		i++
	}
	switch {
	case i < len(s) && s[i] == '0':
		i++
	case i < len(s) && s[i] >= '1' && s[i] <= '9':
		i = digits(s, i)
	default:
		return false
	}
	if i < len(s) && s[i] == '.' {
		if j := digits(s, i+1); j > i+1 {
			i = j
		} else {
			return false
		}
	}
	if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		i++
		if i < len(s) && (s[i] == '+' || s[i] == '-') {
			i++
		}
		j := digits(s, i)
		if j == i {
			return false
		}
		i = j
	}
	d.i = i
	return true
}

func digits(s []byte, i int) int {
	for i < len(s) && s[i] >= '0' && s[i] <= '9' {
		i++
	}
	return i
}

func (d *decoder) literal(lit string) bool {
	d.ws()
	if len(d.s)-d.i >= len(lit) && string(d.s[d.i:d.i+len(lit)]) == lit {
		d.i += len(lit)
		return true
	}
	return false
}

// skip reads and validates any value.
func (d *decoder) skip(depth int) bool {
	if depth > maxDepth {
		return false
	}
	switch d.peek() {
	case '{':
		d.i++
		for n := 0; ; n++ {
			_, done, ok := d.member(n)
			if !ok || done {
				return ok
			}
			if !d.skip(depth + 1) {
				return false
			}
		}
	case '[':
		d.i++
		if d.eat(']') {
			return true
		}
		for {
			if !d.skip(depth + 1) {
				return false
			}
			if d.eat(']') {
				return true
			}
			if !d.eat(',') {
				return false
			}
		}
	case '"':
		return d.str()
	case 't':
		return d.literal("true")
	case 'f':
		return d.literal("false")
	case 'n':
		return d.literal("null")
	}
	return d.number()
}

// str reads a string, checking its escapes.
func (d *decoder) str() bool {
	s := d.s
	for i := d.i + 1; i < len(s); i++ {
		switch c := s[i]; {
		case c == '"':
			d.i = i + 1
			return true
		case c < 0x20:
			return false
		case c == '\\':
			i++
			if i >= len(s) {
				return false
			}
			switch s[i] {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
			case 'u':
				if i+4 >= len(s) || !isHex(s[i+1:i+5]) {
					return false
				}
				i += 4
			default:
				return false
			}
		}
	}
	return false
}

func isHex(s []byte) bool {
	for i := 0; i < len(s); i++ {
		c := s[i] | 0x20
		if !(s[i] >= '0' && s[i] <= '9') && !(c >= 'a' && c <= 'f') {
			return false
		}
	}
	return true
}
