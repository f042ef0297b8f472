package tokencount

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// seeds are the hard cases of the four split patterns: scripts, digit
// runs, contractions in both cases, white space with and without trailing
// newlines, CRLF, emoji, combining marks and invalid UTF-8.
var seeds = []string{
	"",
	"Hello, world!",
	"I'm sure you're right, they've said we'll go; I'd say he's done. DON'T WON'T SHE'S THEY'RE WE'VE I'M YOU'LL HE'D",
	"'s 't 're 've 'm 'll 'd 'S 'T 'RE 'VE 'M 'LL 'D 'Re 'rE 'x ' s'",
	"'ſ 'K Kelvin ſtraße",
	"1 12 123 1234 12345 123456789 3.14159 1,000,000 ²³ ½ Ⅻ ٣٤٥ १२३",
	"  leading\tand trailing  \n",
	"a  b   c    d\t\te",
	"line one\nline two\n\n\nline three\n",
	"crlf\r\nline\r\n\r\nend\r\n",
	"trailing spaces   ",
	"   \n   \n",
	"\n\n\n",
	" \r\n \r\n x",
	"tabs\t\t\nand\t \n\t x",
	"Ünïcödé naïve café résumé",
	"Привет, мир! Как дела?",
	"Γειά σου Κόσμε",
	"こんにちは世界。元気ですか？",
	"你好，世界！我很好。",
	"안녕하세요 세계",
	"مرحبا بالعالم. كيف حالك؟",
	"שלום עולם",
	"नमस्ते दुनिया। आप कैसे हैं?",
	"สวัสดีชาวโลก",
	"emoji 👋🏽 family 👨‍👩‍👧‍👦 flags 🇫🇷🇩🇪 ❤️",
	"e\u0301 a\u0308 combining\u0301\u0302 marks \u0301lead",
	"ǅungla ǈ ǋ ʰmodifier ˆ ᴬᴮ",
	"CamelCaseWord HTTPServer iPhone McDonald's O'Reilly ABCdef",
	"snake_case_name kebab-case-name path/to/file.go https://example.com/a?b=c#d",
	"func main() {\n\tfmt.Println(\"hi\")\n}\n",
	"<|endoftext|> <|fim_prefix|> special tokens are text",
	"!!!??? ... ---- ==== **** ////\n\n",
	"x/\n/y //\r\n",
	"invalid \xff\xfe bytes \xc3\x28 and \xe2\x82 truncated",
	"\xff\u0081 \u0081\xff: byte tokens inside a character next to an invalid byte",
	"\x80",
	"\xf0\x9f\x98",
	strings.Repeat(" ", 300) + "x",
	strings.Repeat("=", 500),
	strings.Repeat("ab", 200),
	strings.Repeat("xy", 50) + " " + strings.Repeat("-=", 60),
	strings.Repeat("\n", 100) + "end",
	strings.Repeat("💩", 40),
}

// FuzzWindowedMerge checks the windowed merge against the whole merge
// with windows of any size, on any bytes.
func FuzzWindowedMerge(f *testing.F) {
	for _, s := range shapes {
		f.Add(s.Make(300), uint8(16), uint8(4))
	}
	for _, s := range seeds {
		f.Add(s, uint8(7), uint8(2))
	}
	b, err := encoding(O200kBase)
	require.NoError(f, err)
	f.Fuzz(func(t *testing.T, text string, w, ov uint8) {
		if text == "" {
			return
		}
		win := 2 + int(w%128)
		ends, _ := windowedMerge(b, text, win, 1+int(ov)%win)
		require.Equal(t, wholeMerge(b, text), ends)
		checkEnds(t, text, ends, len(ends))
	})
}
