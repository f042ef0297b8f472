package loader_test

import (
	"os"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/ragkit/ragkit/document"
	"github.com/ragkit/ragkit/loader"
)

// sectionTitles returns the titles of a document's headings, each after
// "#"s of its level.
func sectionTitles(d document.Document) []string {
	var out []string
	for _, h := range document.Headings(d.Text, d.Format) {
		out = append(out, strings.Repeat("#", h.Level)+" "+h.Title)
	}
	return out
}

func TestManPages(t *testing.T) {
	ls, err := os.ReadFile("testdata/man/ls.1")
	require.NoError(t, err)
	ssh, err := os.ReadFile("testdata/man/ssh.1")
	require.NoError(t, err)
	for _, tt := range []struct {
		name, file string
		data       []byte
		title      string
		sections   []string
		has        []string
	}{
		{
			name: "man macros", file: "man1/ls.1.gz", data: gz(t, string(ls)),
			title:    "ls - list directory contents",
			sections: []string{"# ls - list directory contents", "## NAME", "## SYNOPSIS", "## DESCRIPTION"},
			has: []string{
				"\nls\n[OPTION]... [FILE]...\n",
				"Sort entries alphabetically if none of -cftuvSUX nor --sort is specified.",
				"- -a, --all\n  do not ignore entries starting with .\n",
				"- --block-size=SIZE\n  with -l, scale sizes by SIZE when printing them;\n  e.g., '--block-size=M'; see SIZE format below\n",
			},
		},
		{
			name: "mdoc macros", file: "ssh.1", data: ssh,
			title:    "ssh - OpenSSH remote login client",
			sections: []string{"# ssh - OpenSSH remote login client", "## NAME", "## SYNOPSIS", "## DESCRIPTION"},
			has:      []string{"[-B bind_interface]", "- -4\n  Forces\n  ssh\n  to use IPv4 addresses only.\n", "ssh-agent(1)."},
		},
	} {
		t.Run(tt.name, func(t *testing.T) {
			d, err := loadOne(t, tt.file, string(tt.data))
			require.NoError(t, err)
			assert.Equal(t, tt.title, d.Title)
			assert.Equal(t, tt.sections, sectionTitles(d)[:len(tt.sections)])
			for _, s := range tt.has {
				assert.Contains(t, d.Text, s)
			}
			assert.NotContains(t, d.Text, `\f`)
			assert.Equal(t, "1", d.Metadata["man.section"])
			require.NotEmpty(t, d.Marks)
			for i := 1; i < len(d.Marks); i++ {
				assert.Less(t, d.Marks[i-1].Offset, d.Marks[i].Offset)
				assert.LessOrEqual(t, d.Marks[i-1].Line, d.Marks[i].Line)
			}
		})
	}
}

// The roff features one by one, and input that must not loop or leak.
func TestManRoff(t *testing.T) {
	for _, tt := range []struct {
		name, data, want string
	}{
		{"escapes", ".TH T 1\n.SH NAME\nt \\- a \\fBbold\\fR \\fIword\\fP \\(em \\[bu] \\(lqq\\(rq \\e \\s-1small\\s0 \\*(Tm \\-\\-x\n",
			"# t - a bold word — • “q” \\ small ™ --x\n\n## NAME\n\nt - a bold word — • “q” \\ small ™ --x\n"},
		{"code blocks", ".SH EXAMPLES\n.nf\n  ls \\-l\n\n  ls \\-a\n.fi\nAfter.\n.EX\nx = 1\n.EE\n",
			"## EXAMPLES\n\n```\n  ls -l\n\n  ls -a\n```\n\nAfter.\n\n```\nx = 1\n```\n"},
		{"IP lists", ".SH L\n.IP \\(bu 2\nfirst\n.IP \\(bu\nsecond\n.PP\nafter\n",
			"## L\n\n- first\n\n- second\n\nafter\n"},
		{"font macros", ".SH S\n.B ls\n.BR \\-a , \" \\-\\-all\"\n.I\nfile\n",
			"## S\n\nls\n-a, --all\nfile\n"},
		{"a macro that calls itself is never run", ".de X\n.X\n..\n.X\n.SH A\ntext\n.so other.1\n",
			"## A\n\ntext\n"},
		{"conditionals read as a terminal", ".SH A\n.if n nroff\n.if t troff\n.ie t T\n.el N\n.if t \\{\\\nhidden\n.\\}\n",
			"## A\n\nnroff\nN\n"},
		{"markup-like text is escaped", ".SH A\n# not a heading\n.PP\n- not an item\n",
			"## A\n\n\\# not a heading\n\n\\- not an item\n"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			d, err := loadOne(t, "t.1", tt.data)
			require.NoError(t, err)
			assert.Equal(t, tt.want, d.Text)
		})
	}
	_, err := loadOne(t, "link.1", ".so man1/other.1\n")
	assert.ErrorIs(t, err, loader.ErrEmpty, "a page that only includes another has no text")
}

// A man page rendered as text is titled by its NAME line, not by its
// first section; README.Debian and the like are text.
func TestRenderedManPage(t *testing.T) {
	text, err := os.ReadFile("../document/testdata/text/ls.1.txt")
	require.NoError(t, err)
	d, err := loadOne(t, "ls.txt", string(text))
	require.NoError(t, err)
	assert.Equal(t, "ls - list directory contents", d.Title)
	assert.Equal(t, []string{"# NAME", "# SYNOPSIS", "# DESCRIPTION"}, sectionTitles(d))

	d, err = loadOne(t, "README.Debian.gz", string(gz(t, "NOTES\n\nSome notes.\n")))
	require.NoError(t, err)
	assert.Equal(t, "NOTES", d.Title)
	assert.Equal(t, document.Text, d.Format)
}

// Links: man's .UR/.UE and asciidoctor's .URL and .MTO keep their text
// and their address.
func TestManLinks(t *testing.T) {
	d, err := loadOne(t, "l.1", ".SH BUGS\nUse the tracker at \\c\n.URL \"https://example.org/issues\" \"\" \".\"\nMail\n.MTO \"ann\\(atexample.org\" \"Ann\" \"\"\nor see\n.UR https://example.org\nthe site\n.UE .\n")
	require.NoError(t, err)
	assert.Equal(t, "## BUGS\n\nUse the tracker at\nhttps://example.org/issues.\nMail\nAnn <ann@example.org>\nor see\nthe site <https://example.org>.\n", d.Text)
}
