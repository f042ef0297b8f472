package parse

import (
	"regexp"
	"strings"

	"github.com/ragkit/ragkit/document"
)

var (
	adocHeading = regexp.MustCompile(`^(=|#){1,6} +(\S.*?)(?: +(?:=|#)+)?$`)
	adocAttr    = regexp.MustCompile(`^:([A-Za-z0-9_][A-Za-z0-9_-]*!?):(?: +(.*))?$`)
	adocSource  = regexp.MustCompile(`^\[(?:source)?,? *([A-Za-z0-9+#_-]*)[^\]]*\]$`)
	adocLink    = regexp.MustCompile(`(?:link:|https?://)([^\s\[]*)\[([^\]]*)\]`)
	adocXref    = regexp.MustCompile(`<<([^,>]+)(?:, *([^>]+))?>>`)
)

// adocDelimiters are the lines that open and close AsciiDoc's delimited
// blocks, with what each holds.
var adocDelimiters = map[string]string{
	"----": "code", "....": "code", "////": "comment", "====": "example",
	"****": "sidebar", "____": "quote", "++++": "pass", "--": "open", "|===": "table",
}

// AsciiDoc reads an AsciiDoc file into Markdown: the document title ("=
// Title") and section titles ("== Section" to "====== Section") as
// headings of their level; the attribute entries of the header
// (":author: Ann") as Metadata; listing and literal blocks ("----",
// "....") as fenced code, in the language of a "[source,go]" line before
// them; comments and comment blocks dropped; links and cross references
// as their text. A mark per heading gives its Line.
func AsciiDoc(data string) (document.Document, error) {
	lines := strings.Split(strings.ReplaceAll(data, "\r\n", "\n"), "\n")
	var w writer
	meta := map[string]string{}
	header := true // before the first section or paragraph after the title
	lang := ""
	for i := 0; i < len(lines); i++ {
		l := strings.TrimRight(lines[i], " \t\r")
		if kind, ok := adocDelimiters[delimiter(l)]; ok {
			end := i + 1
			for end < len(lines) && strings.TrimRight(lines[end], " \t\r") != l {
				end++
			}
			body := strings.Join(lines[i+1:min(end, len(lines))], "\n") + "\n"
			switch kind {
			case "code", "pass":
				w.fence(lang, body)
			case "comment":
			default:
				w.block()
				for _, b := range lines[i+1 : min(end, len(lines))] {
					w.sb.WriteString(adocInline(strings.TrimRight(b, " \t\r")) + "\n")
				}
			}
			lang = ""
			i = end
			continue
		}
		if m := adocHeading.FindStringSubmatch(l); m != nil && (i == 0 || header || paragraphStart(lines[i-1])) {
			level := strings.Count(l[:strings.IndexByte(l, ' ')], l[:1])
			w.block()
			w.mark(document.Mark{Line: i + 1})
			w.heading(level, adocInline(m[2]))
			header = level == 1
			continue
		}
		if m := adocAttr.FindStringSubmatch(l); m != nil {
			if header && len(meta) < maxFields && m[2] != "" {
				meta[m[1]] = oneLine(m[2])
			}
			continue
		}
		switch {
		case strings.HasPrefix(l, "//") && !strings.HasPrefix(l, "///"):
			continue
		case strings.HasPrefix(l, "include::") || strings.HasPrefix(l, "ifdef::") || strings.HasPrefix(l, "ifndef::") || strings.HasPrefix(l, "endif::"):
			continue
		case strings.HasPrefix(l, "[") && strings.HasSuffix(l, "]"):
			if m := adocSource.FindStringSubmatch(l); m != nil && strings.HasPrefix(l, "[source") {
				lang = m[1]
			}
			continue
		case len(l) > 1 && l[0] == '.' && l[1] != '.' && l[1] != ' ':
			w.block()
			w.sb.WriteString("**" + adocInline(l[1:]) + "**\n")
			continue
		case l == "":
			w.blankLine()
			continue
		}
		header = false
		w.sb.WriteString(escapeLine(adocInline(l)) + "\n")
	}
	d := w.doc("", document.Markdown)
	if len(meta) > 0 {
		d.Metadata = meta
	}
	return d, nil
}

// delimiter returns the line as a block delimiter's key: a run of four
// or more of the same character is the four-character key.
func delimiter(l string) string {
	if l == "--" || l == "|===" {
		return l
	}
	if len(l) >= 4 && strings.Count(l, l[:1]) == len(l) {
		return l[:4]
	}
	return ""
}

// adocInline rewrites links and cross references as their text.
func adocInline(l string) string {
	if !strings.ContainsAny(l, "[<") {
		return l
	}
	l = adocLink.ReplaceAllStringFunc(l, func(m string) string {
		s := adocLink.FindStringSubmatch(m)
		if s[2] != "" {
			return s[2]
		}
		return strings.TrimSuffix(m, "[]")
	})
	return adocXref.ReplaceAllStringFunc(l, func(m string) string {
		s := adocXref.FindStringSubmatch(m)
		if s[2] != "" {
			return s[2]
		}
		return s[1]
	})
}

// paragraphStart reports whether the line before one lets it open a
// block: a blank line or a block's attribute or anchor line ("[[id]]").
func paragraphStart(prev string) bool {
	prev = strings.TrimSpace(prev)
	return prev == "" || strings.HasPrefix(prev, "[") && strings.HasSuffix(prev, "]")
}
