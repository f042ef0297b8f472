package loader_test

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"testing"
	"testing/fstest"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/ragkit/ragkit/document"
	"github.com/ragkit/ragkit/loader"
)

// writeTree writes files (slash path to content) under dir.
func writeTree(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	for name, text := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		require.NoError(t, os.MkdirAll(filepath.Dir(p), 0o755))
		require.NoError(t, os.WriteFile(p, []byte(text), 0o644))
	}
}

// symlink makes a link at dir/name to target, or skips the test where the
// system cannot.
func symlink(t *testing.T, target, dir, name string) {
	t.Helper()
	if err := os.Symlink(target, filepath.Join(dir, name)); err != nil {
		t.Skipf("no symbolic links here: %v", err)
	}
}

// ids returns the IDs of the documents.
func ids(docs []document.Document) []string {
	var out []string
	for _, d := range docs {
		out = append(out, d.ID)
	}
	return out
}

// reasons maps each skipped path to its reason.
func reasons(r *loader.Result) map[string]error {
	out := map[string]error{}
	for _, s := range r.Skipped {
		out[s.Path] = s.Reason
	}
	return out
}

// A reason is what a Skip's Reason must wrap and say.
type reason struct {
	is   error
	says string
}

var (
	rHidden     = reason{loader.ErrLeftOut, "hidden (Config.Hidden)"}
	rSkipDir    = reason{loader.ErrLeftOut, "(Config.SkipDirs)"}
	rExcluded   = reason{loader.ErrLeftOut, "by Config.Exclude"}
	rDuplicate  = reason{loader.ErrLeftOut, "a link to what is loaded as "}
	rOutside    = reason{loader.ErrLeftOut, "outside the root (Config.LinksOutside)"}
	rLinkLoop   = reason{loader.ErrUnreadable, "a link loop"}
	rNotRegular = reason{loader.ErrUnreadable, "not a regular file"}
)

func (r reason) check(t *testing.T, why map[string]error, path string) {
	t.Helper()
	if assert.ErrorIs(t, why[path], r.is, path) {
		assert.Contains(t, why[path].Error(), r.says, path)
	}
}

// byID returns the document with the ID.
func byID(t *testing.T, r *loader.Result, id string) document.Document {
	t.Helper()
	for _, d := range r.Documents {
		if d.ID == id {
			return d
		}
	}
	require.Failf(t, "no such document", "%s in %v", id, ids(r.Documents))
	return document.Document{}
}

// A folder that holds everything a real one does: the documents load, in
// path order, and every file left out is reported with its reason.
func TestDirMessyFolder(t *testing.T) {
	root, outside := t.TempDir(), t.TempDir()
	writeTree(t, root, map[string]string{
		"a.md":                  "# Alpha\n\nThe alpha valve opens at four bar.\n",
		"notes/b.txt":           "The beta pump runs at night.\n",
		"notes/Deep/C.MD":       "Some text first.\n\n# Gamma\n\nMore.\n",
		"ctl.txt":               "be\x1bfo\x01re\x7f\n",
		"nul.txt":               "be\x00fore\n",
		"fake.txt":              "%PDF-1.7\n",
		"paper.pdf":             "%PDF-1.7\n",
		"bad.md":                "x \xff\xfe y\n",
		"bom.md":                "\uFEFF# With a mark\n\nText.\n",
		"empty.md":              " \n\t\n",
		"image.png":             "\x89PNG",
		".hidden/c.md":          "# Hidden\n",
		".secret.md":            "# Secret\n",
		"node_modules/pkg/x.md": "# Dependency\n",
		"build/out.txt":         "built\n",
	})
	huge, err := os.Create(filepath.Join(root, "huge.txt"))
	require.NoError(t, err)
	require.NoError(t, huge.Truncate(20<<20)) // sparse: 20 MiB that take no disk
	require.NoError(t, huge.Close())
	writeTree(t, outside, map[string]string{"out.md": "# Outside\n\nText.\n"})
	symlink(t, "missing.md", root, "dangling.md")
	symlink(t, ".", root, "loop")
	symlink(t, "../../notes", root, "notes/Deep/up")
	symlink(t, "self.md", root, "self.md")
	symlink(t, "a.md", root, "again.md")
	symlink(t, "notes", root, "notes-link")
	symlink(t, filepath.Join(outside, "out.md"), root, "out.md")
	symlink(t, outside, root, "outdir")

	r, err := loader.Dir(context.Background(), root, loader.Config{})
	require.NoError(t, err)
	assert.Equal(t, []string{"a.md", "bad.md", "bom.md", "ctl.txt", "notes/Deep/C.MD", "notes/b.txt"}, ids(r.Documents))

	why := reasons(r)
	for path, want := range map[string]reason{
		".hidden": rHidden, ".secret.md": rHidden,
		"node_modules": rSkipDir, "build": rSkipDir,
		"empty.md": {loader.ErrEmpty, "no text"}, "huge.txt": {loader.ErrTooLarge, "bytes"},
		"dangling.md": {loader.ErrUnreadable, "a dangling link"}, "loop": rLinkLoop,
		"notes/Deep/up": rLinkLoop, "self.md": rLinkLoop,
		"again.md": rDuplicate, "notes-link": rDuplicate,
		"out.md": rOutside, "outdir": rOutside,
		"nul.txt":   {loader.ErrUnsupported, "loader: not read: binary"},
		"image.png": {loader.ErrUnsupported, "no parser for .png"},
		"fake.txt":  {loader.ErrUnsupported, "pdf content, which the parser for .txt does not read"},
		"paper.pdf": {loader.ErrUnsupported, "no parser for .pdf: see " + loader.FormatsModule},
	} {
		want.check(t, why, path)
	}
	assert.ErrorIs(t, why["dangling.md"], fs.ErrNotExist)
	assert.Len(t, r.Skipped, 18, "every file left out is reported: %v", r.Skipped)
	// The files of Skipped, not its folders nor the links whose target
	// is unknown (dangling.md, self.md).
	assert.Equal(t, loader.Counts{".md": 4, ".txt": 3, ".png": 1, ".pdf": 1}, r.NotRead)
	assert.Equal(t, "9 files: 4 .md, 3 .txt, 1 .pdf, 1 .png", r.NotRead.String())
	assert.Contains(t, why["huge.txt"].Error(), "20971520 bytes, the limit is 10485760")
	assert.Contains(t, why["again.md"].Error(), "a.md")

	a := byID(t, r, "a.md")
	assert.Equal(t, "Alpha", a.Title)
	assert.Equal(t, document.Markdown, a.Format)
	assert.Equal(t, "a.md", a.Source, "the path relative to the root, as the ID")
	mod, err := time.Parse(time.RFC3339, a.Metadata[loader.ModifiedKey])
	require.NoError(t, err)
	assert.WithinDuration(t, time.Now(), mod, time.Hour)

	assert.Equal(t, "Gamma", byID(t, r, "notes/Deep/C.MD").Title, "the first top-level heading, wherever it is")
	assert.Equal(t, document.Markdown, byID(t, r, "notes/Deep/C.MD").Format)
	assert.Equal(t, "b", byID(t, r, "notes/b.txt").Title, "no heading: the file name")
	assert.Equal(t, "before\n", byID(t, r, "ctl.txt").Text, "controls removed")
	assert.Equal(t, "ctl.txt", byID(t, r, "ctl.txt").Source)
	assert.Equal(t, "x \uFFFD\uFFFD y\n", byID(t, r, "bad.md").Text)
	assert.Equal(t, "# With a mark\n\nText.\n", byID(t, r, "bom.md").Text)
	assert.Equal(t, "With a mark", byID(t, r, "bom.md").Title)
	assert.Equal(t, []loader.Repair{
		{Path: "bad.md", InvalidBytes: 2},
		{Path: "bom.md", Controls: 1},
		{Path: "ctl.txt", Controls: 3},
	}, r.Repaired)

	again, err := loader.Dir(context.Background(), root, loader.Config{})
	require.NoError(t, err)
	assert.Equal(t, r, again, "the same tree loads the same way")
}

// Links inside the root are followed; outside it only when asked, and
// loops are still caught there.
func TestDirLinks(t *testing.T) {
	root, outside := t.TempDir(), t.TempDir()
	writeTree(t, root, map[string]string{"docs/a.md": "# A\n", "skipped/b.md": "# B\n"})
	writeTree(t, outside, map[string]string{"shared/c.md": "# C\n"})
	symlink(t, "../skipped/b.md", root, "docs/b.md")
	symlink(t, filepath.Join(outside, "shared"), root, "shared")
	symlink(t, root, outside, "shared/back")

	cfg := loader.Config{Exclude: []string{"skipped"}}
	r, err := loader.Dir(context.Background(), root, cfg)
	require.NoError(t, err)
	assert.Equal(t, []string{"docs/a.md", "docs/b.md"}, ids(r.Documents), "a link into an excluded folder is followed")
	rOutside.check(t, reasons(r), "shared")

	cfg.LinksOutside = true
	r, err = loader.Dir(context.Background(), root, cfg)
	require.NoError(t, err)
	assert.Equal(t, []string{"docs/a.md", "docs/b.md", "shared/c.md"}, ids(r.Documents))
	rLinkLoop.check(t, reasons(r), "shared/back")
}

func TestDirRoot(t *testing.T) {
	missing := filepath.Join(t.TempDir(), "nonexistent")
	_, err := loader.Dir(context.Background(), missing, loader.Config{})
	require.ErrorIs(t, err, loader.ErrRoot)
	require.ErrorIs(t, err, fs.ErrNotExist)
	assert.Equal(t, "loader: cannot load the root folder: "+missing+": no such file or directory", err.Error())

	file := filepath.Join(t.TempDir(), "a.md")
	require.NoError(t, os.WriteFile(file, []byte("# A\n"), 0o644))
	_, err = loader.Dir(context.Background(), file, loader.Config{})
	require.ErrorIs(t, err, loader.ErrRoot)
	assert.Contains(t, err.Error(), file+" is not a folder")

	r, err := loader.Dir(context.Background(), t.TempDir(), loader.Config{})
	require.NoError(t, err, "an empty folder is no error")
	assert.Empty(t, r.Documents)
}

// A folder that cannot be listed is skipped; the walk goes on.
func TestDirUnreadableFolder(t *testing.T) {
	if os.Geteuid() == 0 {
		t.Skip("root reads every folder")
	}
	root := t.TempDir()
	writeTree(t, root, map[string]string{"a.md": "# A\n", "locked/b.md": "# B\n"})
	require.NoError(t, os.Chmod(filepath.Join(root, "locked"), 0))
	t.Cleanup(func() { _ = os.Chmod(filepath.Join(root, "locked"), 0o755) })
	r, err := loader.Dir(context.Background(), root, loader.Config{})
	require.NoError(t, err)
	assert.Equal(t, []string{"a.md"}, ids(r.Documents))
	assert.ErrorIs(t, reasons(r)["locked"], loader.ErrUnreadable)
	assert.ErrorIs(t, reasons(r)["locked"], fs.ErrPermission)
}

func TestConfig(t *testing.T) {
	tree := fstest.MapFS{
		"a.md":                     {Data: []byte("# A\n\ntext\n")},
		"docs/b.md":                {Data: []byte("# B\n\ntext\n")},
		"docs/old/c.md":            {Data: []byte("# C\n\ntext\n")},
		"docs/old/d.txt":           {Data: []byte("D text\n")},
		"docs/guide.rst":           {Data: []byte("Guide\n=====\n")},
		"node_modules/e.md":        {Data: []byte("# E\n")},
		".github/f.md":             {Data: []byte("# F\n")},
		"notes/bad.txt":            {Data: []byte("a\xffb\n")},
		"notes/big.md":             {Data: make([]byte, 100)},
		"notes/README.MARKDOWN":    {Data: []byte("# R\n")},
		"notes/nested/drafts/g.md": {Data: []byte("# G\n")},
	}
	for _, tt := range []struct {
		name    string
		cfg     loader.Config
		want    []string
		skipped map[string]reason
	}{
		{name: "defaults", want: []string{"a.md", "docs/b.md", "docs/guide.rst", "docs/old/c.md", "docs/old/d.txt", "notes/README.MARKDOWN", "notes/bad.txt", "notes/nested/drafts/g.md"},
			skipped: map[string]reason{"node_modules": rSkipDir, ".github": rHidden, "notes/big.md": {loader.ErrUnsupported, "binary"}}},
		{name: "include by name", cfg: loader.Config{Include: []string{"*.rst", "*.txt"}}, want: []string{"docs/guide.rst", "docs/old/d.txt", "notes/bad.txt"}},
		{name: "include by path", cfg: loader.Config{Include: []string{"docs/**/*.md"}}, want: []string{"docs/b.md", "docs/old/c.md"}},
		{name: "exclude a folder by name", cfg: loader.Config{Exclude: []string{"old", "drafts"}},
			want:    []string{"a.md", "docs/b.md", "docs/guide.rst", "notes/README.MARKDOWN", "notes/bad.txt"},
			skipped: map[string]reason{"docs/old": rExcluded, "notes/nested/drafts": rExcluded}},
		{name: "exclude by path", cfg: loader.Config{Exclude: []string{"docs/*/*.txt", "*.MARKDOWN"}},
			want:    []string{"a.md", "docs/b.md", "docs/guide.rst", "docs/old/c.md", "notes/bad.txt", "notes/nested/drafts/g.md"},
			skipped: map[string]reason{"docs/old/d.txt": rExcluded, "notes/README.MARKDOWN": rExcluded}},
		{name: "hidden and every folder", cfg: loader.Config{Hidden: true, SkipDirs: []string{}, Include: []string{"[a-f].md"}},
			want: []string{".github/f.md", "a.md", "docs/b.md", "docs/old/c.md", "node_modules/e.md"}},
		{name: "refuse invalid UTF-8", cfg: loader.Config{InvalidUTF8: loader.Refuse, Include: []string{"*.txt"}},
			want: []string{"docs/old/d.txt"}, skipped: map[string]reason{"notes/bad.txt": {loader.ErrInvalidUTF8, "Refuse"}}},
		{name: "a small limit", cfg: loader.Config{MaxBytes: 20, Include: []string{"notes/*"}},
			want: []string{"notes/README.MARKDOWN", "notes/bad.txt"}, skipped: map[string]reason{"notes/big.md": {loader.ErrTooLarge, "Config.MaxBytes"}}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			r, err := loader.FS(context.Background(), tree, tt.cfg)
			require.NoError(t, err)
			assert.Equal(t, tt.want, ids(r.Documents))
			why := reasons(r)
			for path, want := range tt.skipped {
				want.check(t, why, path)
			}
		})
	}
}

func TestConfigErrors(t *testing.T) {
	for _, tt := range []struct {
		cfg  loader.Config
		want string
	}{
		{loader.Config{MaxBytes: -1}, "loader: invalid configuration: MaxBytes is -1: must not be negative"},
		{loader.Config{Include: []string{"*.md", "[a-"}}, `loader: invalid configuration: Include[1] is "[a-": syntax error in pattern`},
		{loader.Config{Exclude: []string{""}}, `loader: invalid configuration: Exclude[0] is "": syntax error in pattern`},
		{loader.Config{InvalidUTF8: 2}, "loader: invalid configuration: InvalidUTF8 is Policy(2): must be Replace or Refuse"},
	} {
		t.Run(tt.want, func(t *testing.T) {
			_, err := loader.FS(context.Background(), fstest.MapFS{}, tt.cfg)
			require.ErrorIs(t, err, loader.ErrConfig)
			assert.EqualError(t, err, tt.want)
			_, err = loader.Dir(context.Background(), t.TempDir(), tt.cfg)
			require.ErrorIs(t, err, loader.ErrConfig)
		})
	}
}

func TestFS(t *testing.T) {
	mod := time.Date(2026, 3, 1, 9, 30, 0, 0, time.FixedZone("CET", 3600))
	r, err := loader.FS(context.Background(), fstest.MapFS{
		"guide.md": {Data: []byte("# Guide\n\nRead me.\n"), ModTime: mod},
		"plain.md": {Data: []byte("No heading.\n")},
		"pipe.md":  {Mode: fs.ModeNamedPipe},
	}, loader.Config{})
	require.NoError(t, err)
	require.Equal(t, []string{"guide.md", "plain.md"}, ids(r.Documents))
	assert.Equal(t, map[string]string{loader.ModifiedKey: "2026-03-01T08:30:00Z"}, r.Documents[0].Metadata)
	assert.Equal(t, "guide.md", r.Documents[0].Source)
	assert.Nil(t, r.Documents[1].Metadata, "no time, no key")
	assert.Equal(t, "plain.md", r.Documents[1].Source)
	rNotRegular.check(t, reasons(r), "pipe.md")

	_, err = loader.FS(context.Background(), fstest.MapFS{"a.md": {Data: []byte("x")}, ".": {Mode: 0o644}}, loader.Config{})
	assert.ErrorIs(t, err, loader.ErrRoot)
	_, err = loader.FS(context.Background(), nil, loader.Config{})
	assert.ErrorIs(t, err, loader.ErrRoot)
}

func TestCancel(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err := loader.FS(ctx, fstest.MapFS{"a.md": {Data: []byte("# A\n")}}, loader.Config{})
	assert.ErrorIs(t, err, context.Canceled)
	root := t.TempDir()
	writeTree(t, root, map[string]string{"a.md": "# A\n"})
	_, err = loader.Dir(ctx, root, loader.Config{})
	assert.ErrorIs(t, err, context.Canceled)
}

func TestPolicyString(t *testing.T) {
	assert.Equal(t, "Replace", loader.Replace.String())
	assert.Equal(t, "Refuse", loader.Refuse.String())
	assert.Equal(t, "Policy(7)", loader.Policy(7).String())
}

func TestSkipString(t *testing.T) {
	s := loader.Skip{Path: "a.md", Reason: loader.ErrEmpty}
	assert.Equal(t, "a.md: loader: no text", s.String())
	assert.True(t, errors.Is(s.Reason, loader.ErrEmpty))
}
