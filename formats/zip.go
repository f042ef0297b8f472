package formats

import (
	"archive/zip"
	"bytes"
	"context"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/ragkit/ragkit/loader"
)

// An archive reads the members of an Office file within a Config's
// limits, counting the bytes as they are decompressed: the sizes an
// archive declares are not trusted.
type archive struct {
	cfg   Config
	zr    *zip.Reader
	files map[string]*zip.File
	read  int64 // bytes decompressed so far, all members
}

// openArchive opens data as a ZIP archive; what is the format's name for
// errors ("DOCX"). An OLE compound file is reported as encrypted or as
// the older binary format, both ErrFormat.
func openArchive(cfg Config, data []byte, what, old string) (*archive, error) {
	if loader.Sniff(data) == loader.ContentOLE {
		if bytes.Contains(data, utf16le("EncryptionInfo")) || bytes.Contains(data, utf16le("EncryptedPackage")) {
			return nil, fmt.Errorf("%w: encrypted: a password-protected %s (an OLE file); save it without a password to read it", loader.ErrFormat, what)
		}
		return nil, fmt.Errorf("%w: an OLE compound file, not a %s: %s is not read; save it as %s", loader.ErrFormat, what, old, strings.ToLower(what))
	}
	zr, err := zip.NewReader(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		return nil, fmt.Errorf("%w: not a %s (ZIP) archive: %v", loader.ErrFormat, what, err)
	}
	a := &archive{cfg: cfg, zr: zr, files: make(map[string]*zip.File, len(zr.File))}
	for _, f := range zr.File {
		a.files[strings.TrimPrefix(f.Name, "/")] = f
	}
	return a, nil
}

func utf16le(s string) []byte {
	b := make([]byte, 0, 2*len(s))
	for i := 0; i < len(s); i++ {
		b = append(b, s[i], 0)
	}
	return b
}

// has reports whether the archive holds a member named name.
func (a *archive) has(name string) bool { return a.files[name] != nil }

// open returns a reader of a member's decompressed bytes that fails with
// ErrTooLarge past any limit; a missing member is fs.ErrNotExist wrapped in
// ErrFormat.
func (a *archive) open(name string) (io.ReadCloser, error) {
	f := a.files[name]
	if f == nil {
		return nil, fmt.Errorf("%w: the archive has no %s", loader.ErrFormat, name)
	}
	rc, err := f.Open()
	if err != nil {
		return nil, fmt.Errorf("%w: %s: %v", loader.ErrFormat, name, err)
	}
	return &boundedReader{a: a, name: name, r: rc, compressed: int64(f.CompressedSize64)}, nil
}

type boundedReader struct {
	a          *archive
	name       string
	r          io.ReadCloser
	compressed int64
	n          int64
}

func (b *boundedReader) Read(p []byte) (int, error) {
	n, err := b.r.Read(p)
	b.n += int64(n)
	b.a.read += int64(n)
	cfg := b.a.cfg
	switch {
	case b.n > cfg.MaxMemberBytes:
		return n, fmt.Errorf("%w: %s decompresses to more than %d bytes (Config.MaxMemberBytes)", loader.ErrTooLarge, b.name, cfg.MaxMemberBytes)
	case b.a.read > cfg.MaxUnzippedBytes:
		return n, fmt.Errorf("%w: the archive decompresses to more than %d bytes (Config.MaxUnzippedBytes)", loader.ErrTooLarge, cfg.MaxUnzippedBytes)
	case b.n > ratioFloor && b.n > int64(cfg.MaxRatio)*max(b.compressed, 1):
		return n, fmt.Errorf("%w: %s grows more than %d times when decompressed (Config.MaxRatio): a zip bomb", loader.ErrTooLarge, b.name, cfg.MaxRatio)
	}
	if err != nil && !errors.Is(err, io.EOF) {
		err = fmt.Errorf("%w: %s: %v", loader.ErrFormat, b.name, err)
	}
	return n, err
}

func (b *boundedReader) Close() error { return b.r.Close() }

// An xmlReader reads the tokens of one XML member, bounding their
// nesting and stopping when ctx is done.
type xmlReader struct {
	ctx   context.Context
	d     *xml.Decoder
	depth int
	max   int
	n     int
}

func (a *archive) xml(ctx context.Context, name string) (*xmlReader, io.Closer, error) {
	rc, err := a.open(name)
	if err != nil {
		return nil, nil, err
	}
	d := xml.NewDecoder(rc)
	d.Strict = false
	// Office parts are UTF-8 or UTF-16 by their declaration; anything
	// else is read as is.
	d.CharsetReader = func(label string, input io.Reader) (io.Reader, error) { return input, nil }
	return &xmlReader{ctx: ctx, d: d, max: a.cfg.MaxDepth}, rc, nil
}

// next returns the next token, io.EOF at the end of the part.
func (x *xmlReader) next() (xml.Token, error) {
	if x.n++; x.n%4096 == 0 {
		if err := x.ctx.Err(); err != nil {
			return nil, err
		}
	}
	t, err := x.d.RawToken()
	if err != nil {
		if errors.Is(err, io.EOF) || errors.Is(err, loader.ErrTooLarge) || errors.Is(err, loader.ErrFormat) {
			return nil, err
		}
		return nil, fmt.Errorf("%w: malformed XML: %v", loader.ErrFormat, err)
	}
	switch t.(type) {
	case xml.StartElement:
		if x.depth++; x.depth > x.max {
			return nil, fmt.Errorf("%w: XML elements nested deeper than %d (Config.MaxDepth)", loader.ErrTooLarge, x.max)
		}
	case xml.EndElement:
		x.depth--
	}
	return t, nil
}

// errStop ends [archive.each] early, without an error.
var errStop = errors.New("stop")

// each calls f with each token of the XML member name, in order, until
// the member ends, f returns an error (errStop: no error) or a limit is
// reached.
func (a *archive) each(ctx context.Context, name string, f func(xml.Token) error) error {
	x, c, err := a.xml(ctx, name)
	if err != nil {
		return err
	}
	defer c.Close()
	for {
		t, err := x.next()
		if err == nil {
			err = f(t)
		}
		switch {
		case errors.Is(err, io.EOF), errors.Is(err, errStop):
			return nil
		case err != nil:
			return err
		}
	}
}

// xattr returns the value of the attribute with local name key.
func xattr(e xml.StartElement, key string) string {
	for _, a := range e.Attr {
		if a.Name.Local == key {
			return a.Value
		}
	}
	return ""
}
