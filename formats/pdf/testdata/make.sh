#!/bin/sh
# make.sh: rebuilds the test PDFs from their Markdown sources, and the
# pdftotext reading of each that the page-mark test compares with. Needs
# groff and poppler-utils (Debian: apt-get install -y groff poppler-utils).
set -eu
cd "$(dirname "$0")"
for f in onecol twocol table headings; do
	awk -f md2ms.awk "$f.md" | groff -k -t -ms -Tpdf > "$f.pdf"
	pdftotext "$f.pdf" "$f.pdftotext.txt"
done
