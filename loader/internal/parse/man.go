package parse

import (
	"strings"

	"github.com/ragkit/ragkit/document"
)

// fontMacros are the man macros that set their arguments in fonts:
// joined by spaces (.B, .I) or, alternating fonts, with nothing between
// them (.BR, .IR, ...).
var fontMacros = map[string]bool{
	"B": false, "I": false, "SM": false, "SB": false,
	"BR": true, "BI": true, "IB": true, "IR": true, "RB": true, "RI": true,
}

// ignored are requests and macros that only change the layout, and
// definitions, whose text a reader never sees.
var ignored = map[string]bool{
	"ds": true, "nr": true, "ft": true, "ad": true, "na": true, "hy": true, "nh": true,
	"ne": true, "in": true, "ti": true, "ll": true, "ta": true, "ps": true, "vs": true,
	"tr": true, "cs": true, "ss": true, "mk": true, "rt": true, "fam": true, "ev": true,
	"lf": true, "pc": true, "hw": true, "rm": true, "rn": true, "ch": true, "wh": true,
	"it": true, "nx": true, "ab": true, "pl": true, "bp": true, "ns": true, "rs": true,
	"ls": true, "lt": true, "mso": true, "cc": true, "c2": true, "eo": true, "ec": true,
	"so": true, "PD": true, "UC": true, "DT": true, "Dd": true, "Dt": true, "Os": true,
	"hym": true, "hys": true, "cflags": true, "fcolor": true, "gcolor": true, "do": true,
	"ig": true, "de": true, "am": true, "als": true, "char": true, "fchar": true,
	"if": true, "ie": true, "el": true, "while": true, "break": true, "continue": true,
	"TS": false, "TE": false, "El": false, "Ed": false, "Bk": true, "Ek": true, "Sm": true,
	"IX": true, "iX": true, "PD0": true, "ti0": true, "HP0": true, "UN": true, "LINKSTYLE": true,
}

// A manReader turns a man page's roff source into Markdown.
type manReader struct {
	w      writer
	para   []string // the lines of the paragraph being read
	paraAt int      // its first line in the source
	item   bool     // the paragraph is a list item's
	tag    bool     // the next text line is a .TP item's tag
	tagged bool     // the item's tag is written: its body follows, indented
	code   []string // the lines of a no-fill block, nil outside one
	codeAt int
	name   []string // the NAME section's text, for the title
	inName bool
	mdName string // mdoc's .Nm
	table  bool   // inside .TS/.TE
	lastIe bool   // the condition of the last .ie, for .el
	url    string // the address of an open .UR or .MT
}

// Man reads a man page's roff source (the man macros, and the common
// mdoc ones): the title from the NAME section ("ls - list directory
// contents"), or else .TH's name and section; .SH and .SS (.Sh, .Ss) as
// sections under it; font escapes (\fB, \fI, \fR) and macros (.B, .BR)
// taken out, special characters (\(em, \[bu]) as their text; .TP and
// .IP paragraphs as list items with their tags; .nf/.fi and .EX/.EE as
// code blocks. Macro definitions, conditionals and includes are
// skipped, never run, so that no file can make it loop. A mark per
// block gives its Line in the source. Metadata holds .TH's section
// ("man.section").
func Man(data string) (document.Document, error) {
	var r manReader
	lines := strings.Split(data, "\n")
	title, section := "", ""
	for i := 0; i < len(lines); i++ {
		raw := strings.TrimSuffix(lines[i], "\r")
		if raw == "" {
			if r.code != nil {
				r.code = append(r.code, "")
			} else {
				r.flush()
			}
			continue
		}
		if raw[0] != '.' && raw[0] != '\'' {
			r.text(unescape(stripComment(raw)), i+1)
			continue
		}
		req := strings.TrimLeft(stripComment(raw[1:]), " \t")
		name, rest, _ := strings.Cut(req, " ")
		name = strings.TrimRight(name, "\t")
		rest = strings.TrimSpace(rest)
		switch {
		case name == "while":
			continue
		case name == "de" || name == "ig" || name == "am" || name == "de1":
			for i++; i < len(lines) && strings.TrimSpace(lines[i]) != ".." && !strings.HasPrefix(lines[i], ".."); i++ {
			}
			continue
		case name == "if" || name == "ie" || name == "el":
			cond, body := !r.lastIe, rest
			if name != "el" {
				var c string
				c, body, _ = strings.Cut(rest, " ")
				cond = c == "n" || c == "!t"
				if name == "ie" {
					r.lastIe = cond
				}
			}
			if cond {
				// Read as a terminal would (nroff): run the body in place.
				body = strings.TrimLeft(strings.Replace(body, "\\{", "", 1), " \t")
				body = strings.TrimPrefix(body, "\\")
				if strings.TrimSpace(body) != "" {
					lines[i] = body
					i--
				}
				continue
			}
			if depth := strings.Count(raw, "\\{") - strings.Count(raw, "\\}"); depth > 0 {
				for i++; i < len(lines) && depth > 0; i++ {
					depth += strings.Count(lines[i], "\\{") - strings.Count(lines[i], "\\}")
				}
				i--
			}
			continue
		}
		a := args(rest)
		for j := range a {
			a[j] = unescape(a[j])
		}
		switch name {
		case "TH", "Dt":
			if len(a) > 0 {
				title = a[0]
			}
			if len(a) > 1 {
				section = a[1]
				title += "(" + a[1] + ")"
			}
		case "SH", "Sh", "SS", "Ss":
			r.flush()
			r.endCode()
			text := strings.Join(a, " ")
			if text == "" && i+1 < len(lines) {
				i++
				text = unescape(lines[i])
			}
			level := 2
			if name == "SS" || name == "Ss" {
				level = 3
			}
			r.inName = level == 2 && strings.EqualFold(strings.TrimSpace(text), "NAME")
			r.w.mark(document.Mark{Line: i + 1})
			r.w.heading(level, text)
		case "PP", "LP", "P", "Pp", "Lp", "sp", "Sp", "HP", "RS", "RE", "TE", "El", "Bl", "Rs", "Re":
			r.flush()
			r.item = r.item && (name == "sp" || name == "Sp" || name == "RS" || name == "RE")
			if name == "TE" {
				r.table = false
			}
		case "TS":
			r.flush()
			r.table = true
		case "TP", "TQ":
			r.flush()
			r.item, r.tag = true, true
		case "IP", "It":
			r.flush()
			r.item = true
			tag := ""
			if len(a) > 0 {
				tag = a[0]
			}
			if name == "It" {
				tag = mdoc(a, r.mdName)
			}
			if tag != "" && tag != "•" && tag != "*" && tag != "-" && tag != "o" && tag != "·" {
				r.text(tag, i+1)
			}
		case "nf", "EX", "Bd", "Dl", "D1", "Vb":
			r.flush()
			if r.code == nil {
				r.code, r.codeAt = []string{}, i+2
			}
			if name == "Dl" || name == "D1" {
				r.code = append(r.code, mdoc(a, r.mdName))
				r.endCode()
			}
		case "fi", "EE", "Ed", "Ve":
			r.endCode()
		case "br":
			if r.code == nil && len(r.para) > 0 && !r.tag {
				r.flush()
			}
		case "Nm":
			if r.mdName == "" && len(a) > 0 {
				r.mdName = a[0]
			}
			r.text(mdoc(append([]string{"Nm"}, a...), r.mdName), i+1)
		case "Nd":
			desc := "- " + strings.Join(a, " ")
			if n := len(r.para); n > 0 {
				r.para[n-1] += " " + desc
				if r.inName && len(r.name) > 0 {
					r.name[len(r.name)-1] += " " + desc
				}
			} else {
				r.text(desc, i+1)
			}
		case "URL", "MTO":
			// asciidoctor's link macros: address, text, trailing text
			t := ""
			if len(a) > 0 {
				t = a[0]
			}
			if len(a) > 1 && a[1] != "" {
				t = a[1] + " <" + t + ">"
			}
			if len(a) > 2 {
				t += a[2]
			}
			r.text(t, i+1)
		case "UR", "MT", "UE", "ME", "SY", "YS", "OP":
			switch name {
			case "UR", "MT":
				r.url = ""
				if len(a) > 0 {
					r.url = a[0]
				}
			case "SY":
				r.flush()
				r.text(strings.Join(a, " "), i+1)
			case "OP":
				r.text("["+strings.Join(a, " ")+"]", i+1)
			case "UE", "ME":
				if r.url != "" {
					r.join(" <" + r.url + ">")
				}
				if len(a) > 0 {
					r.join(a[0])
				}
				r.url = ""
			}
		default:
			if ignored[name] {
				continue
			}
			if alt, ok := fontMacros[name]; ok {
				sep := " "
				if alt {
					sep = ""
				}
				if len(a) == 0 && !alt && i+1 < len(lines) {
					i++
					a = []string{unescape(stripComment(lines[i]))}
				}
				r.text(strings.Join(a, sep), i+1)
				continue
			}
			switch {
			case strings.HasPrefix(name, "%"): // a reference's field
				r.text(strings.Join(a, " "), i+1)
			case mdocCallable[name] != "" || len(name) == 2 && name[0] >= 'A' && name[0] <= 'Z':
				if t := mdoc(append([]string{name}, a...), r.mdName); t != "" {
					r.text(t, i+1)
				}
			}
		}
	}
	r.flush()
	r.endCode()
	if n := oneLine(strings.Join(r.name, " ")); n != "" {
		title = n
	}
	var out writer
	if title != "" {
		out.heading(1, title)
	}
	base := out.sb.Len()
	out.block()
	if out.sb.Len() > 0 {
		base = out.sb.Len()
	}
	out.sb.WriteString(r.w.sb.String())
	for _, m := range r.w.marks {
		m.Offset += base
		out.marks = append(out.marks, m)
	}
	d := out.doc(title, document.Markdown)
	if section != "" {
		d.Metadata = map[string]string{"man.section": section}
	}
	return d, nil
}

// text adds a line of text: to the code block, or as the tag of a .TP
// item, or to the paragraph.
func (r *manReader) text(t string, line int) {
	if r.code != nil {
		r.code = append(r.code, t)
		return
	}
	if r.inName {
		r.name = append(r.name, t)
	}
	if strings.TrimSpace(t) == "" {
		return
	}
	if r.table {
		t = strings.ReplaceAll(t, "\t", " ")
	}
	if len(r.para) == 0 {
		r.paraAt = line
	}
	r.para = append(r.para, strings.TrimSpace(t))
	if r.tag {
		r.tag = false
		r.flushTag()
	}
}

// join appends text to the paragraph's last line, without a space.
func (r *manReader) join(t string) {
	if n := len(r.para); n > 0 {
		r.para[n-1] += t
	}
}

// flushTag writes a .TP item's tag line, its body to follow.
func (r *manReader) flushTag() {
	r.w.block()
	r.w.mark(document.Mark{Line: r.paraAt})
	r.w.sb.WriteString("- " + escapeLine(r.para[0]) + "\n")
	r.para = r.para[:0]
	r.tagged = true
}

// flush writes the paragraph being read.
func (r *manReader) flush() {
	if len(r.para) == 0 {
		return
	}
	if !r.tagged {
		r.w.block()
		r.w.mark(document.Mark{Line: r.paraAt})
	}
	for i, l := range r.para {
		switch {
		case r.tagged:
			r.w.sb.WriteString("  ")
		case r.item && i == 0:
			r.w.sb.WriteString("- ")
		case r.item:
			r.w.sb.WriteString("  ")
		case i == 0:
			l = escapeLine(l)
		}
		r.w.sb.WriteString(l + "\n")
	}
	r.para = r.para[:0]
	r.tagged = false
}

// endCode writes the no-fill block being read as a code block.
func (r *manReader) endCode() {
	if r.code == nil {
		return
	}
	for len(r.code) > 0 && strings.TrimSpace(r.code[len(r.code)-1]) == "" {
		r.code = r.code[:len(r.code)-1]
	}
	if len(r.code) > 0 {
		r.w.block()
		r.w.mark(document.Mark{Line: r.codeAt})
		r.w.fence("", strings.Join(r.code, "\n")+"\n")
	}
	r.code = nil
}

// escapeLine keeps a paragraph's first line from reading as Markdown
// markup it is not: a heading, a list item, a quote or a numbered item.
func escapeLine(l string) string {
	if l == "" {
		return l
	}
	switch l[0] {
	case '#', '>', '+', '=', '|':
		return `\` + l
	case '-', '*':
		if len(l) > 1 && l[1] == ' ' {
			return `\` + l
		}
	}
	return l
}

// stripComment drops a roff comment (\" or \#) from a line.
func stripComment(s string) string {
	for i := 0; i+1 < len(s); i++ {
		if s[i] == '\\' {
			if s[i+1] == '"' || s[i+1] == '#' {
				return strings.TrimRight(s[:i], " \t")
			}
			i++
		}
	}
	return s
}

// mdocCallable are the mdoc macros that may appear among another's
// arguments, with what each puts before its argument.
var mdocCallable = map[string]string{
	"Fl": "-", "Ar": "", "Cm": "", "Pa": "", "Ev": "", "Ic": "", "Li": "", "Em": "",
	"Sy": "", "Va": "", "Fn": "", "Ft": "", "Fa": "", "Dv": "", "Er": "", "Ad": "",
	"Ms": "", "Tn": "", "Sx": "", "Nm": "", "Op": "", "Dq": "", "Sq": "", "Qq": "",
	"Pq": "", "Ql": "", "Xr": "", "Ns": "", "No": "", "Oo": "", "Oc": "", "Aq": "",
	"Bq": "", "Brq": "", "Lk": "", "Mt": "", "Ux": "UNIX", "Bx": "BSD", "At": "AT&T UNIX",
	"Xo": "", "Xc": "", "Pf": "", "Ox": "OpenBSD", "Nx": "NetBSD", "Fx": "FreeBSD", "Dx": "DragonFly",
	"Bsx": "BSD/OS", "Ta": "", "Cd": "", "Ot": "", "Vt": "", "In": "", "Fo": "", "Fc": "", "Ap": "'",
}

// mdoc renders an mdoc macro line's words: callable macros replaced by
// what they mean (Fl a is -a, Op wraps the rest in brackets, Xr ls 1 is
// ls(1)), other words as they are.
func mdoc(words []string, name string) string {
	var out []string
	closing := ""
	nospace := false
	add := func(s string) {
		if nospace && len(out) > 0 {
			out[len(out)-1] += s
		} else {
			out = append(out, s)
		}
		nospace = false
	}
	open := func(o, c string) {
		add(o)
		nospace = true
		closing = c + closing
	}
	for i := 0; i < len(words); i++ {
		w := words[i]
		pre, isMacro := mdocCallable[w]
		if !isMacro {
			if len(out) > 0 && w != "" && strings.Trim(w, ".,:;)]?!") == "" {
				nospace = true
			}
			add(w)
			continue
		}
		switch w {
		case "Fl":
			if i+1 < len(words) {
				if _, next := mdocCallable[words[i+1]]; !next {
					i++
					add(pre + words[i])
					continue
				}
			}
			add("-")
		case "Nm":
			if i+1 >= len(words) {
				add(name)
			} else if _, next := mdocCallable[words[i+1]]; next {
				add(name)
			}
		case "Op", "Oo", "Bq":
			open("[", "]")
		case "Dq", "Qq":
			open("“", "”")
		case "Sq", "Ql":
			open("‘", "’")
		case "Pq":
			open("(", ")")
		case "Aq":
			open("⟨", "⟩")
		case "Oc":
			if len(out) > 0 {
				out[len(out)-1] += "]"
			}
			closing = strings.TrimPrefix(closing, "]")
		case "Xr":
			if i+2 < len(words) {
				add(words[i+1] + "(" + words[i+2] + ")")
				i += 2
			}
		case "Ns", "Pf":
			nospace = w == "Ns"
			if w == "Pf" && i+1 < len(words) {
				i++
				add(words[i])
				nospace = true
			}
		case "Ap":
			nospace = true
			add("'")
			nospace = true
		default:
			if pre != "" {
				add(pre)
			}
		}
	}
	return strings.Join(out, " ") + closing
}
