package hf

import (
	"bytes"
	"encoding/binary"
	"errors"
	"math/bits"
	"strconv"
	"unicode/utf16"
	"unicode/utf8"
)

// A hand-written reader for the large parts of a tokenizer.json (the
// vocabulary and the merges, millions of strings): encoding/json takes
// seconds over them, through reflection and an extra validation pass.
// Everything else in the file is small and goes through encoding/json.

var errSyntax = errors.New("invalid JSON")

type scan struct {
	data []byte
	pos  int
	buf  []byte // scratch for strings with escapes
}

func (s *scan) ws() {
	for s.pos < len(s.data) {
		c := s.data[s.pos]
		if c > ' ' {
			return
		}
		if c == ' ' {
			if s.pos+1 < len(s.data) && s.data[s.pos+1] != ' ' {
				s.pos++ // one, as after a colon
				return
			}
			s.pos += spaces(s.data[s.pos:])
			continue
		}
		if c != '\t' && c != '\n' && c != '\r' {
			return
		}
		s.pos++
	}
}

// spaces returns how many spaces b starts with, reading 8 bytes at a
// time: indentation.
func spaces(b []byte) int {
	i := 0
	for ; i+8 <= len(b); i += 8 {
		if w := binary.LittleEndian.Uint64(b[i:]) ^ spaces8; w != 0 {
			return i + bits.TrailingZeros64(w)/8
		}
	}
	for i < len(b) && b[i] == ' ' {
		i++
	}
	return i
}

const (
	spaces8 = 0x2020202020202020
	ones8   = 0x0101010101010101
	highs8  = 0x8080808080808080
)

// plainLen returns how many bytes from the start of b need no attention
// in a string: none is '"', '\\' or a byte below lowest (0x20 to stop at
// control characters, 0 not to). It looks at eight bytes at a time (the
// usual tests for a zero byte and a byte below n in a word).
func plainLen(b []byte, lowest byte) int {
	i := 0
	below := uint64(lowest) * ones8
	for ; i+8 <= len(b); i += 8 {
		w := binary.LittleEndian.Uint64(b[i:])
		q := w ^ ('"' * ones8)
		bs := w ^ ('\\' * ones8)
		// A byte of hit has its high bit set where w's is '"', '\\' or
		// below lowest, and only in or after the first such byte.
		hit := ((q - ones8) &^ q) | ((bs - ones8) &^ bs) | ((w - below) &^ w)
		if hit &= highs8; hit != 0 {
			return i + bits.TrailingZeros64(hit)/8
		}
	}
	for ; i < len(b); i++ {
		if c := b[i]; c == '"' || c == '\\' || c < lowest {
			break
		}
	}
	return i
}

// peek returns the next byte after white space, or 0 at the end.
func (s *scan) peek() byte {
	s.ws()
	if s.pos >= len(s.data) {
		return 0
	}
	return s.data[s.pos]
}

func (s *scan) expect(c byte) error {
	if s.peek() != c {
		return s.fail("expected %q", c)
	}
	s.pos++
	return nil
}

type syntaxError struct {
	msg string
	pos int
}

func (e *syntaxError) Error() string { return e.msg + " at byte " + strconv.Itoa(e.pos) }
func (e *syntaxError) Unwrap() error { return errSyntax }

func (s *scan) fail(format string, c ...byte) error {
	msg := "invalid JSON"
	if format != "" && len(c) > 0 {
		msg += ": expected " + strconv.QuoteRune(rune(c[0]))
	}
	return &syntaxError{msg, s.pos}
}

// str reads a string and returns its bytes: a slice of the input when it
// has no escapes, else of s.buf, valid until the next call.
func (s *scan) str() ([]byte, error) {
	if err := s.expect('"'); err != nil {
		return nil, err
	}
	start := s.pos
	s.pos += plainLen(s.data[s.pos:], 0x20)
	if s.pos >= len(s.data) {
		return nil, s.fail("")
	}
	switch s.data[s.pos] {
	case '"':
		out := s.data[start:s.pos]
		s.pos++
		return out, nil
	case '\\':
		return s.strEscaped(start)
	}
	return nil, s.fail("")
}

func (s *scan) strEscaped(start int) ([]byte, error) {
	s.buf = append(s.buf[:0], s.data[start:s.pos]...)
	for s.pos < len(s.data) {
		c := s.data[s.pos]
		switch {
		case c == '"':
			s.pos++
			return s.buf, nil
		case c < 0x20:
			return nil, s.fail("")
		case c != '\\':
			s.buf = append(s.buf, c)
			s.pos++
			continue
		}
		if s.pos+1 >= len(s.data) {
			return nil, s.fail("")
		}
		e := s.data[s.pos+1]
		s.pos += 2
		switch e {
		case '"', '\\', '/':
			s.buf = append(s.buf, e)
		case 'b':
			s.buf = append(s.buf, '\b')
		case 'f':
			s.buf = append(s.buf, '\f')
		case 'n':
			s.buf = append(s.buf, '\n')
		case 'r':
			s.buf = append(s.buf, '\r')
		case 't':
			s.buf = append(s.buf, '\t')
		case 'u':
			r, ok := s.hex4()
			if !ok {
				return nil, s.fail("")
			}
			if utf16.IsSurrogate(r) {
				// A pair makes one rune; a lone half is U+FFFD, as
				// encoding/json reads it.
				r2 := rune(-1)
				if s.pos+1 < len(s.data) && s.data[s.pos] == '\\' && s.data[s.pos+1] == 'u' {
					save := s.pos
					s.pos += 2
					var ok2 bool
					if r2, ok2 = s.hex4(); !ok2 {
						return nil, s.fail("")
					}
					if d := utf16.DecodeRune(r, r2); d != utf8.RuneError {
						r, r2 = d, -1
					} else {
						s.pos = save
						r2 = -1
						r = utf8.RuneError
					}
				} else {
					r = utf8.RuneError
				}
			}
			s.buf = utf8.AppendRune(s.buf, r)
		default:
			return nil, s.fail("")
		}
	}
	return nil, s.fail("")
}

func (s *scan) hex4() (rune, bool) {
	if s.pos+4 > len(s.data) {
		return 0, false
	}
	var r rune
	for _, c := range s.data[s.pos : s.pos+4] {
		switch {
		case '0' <= c && c <= '9':
			r = r<<4 | rune(c-'0')
		case 'a' <= c && c <= 'f':
			r = r<<4 | rune(c-'a'+10)
		case 'A' <= c && c <= 'F':
			r = r<<4 | rune(c-'A'+10)
		default:
			return 0, false
		}
	}
	s.pos += 4
	return r, true
}

// number returns the text of a JSON number.
func (s *scan) number() ([]byte, error) {
	s.ws()
	start := s.pos
	for s.pos < len(s.data) && isNumberByte(s.data[s.pos]) {
		s.pos++
	}
	if !validNumber(s.data[start:s.pos]) {
		return nil, &syntaxError{"invalid number " + strconv.Quote(string(s.data[start:s.pos])), start}
	}
	return s.data[start:s.pos], nil
}

// validNumber reports whether b is a JSON number:
// -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?
func validNumber(b []byte) bool {
	i := 0
	digits := func() int {
		k := i
		for i < len(b) && '0' <= b[i] && b[i] <= '9' {
			i++
		}
		return i - k
	}
	if i < len(b) && b[i] == '-' {
		i++
	}
	if i < len(b) && b[i] == '0' {
		i++
	} else if digits() == 0 {
		return false
	}
	if i < len(b) && b[i] == '.' {
		i++
		if digits() == 0 {
			return false
		}
	}
	if i < len(b) && (b[i] == 'e' || b[i] == 'E') {
		i++
		if i < len(b) && (b[i] == '+' || b[i] == '-') {
			i++
		}
		if digits() == 0 {
			return false
		}
	}
	return i == len(b)
}

func isNumberByte(c byte) bool {
	return c >= '0' && c <= '9' || c == '-' || c == '+' || c == '.' || c == 'e' || c == 'E'
}

func (s *scan) int() (int64, error) {
	// The usual case, a few digits, without strconv.
	s.ws()
	var n int64
	i := s.pos
	for ; i < len(s.data) && i-s.pos < 18; i++ {
		c := s.data[i]
		if c < '0' || c > '9' {
			break
		}
		n = n*10 + int64(c-'0')
	}
	if i > s.pos && (s.data[s.pos] != '0' || i == s.pos+1) &&
		(i == len(s.data) || !isNumberByte(s.data[i])) {
		s.pos = i
		return n, nil
	}
	b, err := s.number()
	if err != nil {
		return 0, err
	}
	n, err = strconv.ParseInt(string(b), 10, 64)
	if err != nil {
		return 0, &syntaxError{"invalid integer " + strconv.Quote(string(b)), s.pos}
	}
	return n, nil
}

func (s *scan) float() (float64, error) {
	b, err := s.number()
	if err != nil {
		return 0, err
	}
	f, err := strconv.ParseFloat(string(b), 64)
	if err != nil {
		return 0, &syntaxError{"invalid number " + strconv.Quote(string(b)), s.pos}
	}
	return f, nil
}

// skip passes over one value and returns its text.
func (s *scan) skip(depth int) ([]byte, error) {
	if depth > 64 {
		return nil, &syntaxError{"JSON nested too deep", s.pos}
	}
	c := s.peek()
	start := s.pos
	switch {
	case c == '"':
		if _, err := s.str(); err != nil {
			return nil, err
		}
	case c == '{' || c == '[':
		closing := byte('}')
		if c == '[' {
			closing = ']'
		}
		s.pos++
		if s.peek() == closing {
			s.pos++
			break
		}
		for {
			if c == '{' {
				if _, err := s.str(); err != nil {
					return nil, err
				}
				if err := s.expect(':'); err != nil {
					return nil, err
				}
			}
			if _, err := s.skip(depth + 1); err != nil {
				return nil, err
			}
			if s.peek() == ',' {
				s.pos++
				continue
			}
			if err := s.expect(closing); err != nil {
				return nil, err
			}
			break
		}
	case c == 't' || c == 'f' || c == 'n':
		for _, w := range []string{"true", "false", "null"} {
			if len(s.data)-s.pos >= len(w) && string(s.data[s.pos:s.pos+len(w)]) == w {
				s.pos += len(w)
				return s.data[start:s.pos], nil
			}
		}
		return nil, s.fail("")
	default:
		if _, err := s.number(); err != nil {
			return nil, err
		}
	}
	return s.data[start:s.pos], nil
}

// end checks that nothing but white space is left.
func (s *scan) end() error {
	if s.peek() != 0 {
		return &syntaxError{"invalid JSON: data after the value", s.pos}
	}
	return nil
}

// skipValid passes over one value of JSON that is taken to be valid
// (see readFile) and returns its text and, for an object or array, how
// many members it has. It follows only strings and brackets: a fraction
// of the cost of checking the value. On invalid JSON it returns some
// stretch of the data, never failing.
func (s *scan) skipValid() ([]byte, int) {
	s.ws()
	start := s.pos
	if s.pos >= len(s.data) {
		return nil, 0
	}
	switch s.data[s.pos] {
	case '{', '[':
	case '"':
		s.pos++
		s.skipStringValid()
		return s.data[start:s.pos], 0
	default: // a number, true, false or null
		for s.pos < len(s.data) && !bytesAfterScalar[s.data[s.pos]] {
			s.pos++
		}
		return s.data[start:s.pos], 0
	}
	depth, commas := 0, 0
	data, pos := s.data, s.pos // in registers: this loop reads megabytes
	for pos < len(data) {
		c := data[pos]
		pos++
		if !structural[c] {
			continue
		}
		switch c {
		case '"':
			for pos < len(data) {
				pos += plainLen(data[pos:], 0) // valid: no control characters
				if pos < len(data) && data[pos] == '"' {
					pos++
					break
				}
				pos = min(pos+2, len(data)) // a backslash and the byte it escapes
			}
		case '{', '[':
			depth++
		case '}', ']':
			if depth--; depth == 0 {
				s.pos = pos
				n := commas + 1
				if pos-start == 2 || len(bytes.TrimSpace(data[start+1:pos-1])) == 0 {
					n = 0
				}
				return data[start:pos], n
			}
		case ',':
			if depth == 1 {
				commas++
			}
		case ' ':
			if pos < len(data) && data[pos] == ' ' { // indentation, not ": "
				pos += spaces(data[pos:])
			}
		}
	}
	s.pos = pos
	return data[start:], commas + 1
}

// structural are the bytes skipValid acts on.
var structural = [256]bool{'"': true, '{': true, '[': true, '}': true, ']': true, ',': true, ' ': true}

// skipStringValid passes over the rest of a valid string, after its
// opening quote.
func (s *scan) skipStringValid() {
	for s.pos < len(s.data) {
		s.pos += plainLen(s.data[s.pos:], 0) // valid: no control characters
		if s.pos < len(s.data) && s.data[s.pos] == '"' {
			s.pos++
			return
		}
		s.pos = min(s.pos+2, len(s.data)) // a backslash and the byte it escapes
	}
}

// bytesAfterScalar are the bytes that end a number or literal.
var bytesAfterScalar = [256]bool{',': true, '}': true, ']': true, ' ': true, '\t': true, '\n': true, '\r': true}

// object calls f for each key of an object, with s positioned at the
// value, which f must read.
func (s *scan) object(f func(key []byte) error) error {
	return s.objectFast(nil, f)
}

// objectFast is object with a quicker path for some members: fast, unless
// nil, is called first with the position after the opening quote of the
// member's key, and when it reports true it has read the key, the colon
// and the value. Otherwise it has read nothing, and the member is read as
// object reads it.
func (s *scan) objectFast(fast func(keyStart int) (bool, error), f func(key []byte) error) error {
	if err := s.expect('{'); err != nil {
		return err
	}
	if s.peek() == '}' {
		s.pos++
		return nil
	}
	for {
		if fast != nil && s.peek() == '"' {
			done, err := fast(s.pos + 1)
			if err != nil {
				return err
			}
			if done {
				goto next
			}
		}
		if err := s.member(f); err != nil {
			return err
		}
	next:
		switch s.peek() {
		case ',':
			s.pos++
		case '}':
			s.pos++
			return nil
		default:
			return s.fail("expected %q", '}')
		}
	}
}

// member reads a key and its colon, and calls f at the value.
func (s *scan) member(f func(key []byte) error) error {
	k, err := s.str()
	if err != nil {
		return err
	}
	if err := s.expect(':'); err != nil {
		return err
	}
	return f(k)
}

// array calls f for each element of an array, with s positioned at it.
func (s *scan) array(f func() error) error {
	if err := s.expect('['); err != nil {
		return err
	}
	if s.peek() == ']' {
		s.pos++
		return nil
	}
	for {
		if err := f(); err != nil {
			return err
		}
		switch s.peek() {
		case ',':
			s.pos++
		case ']':
			s.pos++
			return nil
		default:
			return s.fail("expected %q", ']')
		}
	}
}
