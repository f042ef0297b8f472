package parse

import (
	"strconv"
	"strings"
	"unicode/utf8"
)

// specials are roff's special characters, \(xx and \[xx], as text.
var specials = map[string]string{
	"em": "—", "en": "–", "hy": "-", "mi": "-", "bu": "•", "aq": "'", "dq": "\"",
	"lq": "“", "rq": "”", "oq": "‘", "cq": "’", "co": "©", "rg": "®", "tm": "™",
	"de": "°", "ti": "~", "ha": "^", "sl": "/", "rs": "\\", "ga": "`", "ac": "´",
	"bv": "|", "or": "|", "ba": "|", "pl": "+", "eq": "=", "lt": "<", "gt": ">", "<=": "≤",
	">=": "≥", "!=": "≠", "mu": "×", "di": "÷", "+-": "±", "->": "→", "<-": "←",
	"sc": "§", "ps": "¶", "ct": "¢", "Po": "£", "Eu": "€", "Fo": "«", "Fc": "»",
	"fo": "‹", "fc": "›", "'e": "é", "'a": "á", "`e": "è", "`a": "à", ":u": "ü",
	":o": "ö", ":a": "ä", "ss": "ß", ",c": "ç", "~n": "ñ", "ul": "_", "ru": "_",
	"br": "|", "ci": "○", "sq": "□", "at": "@", "sh": "#", "Do": "$", "lB": "[",
	"rB": "]", "lC": "{", "rC": "}", "la": "⟨", "ra": "⟩", "dg": "†", "pc": "·",
	"aa": "´", "ob": "∘", "Ah": "ℵ", "es": "∅", "fm": "′", "sd": "″", "OK": "✓",
}

// strs are the predefined strings of the man and mdoc macros, \*(xx.
var strs = map[string]string{
	"lq": "“", "rq": "”", "R": "®", "Tm": "™", "Aq": "'", "Lq": "“", "Rq": "”",
	"Q": "\"", "q": "\"", "Ba": "|", "Le": "≤", "Ge": "≥", "Pi": "π", "Na": "NaN",
}

// unescape returns a line of roff text with its escapes interpreted:
// fonts, sizes, registers and motions removed, special characters and
// strings as their text, a comment (\") dropped.
func unescape(s string) string {
	if strings.IndexByte(s, '\\') < 0 {
		return s
	}
	var sb strings.Builder
	sb.Grow(len(s))
	for i := 0; i < len(s); {
		c := s[i]
		if c != '\\' || i+1 == len(s) {
			sb.WriteByte(c)
			i++
			continue
		}
		e := s[i+1]
		i += 2
		switch e {
		case '"', '#':
			return strings.TrimRight(sb.String(), " \t")
		case 'f', 'F', 'n', 'g', 'k', 'm', 'M', 'V', 'Y', 'O', '$':
			if e == 'n' && i < len(s) && (s[i] == '+' || s[i] == '-') {
				i++
			}
			_, i = escName(s, i)
		case 's':
			if i < len(s) && (s[i] == '+' || s[i] == '-') {
				i++
			}
			if i < len(s) && (s[i] == '(' || s[i] == '[' || s[i] == '\'') {
				_, i = escName(s, i)
			} else {
				for n := 0; n < 2 && i < len(s) && s[i] >= '0' && s[i] <= '9'; n++ {
					i++
				}
			}
		case '(', '[':
			name, j := escName(s, i-1)
			i = j
			sb.WriteString(special(name))
		case 'C':
			name, j := quoted(s, i)
			i = j
			sb.WriteString(special(name))
		case '*':
			name, j := escName(s, i)
			i = j
			sb.WriteString(strs[name])
		case 'h', 'v', 'w', 'o', 'l', 'L', 'b', 'x', 'X', 'D', 'N', 'R', 'Z', 'A', 'B', 'S', 'H':
			_, i = quoted(s, i)
		case 'z':
		case '-':
			sb.WriteByte('-')
		case 'e', '\\':
			sb.WriteByte('\\')
		case '0', '~', ' ', '_':
			if e == '_' {
				sb.WriteByte('_')
			} else {
				sb.WriteByte(' ')
			}
		case 't':
			sb.WriteByte('\t')
		case '&', '|', '^', '%', ':', ')', ',', '/', 'c', 'd', 'u', 'r', 'p', 'a', '{', '}', '\n', 'E':
		case '.':
			sb.WriteByte('.')
		default:
			sb.WriteByte(e)
		}
	}
	return sb.String()
}

// escName reads the name of an escape at s[i:]: "(xx", "[name]" or one
// character, and returns it and the offset after it.
func escName(s string, i int) (string, int) {
	if i >= len(s) {
		return "", i
	}
	switch s[i] {
	case '(':
		end := min(i+3, len(s))
		return s[i+1 : end], end
	case '[':
		j := strings.IndexByte(s[i:], ']')
		if j < 0 {
			return s[i+1:], len(s)
		}
		return s[i+1 : i+j], i + j + 1
	case '\'':
		return quoted(s, i)
	}
	_, n := utf8.DecodeRuneInString(s[i:])
	return s[i : i+n], i + n
}

// quoted reads a delimited argument at s[i:], such as 'text', and
// returns it and the offset after it.
func quoted(s string, i int) (string, int) {
	if i >= len(s) {
		return "", i
	}
	d := s[i]
	j := strings.IndexByte(s[i+1:], d)
	if j < 0 {
		return s[i+1:], len(s)
	}
	return s[i+1 : i+1+j], i + 2 + j
}

// special returns the text of a special character's name.
func special(name string) string {
	if t, ok := specials[name]; ok {
		return t
	}
	if hex, ok := strings.CutPrefix(name, "u"); ok && len(hex) >= 4 {
		if n, err := strconv.ParseUint(hex, 16, 32); err == nil && utf8.ValidRune(rune(n)) {
			return string(rune(n))
		}
	}
	if len(name) == 1 {
		return name
	}
	return ""
}

// args splits a macro's arguments: by spaces, a double-quoted argument
// kept whole ("" inside it is one quote).
func args(s string) []string {
	var out []string
	for {
		s = strings.TrimLeft(s, " \t")
		if s == "" {
			return out
		}
		if s[0] != '"' {
			end := strings.IndexAny(s, " \t")
			if end < 0 {
				return append(out, s)
			}
			out = append(out, s[:end])
			s = s[end:]
			continue
		}
		var sb strings.Builder
		i := 1
		for ; i < len(s); i++ {
			if s[i] == '"' {
				if i+1 < len(s) && s[i+1] == '"' {
					sb.WriteByte('"')
					i++
					continue
				}
				break
			}
			sb.WriteByte(s[i])
		}
		out = append(out, sb.String())
		s = s[min(i+1, len(s)):]
	}
}
