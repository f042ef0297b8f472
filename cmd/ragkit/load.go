package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing/fstest"

	"github.com/ragkit/ragkit/document"
	"github.com/ragkit/ragkit/formats"
	"github.com/ragkit/ragkit/loader"
)

// maxFileFlag registers -max-file-mib, the largest file read, and returns
// a function giving it in bytes.
func maxFileFlag(fs *flag.FlagSet) func() int64 {
	mib := fs.Int("max-file-mib", 10, "the largest file read, in MiB; larger ones are reported and skipped before any work")
	return func() int64 { return int64(max(*mib, 1)) << 20 }
}

// loaderConfig is the configuration of every load: every format's parser,
// PDF's included.
func loaderConfig(maxBytes int64) loader.Config {
	parsers := formats.Parsers()
	parsers[".pdf"] = &pdfs
	return loader.Config{Parsers: parsers, MaxBytes: maxBytes}
}

// loadDir loads every file under dir that a parser reads, in path order,
// reporting on stderr every file left out with its reason, every file
// whose text was cleaned, and a count of the files not read by extension.
func loadDir(ctx context.Context, dir string, maxBytes int64, stderr io.Writer) ([]document.Document, error) {
	res, err := loader.Dir(ctx, dir, loaderConfig(maxBytes))
	if err != nil {
		return nil, err
	}
	report(stderr, res, "")
	if len(res.Documents) == 0 {
		return nil, fmt.Errorf("no file with text under %s", dir)
	}
	return res.Documents, nil
}

// loadFiles loads the files named (a folder stands for the files under
// it), each by the parser of its extension, reporting as loadDir does.
// A document's ID and Source are the name as given.
func loadFiles(ctx context.Context, names []string, maxBytes int64, stderr io.Writer) ([]document.Document, error) {
	var docs []document.Document
	notRead := loader.Counts{}
	for _, name := range names {
		st, err := os.Stat(name)
		switch {
		case err != nil:
			fmt.Fprintf(stderr, "skipping %s: %v\n", name, unwrapPath(err))
			notRead[ext(name)]++
			continue
		case st.IsDir():
			d, err := loadDir(ctx, name, maxBytes, stderr)
			if err != nil {
				return nil, err
			}
			docs = append(docs, d...)
			continue
		case !st.Mode().IsRegular():
			fmt.Fprintf(stderr, "skipping %s: not a regular file\n", name)
			notRead[ext(name)]++
			continue
		case st.Size() > maxBytes:
			fmt.Fprintf(stderr, "skipping %s: %d bytes, over -max-file-mib %d\n", name, st.Size(), maxBytes>>20)
			notRead[ext(name)]++
			continue
		}
		data, err := os.ReadFile(name)
		if err != nil {
			fmt.Fprintf(stderr, "skipping %s: %v\n", name, unwrapPath(err))
			notRead[ext(name)]++
			continue
		}
		// The loader reads the one file from a file system of its own,
		// so that every file is read by the same dispatch as a folder's.
		base := filepath.Base(name)
		cfg := loaderConfig(maxBytes)
		cfg.Hidden = true // a file named is read, hidden or not
		res, err := loader.FS(ctx, fstest.MapFS{base: {Data: data, ModTime: st.ModTime(), Mode: 0o644}}, cfg)
		if err != nil {
			return nil, err
		}
		id := filepath.ToSlash(name)
		for i := range res.Skipped {
			res.Skipped[i].Path = id
		}
		report(stderr, res, id)
		for k, n := range res.NotRead {
			notRead[k] += n
		}
		for _, d := range res.Documents {
			d.ID, d.Source = id, id
			docs = append(docs, d)
		}
	}
	if len(notRead) > 0 {
		fmt.Fprintf(stderr, "not read: %s\n", notRead)
	}
	if len(docs) == 0 {
		return nil, errors.New("no file with text read")
	}
	return docs, nil
}

func unwrapPath(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

// ext is a name's extension as loader.Counts keys it.
func ext(name string) string { return strings.ToLower(filepath.Ext(name)) }

// report writes a load's report on stderr; id, if not empty, names the
// one file read and the count of files not read is left to the caller.
func report(stderr io.Writer, res *loader.Result, id string) {
	for _, s := range res.Skipped {
		fmt.Fprintf(stderr, "skipping %s: %s\n", s.Path, strings.ReplaceAll(s.Reason.Error(), "loader: ", ""))
	}
	for _, r := range res.Repaired {
		path := r.Path
		if id != "" {
			path = id
		}
		var what []string
		if r.InvalidBytes > 0 {
			what = append(what, fmt.Sprintf("replaced %d bytes of invalid UTF-8 with U+FFFD", r.InvalidBytes))
		}
		if r.Controls > 0 {
			what = append(what, fmt.Sprintf("removed %d control characters", r.Controls))
		}
		fmt.Fprintf(stderr, "cleaned %s: %s\n", path, strings.Join(what, ", "))
	}
	if id == "" && len(res.NotRead) > 0 {
		fmt.Fprintf(stderr, "not read: %s\n", res.NotRead)
	}
}
