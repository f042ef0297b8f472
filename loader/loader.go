package loader

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/ragkit/ragkit/document"
)

// DefaultMaxBytes is the largest file loaded when Config.MaxBytes is zero.
const DefaultMaxBytes = 10 << 20

// DefaultSkipDirs are the folders not walked when Config.SkipDirs is nil:
// the dependency, build and cache folders of common toolchains, whose
// files are not the caller's documents.
var DefaultSkipDirs = []string{
	"node_modules", "bower_components", "vendor", "target", "dist", "build",
	"__pycache__", "venv", "site-packages",
}

// ModifiedKey is the one Metadata key the loader sets: the file's
// modification time in UTC, in RFC 3339 form ("2026-03-01T09:30:00Z"),
// left out when the file system gives none. It is a label of the
// caller's, not bookkeeping of the library's: it is copied to every
// record like the rest of a document's Metadata, so that a filter can
// select by it (vectorstore.TimeBetween(loader.ModifiedKey, since,
// time.Time{})). A document's path is its Source, not a metadata key.
const ModifiedKey = "loader.modified"

// Errors of a load. ErrConfig and ErrRoot fail it; the others are the
// reasons of a [Skip].
var (
	// ErrConfig reports a Config that cannot be used.
	ErrConfig = errors.New("loader: invalid configuration")
	// ErrRoot reports a root that does not exist, cannot be read or is
	// not a folder.
	ErrRoot = errors.New("loader: cannot load the root folder")

	// ErrLeftOut: a file or folder that the Config's rules leave out,
	// the message says which: a hidden name (unless Config.Hidden is
	// set), Config.Exclude or Config.SkipDirs, a link whose target is
	// outside the root (unless Config.LinksOutside is set) or is a
	// folder of an fs.FS, a link to what is loaded under another path
	// already. A program lists these quietly, if at all.
	ErrLeftOut = errors.New("loader: left out")
	// ErrTooLarge: a file larger than Config.MaxBytes, not read.
	ErrTooLarge = errors.New("loader: file too large")
	// ErrInvalidUTF8: a file that is not valid UTF-8, with
	// Config.InvalidUTF8 set to Refuse.
	ErrInvalidUTF8 = errors.New("loader: not valid UTF-8")
	// ErrEmpty: a file with no text but white space (after cleaning).
	ErrEmpty = errors.New("loader: no text")
	// ErrUnsupported: a file that no parser reads, the message says why:
	// no parser for its extension ("no parser for .pdf: see
	// github.com/ragkit/ragkit/formats" where that module has one), or
	// content that its extension's parser does not read ("binary", "pdf
	// content, which the parser for .txt does not read"). A program
	// lists these quietly, or counts them ([Result.NotRead]).
	ErrUnsupported = errors.New("loader: not read")
	// ErrUnreadable: a file or folder whose text the file system does not
	// give, the message says why: it could not be listed, opened or read
	// (the Reason also wraps the system's error); it is a device, named
	// pipe or socket; it is a link whose target does not exist (the
	// Reason also wraps fs.ErrNotExist), or a link loop (a link to a
	// folder that encloses it, or a chain of links that never ends).
	ErrUnreadable = errors.New("loader: cannot read")
)

// Policy says what to do with a file that is not valid UTF-8.
type Policy int

const (
	// Replace replaces each byte that is not part of a valid UTF-8
	// sequence with U+FFFD and loads the file; it is listed in
	// [Result.Repaired].
	Replace Policy = iota
	// Refuse skips the file, with a Reason wrapping [ErrInvalidUTF8].
	Refuse
)

var policyNames = [...]string{Replace: "Replace", Refuse: "Refuse"}

// String returns the constant's name, such as "Replace".
func (p Policy) String() string {
	if p < 0 || int(p) >= len(policyNames) {
		return "Policy(" + strconv.Itoa(int(p)) + ")"
	}
	return policyNames[p]
}

// Config says which files to load and how. The zero value loads every
// file of up to 10 MiB outside hidden and dependency folders that one of
// [DefaultParsers] reads, repairing invalid UTF-8, and reports every
// other file.
type Config struct {
	// Include, if not nil, holds the patterns (see [Match]) of the files
	// to load: a file is a candidate when it matches one of them. Nil
	// means every file. Files that are not candidates are not reported;
	// candidates that no parser reads are, with [ErrUnsupported].
	Include []string
	// Parsers maps an extension, lower case with its dot (".csv"; "" for
	// names without one), to the parser of its files; a file's extension
	// is compared in lower case. A gzipped file ("ls.1.gz") whose name
	// without ".gz" has a parser is decompressed, within MaxBytes, and
	// parsed by that name ("ls.1"), unless ".gz" has a parser of its
	// own. Nil means [DefaultParsers]; an empty, non-nil map reads
	// nothing. A nil Parser is an error.
	Parsers map[string]Parser
	// Exclude holds patterns of files and folders to leave out, even if
	// included; an excluded folder is not walked. Each is reported with
	// [ErrLeftOut].
	Exclude []string
	// SkipDirs are folder names never walked, reported with
	// [ErrLeftOut]. Nil means [DefaultSkipDirs]; an empty, non-nil slice
	// walks them all.
	SkipDirs []string
	// Hidden loads hidden files and walks hidden folders (names that
	// start with a dot, such as .git); by default they are reported with
	// [ErrLeftOut] (files only when they are candidates).
	Hidden bool
	// LinksOutside lets [Dir] follow links whose target is outside the
	// root; by default they are reported with [ErrLeftOut]. Loops and
	// duplicates are still caught.
	LinksOutside bool
	// MaxBytes is the largest file loaded, checked from the file's size
	// before it is read and again while reading, and the most that a
	// gzipped file may decompress to. Zero means
	// [DefaultMaxBytes]; negative is an error.
	MaxBytes int64
	// InvalidUTF8 says what to do with a file that is not valid UTF-8:
	// [Replace] (the default) or [Refuse].
	InvalidUTF8 Policy
}

// A Result is what a load found.
type Result struct {
	// Documents are the files loaded, sorted by ID.
	Documents []document.Document
	// Skipped lists every file and folder left out, and why, sorted by
	// path. A folder left out is one entry; what it holds is not listed.
	Skipped []Skip
	// Repaired lists the loaded documents whose text the cleaning
	// changed, sorted by path.
	Repaired []Repair
	// NotRead counts the files of Skipped (not the folders) by
	// extension; nil when every candidate was loaded. Its String method
	// prints it as a one-line summary.
	NotRead Counts
}

// A Skip is a file or folder left out of a load.
type Skip struct {
	// Path is its path relative to the root, with forward slashes.
	Path string
	// Reason says why; it wraps one of the package's sentinel errors.
	Reason error
}

// String returns the path and the reason, as "path: reason".
func (s Skip) String() string { return s.Path + ": " + s.Reason.Error() }

// A Repair reports a loaded document whose text differs from its file.
type Repair struct {
	// Path is the document's ID.
	Path string
	// InvalidBytes is the number of bytes that were not valid UTF-8,
	// each replaced with U+FFFD.
	InvalidBytes int
	// Controls is the number of control characters removed (and the
	// byte-order mark, if any).
	Controls int
}

// Dir loads the files under the folder root (see the package
// documentation for which files and how). The error is nil unless root
// cannot be loaded ([ErrRoot]), cfg is invalid ([ErrConfig]) or ctx is
// done.
func Dir(ctx context.Context, root string, cfg Config) (*Result, error) {
	if err := cfg.check(); err != nil {
		return nil, err
	}
	info, err := os.Stat(root)
	if err != nil {
		return nil, rootError(root, err)
	}
	if !info.IsDir() {
		return nil, fmt.Errorf("%w: %s is not a folder", ErrRoot, root)
	}
	real, err := filepath.EvalSymlinks(root)
	if err == nil {
		real, err = filepath.Abs(real)
	}
	if err != nil {
		return nil, rootError(root, err)
	}
	w := newWalker(cfg, os.DirFS(root))
	w.real = func(name string) (string, error) {
		return filepath.EvalSymlinks(filepath.Join(root, filepath.FromSlash(name)))
	}
	w.display = func(name string) string { return filepath.Join(root, filepath.FromSlash(name)) }
	w.rootReal = real
	return w.load(ctx)
}

// FS loads the files of fsys, from its root "." (see the package
// documentation for which files and how). The error is nil unless the
// root cannot be read ([ErrRoot]), cfg is invalid ([ErrConfig]) or ctx is
// done.
func FS(ctx context.Context, fsys fs.FS, cfg Config) (*Result, error) {
	if err := cfg.check(); err != nil {
		return nil, err
	}
	if fsys == nil {
		return nil, fmt.Errorf("%w: the fs.FS is nil", ErrRoot)
	}
	info, err := fs.Stat(fsys, ".")
	if err != nil {
		return nil, rootError(".", err)
	}
	if !info.IsDir() {
		return nil, fmt.Errorf("%w: the root of the fs.FS is not a folder", ErrRoot)
	}
	return newWalker(cfg, fsys).load(ctx)
}

// rootError names the root and keeps the system's reason (which
// errors.Is finds as fs.ErrNotExist or fs.ErrPermission) without
// repeating the path an fs.PathError already holds.
func rootError(root string, err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		err = pe.Err
	}
	return fmt.Errorf("%w: %s: %w", ErrRoot, root, err)
}

func (cfg Config) check() error {
	if cfg.MaxBytes < 0 {
		return fmt.Errorf("%w: MaxBytes is %d: must not be negative", ErrConfig, cfg.MaxBytes)
	}
	if cfg.InvalidUTF8 < 0 || int(cfg.InvalidUTF8) >= len(policyNames) {
		return fmt.Errorf("%w: InvalidUTF8 is %v: must be Replace or Refuse", ErrConfig, cfg.InvalidUTF8)
	}
	for ext, p := range cfg.Parsers {
		if p == nil {
			return fmt.Errorf("%w: Parsers[%q] is nil", ErrConfig, ext)
		}
		if ext != "" && (ext[0] != '.' || ext != strings.ToLower(ext) || strings.ContainsAny(ext[1:], "./")) {
			return fmt.Errorf("%w: Parsers has the key %q: must be an extension in lower case, such as \".csv\", or \"\"", ErrConfig, ext)
		}
	}
	for _, list := range []struct {
		name     string
		patterns []string
	}{{"Include", cfg.Include}, {"Exclude", cfg.Exclude}} {
		for i, p := range list.patterns {
			if _, err := Match(p, ""); err != nil {
				return fmt.Errorf("%w: %s[%d] is %q: %w", ErrConfig, list.name, i, p, err)
			}
		}
	}
	return nil
}
