# md2ms.awk: the small Markdown of the *.md files here to groff -ms input,
# with running headers and footers on every page (see README.md).
BEGIN {
	print ".ds LH Ragkit fidelity test"
	print ".ds CH"
	print ".ds RH Forster sampler"
	print ".ds LF Chapter one draft"
	print ".ds CF Page \\\\n%"
	print ".ds RF Not for citation"
	print ".nr PS 10"
	print ".nr VS 12"
	para = 0
}
function text(s) {
	if (s ~ /^[.']/) s = "\\&" s
	return s
}
function endtable() {
	if (intable) { print ".TE"; intable = 0 }
}
/^<!-- 2C -->$/ { endtable(); print ".2C"; para = 0; next }
/^# / { endtable(); sub(/^# /, ""); print ".TL"; print "\\s[18]" text($0) "\\s0"; para = 0; next }
/^## / { endtable(); sub(/^## /, ""); print ".SH"; print "\\s[14]" text($0) "\\s0"; para = 0; next }
/^### / { endtable(); sub(/^### /, ""); print ".SH"; print "\\s[12]" text($0) "\\s0"; para = 0; next }
/^#### / { endtable(); sub(/^#### /, ""); print ".SH"; print text($0); para = 0; next }
/^- / { endtable(); sub(/^- /, ""); print ".IP \\(bu 2"; print text($0); para = 1; next }
/^\|---/ { next }
/^\|/ {
	line = $0
	sub(/^\| */, "", line); sub(/ *\|$/, "", line); gsub(/ *\| */, "\t", line)
	if (!intable) {
		print ".TS"; print "tab(\t);"
		n = split(line, cells, "\t")
		fmt = ""; for (i = 1; i <= n; i++) fmt = fmt (i > 1 ? " " : "") "lB"; print fmt
		fmt = ""; for (i = 1; i <= n; i++) fmt = fmt (i > 1 ? " " : "") "l"; print fmt "."
		intable = 1
	}
	print line
	para = 0
	next
}
/^$/ { endtable(); para = 0; next }
{ if (!para) { print ".PP"; para = 1 } print text($0) }
END { endtable() }
