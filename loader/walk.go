package loader

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"time"

	"github.com/ragkit/ragkit/document"
)

// A walker loads one tree. Links are followed after the rest of the
// tree is walked, so that a file or folder reached both by its own path
// and through a link is loaded under its own path.
type walker struct {
	cfg      Config
	fsys     fs.FS
	skipDirs map[string]bool
	parsers  map[string]Parser
	// real returns the real location of a name, links resolved; nil for
	// an fs.FS, which cannot tell.
	real     func(name string) (string, error)
	rootReal string
	// display returns the Source of a name; nil means the name.
	display func(name string) string

	seen  map[string]string // real location to the name loaded under it
	links []link            // links found, to follow after the walk
	res   Result
}

// A link is a symbolic link met in a folder whose real location is dir;
// chain holds the real locations of the folders the walk went through to
// reach it, the root first.
type link struct {
	name  string
	dir   string
	chain []string
}

func newWalker(cfg Config, fsys fs.FS) *walker {
	if cfg.MaxBytes == 0 {
		cfg.MaxBytes = DefaultMaxBytes
	}
	skip := cfg.SkipDirs
	if skip == nil {
		skip = DefaultSkipDirs
	}
	w := &walker{cfg: cfg, fsys: fsys, skipDirs: map[string]bool{}, seen: map[string]string{}, parsers: cfg.Parsers}
	if w.parsers == nil {
		w.parsers = DefaultParsers()
	}
	for _, d := range skip {
		w.skipDirs[d] = true
	}
	return w
}

func (w *walker) load(ctx context.Context) (*Result, error) {
	if err := w.dir(ctx, ".", w.rootReal, nil); err != nil {
		return nil, err
	}
	// Following a link may find more links: the list grows as it goes.
	for i := 0; i < len(w.links); i++ {
		if err := w.follow(ctx, w.links[i]); err != nil {
			return nil, err
		}
	}
	slices.SortFunc(w.res.Documents, func(a, b document.Document) int { return cmp.Compare(a.ID, b.ID) })
	slices.SortFunc(w.res.Skipped, func(a, b Skip) int { return cmp.Compare(a.Path, b.Path) })
	slices.SortFunc(w.res.Repaired, func(a, b Repair) int { return cmp.Compare(a.Path, b.Path) })
	return &w.res, nil
}

func (w *walker) skip(name string, reason error) {
	w.res.Skipped = append(w.res.Skipped, Skip{Path: name, Reason: reason})
}

// skipFile reports a file left out, and counts it in Result.NotRead.
func (w *walker) skipFile(name string, reason error) {
	w.skip(name, reason)
	if w.res.NotRead == nil {
		w.res.NotRead = Counts{}
	}
	w.res.NotRead[extension(name)]++
}

// dir walks the folder name, whose real location is real ("" for an
// fs.FS), reached through the folders of chain. Only the root's listing
// can fail the load.
func (w *walker) dir(ctx context.Context, name, real string, chain []string) error {
	entries, err := fs.ReadDir(w.fsys, name)
	if err != nil {
		if name == "." {
			return rootError(w.path(name), err)
		}
		w.skip(name, fmt.Errorf("%w: %w", ErrUnreadable, err))
		return nil
	}
	if real != "" {
		w.seen[real] = name
		chain = append(slices.Clip(chain), real)
	}
	for _, e := range entries {
		if err := ctx.Err(); err != nil {
			return err
		}
		p := path.Join(name, e.Name())
		childReal := ""
		if real != "" {
			childReal = filepath.Join(real, e.Name())
		}
		switch t := e.Type(); {
		case t&fs.ModeSymlink != 0:
			w.links = append(w.links, link{name: p, dir: real, chain: chain})
		case t.IsDir():
			if w.admit(p, true) {
				if err := w.dir(ctx, p, childReal, chain); err != nil {
					return err
				}
			}
		default:
			if w.admit(p, false) {
				w.file(ctx, p, childReal, t, e.Info)
			}
		}
	}
	return nil
}

// admit reports whether the walk goes on with name, and reports a folder,
// or a file that is a candidate, that the configuration leaves out.
// Files that are not candidates are left out silently.
func (w *walker) admit(name string, isDir bool) bool {
	base := path.Base(name)
	if !isDir && !w.candidate(name) {
		return false
	}
	report := w.skipFile
	if isDir {
		report = w.skip
	}
	switch {
	case !w.cfg.Hidden && strings.HasPrefix(base, "."):
		report(name, fmt.Errorf("%w: hidden (Config.Hidden)", ErrLeftOut))
	case isDir && w.skipDirs[base]:
		report(name, fmt.Errorf("%w: a dependency or build folder (Config.SkipDirs)", ErrLeftOut))
	case patterns(w.cfg.Exclude).match(name):
		report(name, fmt.Errorf("%w: by Config.Exclude", ErrLeftOut))
	default:
		return true
	}
	return false
}

// candidate reports whether a file's name makes it one to load.
func (w *walker) candidate(name string) bool {
	return w.cfg.Include == nil || patterns(w.cfg.Include).match(name)
}

// follow resolves a link and walks or loads what it leads to, unless that
// is missing, outside the root, a loop or loaded already.
func (w *walker) follow(ctx context.Context, l link) error {
	info, err := fs.Stat(w.fsys, l.name)
	if err != nil {
		if w.admit(l.name, true) { // what it led to is unknown: judge it by its name alone
			w.skip(l.name, linkError(err))
		}
		return nil
	}
	isDir := info.IsDir()
	if !w.admit(l.name, isDir) {
		return nil
	}
	report := w.skipFile
	if isDir {
		report = w.skip
	}
	real := ""
	if w.real != nil {
		if real, err = w.real(l.name); err != nil {
			report(l.name, linkError(err))
			return nil
		}
		if reason := w.checkTarget(real, l, isDir); reason != nil {
			report(l.name, reason)
			return nil
		}
	} else if isDir {
		w.skip(l.name, fmt.Errorf("%w: a link to a folder of an fs.FS is not followed", ErrLeftOut))
		return nil
	}
	if isDir {
		return w.dir(ctx, l.name, real, l.chain)
	}
	w.file(ctx, l.name, real, info.Mode().Type(), func() (fs.FileInfo, error) { return info, nil })
	return nil
}

// linkError is the reason for a link that cannot be resolved.
func linkError(err error) error {
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return fmt.Errorf("%w: a dangling link: %w", ErrUnreadable, fs.ErrNotExist)
	case errors.Is(err, syscall.ELOOP):
		return fmt.Errorf("%w: a link loop: a chain of links that never ends", ErrUnreadable)
	}
	return fmt.Errorf("%w: %w", ErrUnreadable, err)
}

// checkTarget returns why the target of l, at real, is not followed; nil
// if it is.
func (w *walker) checkTarget(real string, l link, isDir bool) error {
	if !w.cfg.LinksOutside && !within(w.rootReal, real) {
		return fmt.Errorf("%w: a link whose target is outside the root (Config.LinksOutside)", ErrLeftOut)
	}
	if isDir && (within(real, l.dir) || slices.Contains(l.chain, real)) {
		return fmt.Errorf("%w: a link loop: it leads to a folder that encloses it", ErrUnreadable)
	}
	if prev, ok := w.seen[real]; ok {
		return fmt.Errorf("%w: a link to what is loaded as %s", ErrLeftOut, prev)
	}
	return nil
}

// within reports whether the location p is dir or inside it.
func within(dir, p string) bool {
	rel, err := filepath.Rel(dir, p)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) && !filepath.IsAbs(rel)
}

// file loads the regular file name, of type t, whose real location is
// real ("" for an fs.FS); info gives its size and time without opening it.
// A file no parser reads is reported before it is read.
func (w *walker) file(ctx context.Context, name, real string, t fs.FileMode, info func() (fs.FileInfo, error)) {
	if !t.IsRegular() {
		w.skipFile(name, fmt.Errorf("%w: not a regular file: %v", ErrUnreadable, t))
		return
	}
	if _, _, err := w.dispatch(name); err != nil {
		w.skipFile(name, err)
		return
	}
	st, err := info()
	if err != nil {
		w.skipFile(name, fmt.Errorf("%w: %w", ErrUnreadable, err))
		return
	}
	if st.Size() > w.cfg.MaxBytes {
		w.skipFile(name, fmt.Errorf("%w: %d bytes, the limit is %d (Config.MaxBytes)", ErrTooLarge, st.Size(), w.cfg.MaxBytes))
		return
	}
	b, err := w.read(name, st.Size())
	if err != nil {
		w.skipFile(name, err)
		return
	}
	d, rep, err := w.parse(ctx, name, b)
	if err != nil {
		w.skipFile(name, err)
		return
	}
	if real != "" {
		w.seen[real] = name
	}
	if rep.InvalidBytes > 0 || rep.Controls > 0 {
		rep.Path = name
		w.res.Repaired = append(w.res.Repaired, rep)
	}
	w.res.Documents = append(w.res.Documents, w.document(name, d, st.ModTime()))
}

// read reads a file of about size bytes, refusing it if it has grown
// past the limit since it was measured.
func (w *walker) read(name string, size int64) ([]byte, error) {
	f, err := w.fsys.Open(name)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrUnreadable, err)
	}
	defer f.Close()
	b := make([]byte, 0, size+1) // size is within MaxBytes: checked before
	for {
		n, err := f.Read(b[len(b):cap(b)])
		b = b[:len(b)+n]
		if int64(len(b)) > w.cfg.MaxBytes {
			return nil, fmt.Errorf("%w: it grew past the limit of %d bytes (Config.MaxBytes) while read", ErrTooLarge, w.cfg.MaxBytes)
		}
		if err == io.EOF {
			return b, nil
		}
		if err != nil {
			return nil, fmt.Errorf("%w: %w", ErrUnreadable, err)
		}
		if len(b) == cap(b) {
			b = slices.Grow(b, min(len(b), int(w.cfg.MaxBytes)-len(b)+1))
		}
	}
}

// document adds the loader's fields to the parsed document of a file:
// its ID and Source, and its modification time in Metadata.
func (w *walker) document(name string, d document.Document, mod time.Time) document.Document {
	d.ID, d.Source = name, name
	var meta map[string]string // nil when there is nothing to hold
	if len(d.Metadata) > 0 || !mod.IsZero() {
		meta = make(map[string]string, len(d.Metadata)+1)
	}
	for k, v := range d.Metadata {
		meta[cleanField(k)] = cleanField(v)
	}
	if !mod.IsZero() {
		meta[ModifiedKey] = mod.UTC().Format(time.RFC3339)
	}
	d.Metadata = meta
	return d
}

// path is the path of a name as the caller would spell it: for [Dir] the
// root joined with the name in the system's form, for [FS] the name.
func (w *walker) path(name string) string {
	if w.display == nil {
		return name
	}
	return w.display(name)
}
