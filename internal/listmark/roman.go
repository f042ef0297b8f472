package listmark

// romans holds the roman numerals from 1 to 89, in upper case.
var romans = func() (r [90]string) {
	for n := 1; n < len(r); n++ {
		v := n
		for _, p := range []struct {
			v int
			s string
		}{{50, "L"}, {40, "XL"}, {10, "X"}, {9, "IX"}, {5, "V"}, {4, "IV"}, {1, "I"}} {
			for ; v >= p.v; v -= p.v {
				r[n] += p.s
			}
		}
	}
	return r
}()

// RomanValue returns the value of a well-formed roman numeral from 1 to 89,
// written all in upper or all in lower case, or 0.
func RomanValue(s string) int {
	if s == "" || len(s) > 8 {
		return 0
	}
	var buf [8]byte
	low := s[0] >= 'a'
	for i := 0; i < len(s); i++ {
		c := s[i]
		if low {
			c -= 'a' - 'A'
		}
		if c != 'I' && c != 'V' && c != 'X' && c != 'L' {
			return 0
		}
		buf[i] = c
	}
	up := buf[:len(s)]
	for n := 1; n < len(romans); n++ {
		if romans[n] == string(up) {
			return n
		}
	}
	return 0
}

// Roman writes n (1 to 89) as a roman numeral into buf.
func Roman(buf []byte, n int, low bool) []byte {
	if n <= 0 || n >= len(romans) {
		return buf[:0]
	}
	out := append(buf[:0], romans[n]...)
	if low {
		for i := range out {
			out[i] += 'a' - 'A'
		}
	}
	return out
}
