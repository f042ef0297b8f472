package memory

import (
	"bufio"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"io/fs"
	"maps"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"unicode/utf8"
	"unsafe"

	"github.com/ragkit/ragkit/vectorstore"
	"github.com/ragkit/ragkit/vectorstore/internal/kernel"
)

// The file format, version 3, all integers little-endian:
//
//	header:  "RAGKITVS" | version u32 | flags u32 | dimension u32 | reserved u32 | count u64 | CRC-32C of the header u32
//	record:  ID | DocID | Index uvarint | Start uvarint | End uvarint | Text | number of metadata pairs uvarint | (key | value)... | extra | vector
//	extra:   0 (no provenance, no notes) | 1 Title | number of headings uvarint | heading... | Source | location | notes
//	location: Page | LastPage | Line | LastLine uvarint | Sheet | Row | LastRow uvarint
//	notes:   Keywords | Gap | Embed | Fingerprint | Summary | SummaryOf
//	trailer: CRC-32C of every record byte u32
//
// Strings are a uvarint length and UTF-8 bytes; metadata keys are sorted.
// A float32 vector is dimension float32s; a compact one (flag 1) is its
// scale as a float32, dimension int8 codes and (dimension+3)/4 bytes of
// 2-bit refinement codes. Records are written in order of DocID, then
// Index, then ID, so equal stores give equal files. The dimension is kept
// even when there are no records.
//
// Version 2 is the same without extra (files written before records had
// provenance and notes; they load with none). Version 1 is version 2
// without Start and End. Its writer accepted any
// Index but its reader refused one above MaxInt32; this reader takes any
// Index an int holds, so such files load now.
const (
	magic         = "RAGKITVS"
	formatVersion = 3
	headerSize    = 36
	flagCompact   = 1
	// checkEvery is how many records Save and Load handle between looks
	// at the context.
	checkEvery = 1024
)

var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// Save writes the store to w in the versioned, checksummed binary format
// described in the package documentation. Writers wait until it is done.
// It stops with ctx's error when ctx is cancelled; w then holds a partial
// copy that [Load] refuses.
func (m *Store) Save(ctx context.Context, w io.Writer) error {
	if err := m.rlock(ctx); err != nil {
		return err
	}
	defer m.mu.RUnlock()
	bw := bufio.NewWriterSize(w, 1<<16)
	if _, err := bw.Write(m.header()); err != nil {
		return err
	}
	enc := encoder{w: bw, vec: make([]byte, 4*m.dim+4)}
	done := 0
	for slot := range m.saveOrder {
		if done++; done%checkEvery == 0 {
			if err := ctx.Err(); err != nil {
				return err
			}
		}
		m.encodeRecord(&enc, int(slot))
	}
	binary.LittleEndian.PutUint32(enc.vec[:4], enc.crc)
	bw.Write(enc.vec[:4])
	if m.hasIndex() {
		m.encodeIndex(&enc, m.saveOrder)
	}
	if enc.err != nil {
		return enc.err
	}
	return bw.Flush()
}

// saveOrder yields the slots in the order Save writes them: by DocID,
// then Index, then ID.
func (m *Store) saveOrder(yield func(int32) bool) {
	for _, docID := range slices.Sorted(maps.Keys(m.docs)) {
		for _, slot := range m.docs[docID] {
			if !yield(slot) {
				return
			}
		}
	}
}

func (m *Store) header() []byte {
	h := make([]byte, headerSize)
	copy(h, magic)
	binary.LittleEndian.PutUint32(h[8:], formatVersion)
	var flags uint32
	if m.compact {
		flags |= flagCompact
	}
	if m.hasIndex() {
		flags |= flagIndex
	}
	binary.LittleEndian.PutUint32(h[12:], flags)
	binary.LittleEndian.PutUint32(h[16:], uint32(m.dim))
	binary.LittleEndian.PutUint64(h[24:], uint64(len(m.st.recs)))
	binary.LittleEndian.PutUint32(h[32:], crc32.Checksum(h[:32], castagnoli))
	return h
}

// encoder writes record bytes and keeps their checksum; the first write
// error sticks.
type encoder struct {
	w   *bufio.Writer
	crc uint32
	err error
	num [binary.MaxVarintLen64]byte
	vec []byte
}

func (e *encoder) write(p []byte) {
	if e.err != nil {
		return
	}
	e.crc = crc32.Update(e.crc, castagnoli, p)
	_, e.err = e.w.Write(p)
}

func (e *encoder) uvarint(x uint64) { e.write(e.num[:binary.PutUvarint(e.num[:], x)]) }

func (e *encoder) string(s string) {
	e.uvarint(uint64(len(s)))
	e.write(unsafe.Slice(unsafe.StringData(s), len(s)))
}

func (m *Store) encodeRecord(e *encoder, slot int) {
	r := &m.st.recs[slot]
	e.string(r.ID)
	e.string(r.DocID)
	e.uvarint(uint64(r.Index))
	e.uvarint(uint64(r.Start))
	e.uvarint(uint64(r.End))
	e.string(r.Text)
	e.uvarint(uint64(len(r.Metadata)))
	for _, k := range slices.Sorted(maps.Keys(r.Metadata)) {
		e.string(k)
		e.string(r.Metadata[k])
	}
	e.extra(r.extra)
	d := m.dim
	if !m.compact {
		putFloats(e.vec, m.st.vecs.row(slot))
		e.write(e.vec[:4*d])
		return
	}
	binary.LittleEndian.PutUint32(e.vec, math.Float32bits(m.st.scales[slot]))
	e.write(e.vec[:4])
	e.write(unsafe.Slice((*byte)(unsafe.Pointer(unsafe.SliceData(m.st.codes.row(slot)))), d))
	e.write(m.st.resid.row(slot))
}

// extra writes a record's provenance and notes.
func (e *encoder) extra(x *extra) {
	if x == nil {
		e.uvarint(0)
		return
	}
	e.uvarint(1)
	e.string(x.title)
	e.uvarint(uint64(len(x.section)))
	for _, h := range x.section {
		e.string(h)
	}
	e.string(x.source)
	l := x.location
	for _, n := range [...]int{l.Page, l.LastPage, l.Line, l.LastLine} {
		e.uvarint(uint64(n))
	}
	e.string(l.Sheet)
	e.uvarint(uint64(l.Row))
	e.uvarint(uint64(l.LastRow))
	n := x.notes
	for _, s := range [...]string{n.Keywords, n.Gap, n.Embed, n.Fingerprint, n.Summary, n.SummaryOf} {
		e.string(s)
	}
}

func putFloats(dst []byte, v []float32) {
	for i, x := range v {
		binary.LittleEndian.PutUint32(dst[4*i:], math.Float32bits(x))
	}
}

// SaveFile writes the store to the file at path atomically: it writes a
// temporary file in the same directory, syncs it to disk, renames it over
// path and syncs the directory, so a crash at any point leaves either the
// previous file or the new one, never a mix. A new file gets mode 0600; an
// existing file keeps its mode. If path is a symbolic link, the file it
// points to is replaced (created, if the link dangles) and the link is
// kept. A path that is empty or names a directory gives an error wrapping
// [ErrInvalidArgument].
//
// The temporary file is named "." + the file's name + ".tmp-" and digits.
// A process killed during SaveFile leaves it behind; the next SaveFile of
// the same path removes such files first, except those that a SaveFile
// still running (in any process) holds open. That is told by a lock on
// Linux, macOS and the BSDs and by the file system on Windows; elsewhere
// orphans are left for the caller to remove.
func (m *Store) SaveFile(ctx context.Context, path string) (err error) {
	path, err = resolveLinks(path)
	if err != nil {
		return err
	}
	dir, base := filepath.Split(path)
	if dir == "" {
		dir = "."
	}
	mode := os.FileMode(0o600)
	if fi, err := os.Stat(path); err == nil {
		if fi.IsDir() {
			return fmt.Errorf("%w: SaveFile path %q is a directory", vectorstore.ErrInvalidArgument, path)
		}
		mode = fi.Mode().Perm()
	}
	removeOrphans(dir, base)
	f, err := createTemp(dir, base)
	if err != nil {
		return err
	}
	defer func() {
		if err != nil {
			f.Close()
			os.Remove(f.Name())
		}
	}()
	if err := m.Save(ctx, f); err != nil {
		return err
	}
	if saveFileHook != nil {
		saveFileHook(f.Name())
	}
	if err := f.Chmod(mode); err != nil {
		return err
	}
	if err := f.Sync(); err != nil {
		return err
	}
	if err := f.Close(); err != nil {
		return err
	}
	if err := os.Rename(f.Name(), path); err != nil {
		return err
	}
	return syncDir(dir)
}

// maxLinks is how many symbolic links resolveLinks follows before it gives
// up on a loop, as Linux does.
const maxLinks = 40

// resolveLinks returns the file that path leads to through symbolic links,
// whether or not that file exists, so that SaveFile replaces the target
// rather than the link.
func resolveLinks(path string) (string, error) {
	if path == "" || strings.HasSuffix(path, string(filepath.Separator)) {
		return "", fmt.Errorf("%w: SaveFile path %q names no file", vectorstore.ErrInvalidArgument, path)
	}
	for range maxLinks {
		fi, err := os.Lstat(path)
		if err != nil || fi.Mode()&fs.ModeSymlink == 0 {
			return path, nil // not a link: the file itself, or one to create
		}
		target, err := os.Readlink(path)
		if err != nil {
			return "", err
		}
		if !filepath.IsAbs(target) {
			target = filepath.Join(filepath.Dir(path), target)
		}
		path = target
	}
	return "", &fs.PathError{Op: "save", Path: path, Err: syscall.ELOOP}
}

// saveFileHook, when set by a test, runs after the temporary file is
// written and before it is synced and renamed.
var saveFileHook func(tmp string)

// syncDir makes a rename in dir durable. Some systems cannot sync a
// directory; that is not an error there.
func syncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return err
	}
	defer d.Close()
	if err := d.Sync(); err != nil && !errors.Is(err, syscall.EINVAL) && !errors.Is(err, syscall.ENOTSUP) {
		return err
	}
	return nil
}

// LoadFile reads a store written by [Store.SaveFile]; see [Load].
func LoadFile(ctx context.Context, path string, cfg Config) (*Store, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	m, err := Load(ctx, f, cfg)
	if err != nil {
		return nil, fmt.Errorf("%w: file %s", err, path)
	}
	return m, nil
}

// Load reads a store written by [Store.Save] from r into a new store
// configured by cfg. The file decides the dimension (cfg.Dimension, if set,
// must agree) and whether the store is compact; cfg.Compact set quantizes
// a float32 file as it loads. Load reads up to the end of the store's data
// and no further. Truncated or corrupted data gives an error wrapping
// [ErrCorrupt] (or [ErrVersion] for a format this package does not know),
// and no store.
func Load(ctx context.Context, r io.Reader, cfg Config) (*Store, error) {
	m, err := New(cfg)
	if err != nil {
		return nil, err
	}
	d := decoder{r: bufio.NewReaderSize(r, 1<<16)}
	count, err := d.header(m, cfg)
	if err != nil {
		return nil, err
	}
	b, err := d.records(ctx, m, count)
	if err != nil {
		return nil, err
	}
	if d.index {
		saved, err := d.readIndex(len(b.st.recs), m.dim)
		if err != nil {
			return nil, err
		}
		if m.ivf != nil {
			b.saved = saved
		}
	}
	m.index(b)
	if err := m.commit(ctx, change{put: b}); err != nil {
		return nil, err
	}
	if m.Len() != len(m.byID) {
		return nil, fmt.Errorf("%w: duplicate ID %q", ErrCorrupt, m.duplicateID())
	}
	return m, nil
}

// duplicateID returns an ID that two slots share, in a freshly loaded store
// that has one.
func (m *Store) duplicateID() string {
	for i, r := range m.st.recs {
		if m.byID[r.ID] != int32(i) {
			return r.ID
		}
	}
	return ""
}

// decoder reads record bytes, keeping their checksum and offset.
type decoder struct {
	r     *bufio.Reader
	crc   uint32
	off   int64
	one   [1]byte
	fileC bool   // the file holds compact vectors
	index bool   // the file holds an index section
	ver   uint32 // the file's format version
	prev  *extra // the extra of the record read last, whose strings the next may share
}

func (d *decoder) corrupt(format string, args ...any) error {
	return fmt.Errorf("%w: %s at byte %d", ErrCorrupt, fmt.Sprintf(format, args...), d.off)
}

func (d *decoder) read(p []byte) error {
	n, err := io.ReadFull(d.r, p)
	d.crc = crc32.Update(d.crc, castagnoli, p[:n])
	d.off += int64(n)
	if err != nil {
		if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
			return d.corrupt("data ends early")
		}
		return err
	}
	return nil
}

func (d *decoder) ReadByte() (byte, error) {
	if err := d.read(d.one[:]); err != nil {
		return 0, err
	}
	return d.one[0], nil
}

func (d *decoder) uvarint(limit uint64, what string) (uint64, error) {
	x, err := binary.ReadUvarint(d)
	if err != nil {
		if errors.Is(err, ErrCorrupt) {
			return 0, err
		}
		return 0, d.corrupt("bad %s", what)
	}
	if x > limit {
		return 0, d.corrupt("%s %d is out of range", what, x)
	}
	return x, nil
}

// int reads a non-negative int.
func (d *decoder) int(what string) (int, error) {
	x, err := d.uvarint(math.MaxInt, what)
	return int(x), err
}

// string reads a length-prefixed string. Long strings are read in pieces
// so that a corrupt length cannot make Load allocate more than the input
// holds.
func (d *decoder) string(what string) (string, error) {
	n, err := d.uvarint(math.MaxInt, what+" length")
	if err != nil {
		return "", err
	}
	const piece = 1 << 16
	b := make([]byte, 0, min(n, piece))
	for uint64(len(b)) < n {
		k := min(n-uint64(len(b)), piece)
		b = slices.Grow(b, int(k))
		if err := d.read(b[len(b) : len(b)+int(k)]); err != nil {
			return "", err
		}
		b = b[:len(b)+int(k)]
	}
	if !utf8.Valid(b) {
		return "", d.corrupt("%s is not valid UTF-8", what)
	}
	return unsafe.String(unsafe.SliceData(b), len(b)), nil
}

func (d *decoder) header(m *Store, cfg Config) (uint64, error) {
	h := make([]byte, headerSize)
	if err := d.read(h); err != nil {
		return 0, err
	}
	if string(h[:8]) != magic {
		return 0, fmt.Errorf("%w: not a ragkit vector store (bad magic)", ErrCorrupt)
	}
	if crc32.Checksum(h[:32], castagnoli) != binary.LittleEndian.Uint32(h[32:]) {
		return 0, fmt.Errorf("%w: header checksum mismatch", ErrCorrupt)
	}
	d.ver = binary.LittleEndian.Uint32(h[8:])
	if d.ver < 1 || d.ver > formatVersion {
		return 0, fmt.Errorf("%w: %d (this package reads 1 to %d)", ErrVersion, d.ver, formatVersion)
	}
	flags := binary.LittleEndian.Uint32(h[12:])
	dim := int(binary.LittleEndian.Uint32(h[16:]))
	count := binary.LittleEndian.Uint64(h[24:])
	switch {
	case flags&^(flagCompact|flagIndex) != 0:
		return 0, fmt.Errorf("%w: unknown flags %#x", ErrCorrupt, flags)
	case dim > vectorstore.MaxDimension || dim == 0 && count > 0:
		return 0, fmt.Errorf("%w: dimension %d", ErrCorrupt, dim)
	case cfg.Dimension != 0 && dim != 0 && dim != cfg.Dimension:
		return 0, fmt.Errorf("%w: file has %d, configured %d", vectorstore.ErrDimensionMismatch, dim, cfg.Dimension)
	}
	d.fileC = flags&flagCompact != 0
	d.index = flags&flagIndex != 0
	if d.fileC {
		m.compact, m.st.compact = true, true
	}
	if dim != 0 {
		m.dim = dim
	}
	d.crc, d.off = 0, headerSize
	return count, nil
}

// records reads count records into a batch for the store m.
func (d *decoder) records(ctx context.Context, m *Store, count uint64) (*batch, error) {
	// Capacity is reserved as records arrive, not from count, which a
	// corrupt header could inflate.
	b := &batch{dim: m.dim, st: slots{compact: m.compact}}
	buf := make([]byte, 4*m.dim+4)
	vec := make([]float32, m.dim)
	for i := uint64(0); i < count; i++ {
		if i%checkEvery == 0 {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
		}
		r, err := d.record()
		if err != nil {
			return nil, err
		}
		if err := d.vector(&b.st, r, buf, vec); err != nil {
			return nil, err
		}
	}
	sum := d.crc
	if err := d.read(buf[:4]); err != nil {
		return nil, err
	}
	if binary.LittleEndian.Uint32(buf[:4]) != sum {
		return nil, fmt.Errorf("%w: checksum mismatch", ErrCorrupt)
	}
	return b, nil
}

func (d *decoder) record() (unit, error) {
	var r unit
	var err error
	if r.ID, err = d.string("ID"); err != nil {
		return r, err
	}
	if r.DocID, err = d.string("DocID"); err != nil {
		return r, err
	}
	if r.ID == "" || r.DocID == "" {
		return r, d.corrupt("empty ID or DocID")
	}
	if r.Index, err = d.int("Index"); err != nil {
		return r, err
	}
	if d.ver >= 2 {
		if r.Start, err = d.int("Start"); err != nil {
			return r, err
		}
		if r.End, err = d.int("End"); err != nil {
			return r, err
		}
		if r.End < r.Start {
			return r, d.corrupt("End %d is before Start %d", r.End, r.Start)
		}
	}
	if r.Text, err = d.string("Text"); err != nil {
		return r, err
	}
	n, err := d.uvarint(math.MaxInt, "metadata count")
	if err != nil {
		return r, err
	}
	if n > 0 {
		r.Metadata = make(map[string]string, min(n, 64))
	}
	for range n {
		k, err := d.string("metadata key")
		if err != nil {
			return r, err
		}
		if r.Metadata[k], err = d.string("metadata value"); err != nil {
			return r, err
		}
	}
	if d.ver >= 3 {
		r.extra, err = d.extra()
	} else {
		d.upgrade(&r)
	}
	return r, err
}

// The metadata keys under which the library kept a record's provenance
// and its own bookkeeping before format version 3 gave them fields of
// their own. They are read here, and only here, so that a store saved
// then loads as ingest writes records now: its titles, sections and
// sources cited, its headers found by keyword search, its vectors and
// summaries reused by a re-index, and its Metadata the caller's alone.
const (
	legacyTitle       = "document.title"
	legacySection     = "document.section" // headings joined by "\n"
	legacySource      = "loader.path"
	legacyKeywords    = "vectorstore.keywords"
	legacyGap         = "window.gap"
	legacyEmbed       = "ingest.embed"
	legacyFingerprint = "ingest.doc"
	legacySummary     = "ingest.summary"
	legacySummaryOf   = "ingest.summary.of"
)

// upgrade moves the legacy keys of a record of a version 1 or 2 file out
// of its Metadata into its provenance and notes.
func (d *decoder) upgrade(r *unit) {
	take := func(key string) string {
		v := r.Metadata[key]
		delete(r.Metadata, key)
		return v
	}
	x := &extra{
		title:  take(legacyTitle),
		source: take(legacySource),
		notes: vectorstore.Notes{Keywords: take(legacyKeywords), Gap: take(legacyGap), Embed: take(legacyEmbed),
			Fingerprint: take(legacyFingerprint), Summary: take(legacySummary), SummaryOf: take(legacySummaryOf)},
	}
	if sec := take(legacySection); sec != "" {
		// A heading is never empty now; an old path with one keeps the rest.
		x.section = slices.DeleteFunc(strings.Split(sec, "\n"), func(h string) bool { return h == "" })
	}
	if len(r.Metadata) == 0 {
		r.Metadata = nil
	}
	if x.title != "" || x.source != "" || len(x.section) > 0 || x.notes != (vectorstore.Notes{}) {
		r.extra = d.shared(x)
	}
}

// extra reads a record's provenance and notes. The strings a document's
// records share (title, source, section path, fingerprint, summary) are
// taken from the record before where they are equal, so that a loaded
// store holds them once per document, as a store written by ingest does.
func (d *decoder) extra() (*extra, error) {
	has, err := d.uvarint(1, "extra flag")
	if err != nil || has == 0 {
		return nil, err
	}
	x := &extra{}
	if x.title, err = d.string("Title"); err != nil {
		return nil, err
	}
	n, err := d.uvarint(math.MaxInt, "number of headings")
	if err != nil {
		return nil, err
	}
	for range n {
		h, err := d.string("heading")
		if err != nil {
			return nil, err
		}
		if h == "" {
			return nil, d.corrupt("empty heading")
		}
		x.section = append(x.section, h)
	}
	if x.source, err = d.string("Source"); err != nil {
		return nil, err
	}
	l := &x.location
	for _, p := range [...]*int{&l.Page, &l.LastPage, &l.Line, &l.LastLine} {
		if *p, err = d.int("location"); err != nil {
			return nil, err
		}
	}
	if l.Sheet, err = d.string("Sheet"); err != nil {
		return nil, err
	}
	for _, p := range [...]*int{&l.Row, &l.LastRow} {
		if *p, err = d.int("location"); err != nil {
			return nil, err
		}
	}
	nt := &x.notes
	for _, p := range [...]*string{&nt.Keywords, &nt.Gap, &nt.Embed, &nt.Fingerprint, &nt.Summary, &nt.SummaryOf} {
		if *p, err = d.string("notes"); err != nil {
			return nil, err
		}
	}
	return d.shared(x), nil
}

// shared returns x with the strings it shares with the record read before
// pointing at that record's, and keeps it for the next record.
func (d *decoder) shared(x *extra) *extra {
	if prev := d.prev; prev != nil {
		share(&x.title, prev.title)
		share(&x.source, prev.source)
		share(&x.notes.Fingerprint, prev.notes.Fingerprint)
		share(&x.notes.Summary, prev.notes.Summary)
		share(&x.notes.SummaryOf, prev.notes.SummaryOf)
		if slices.Equal(x.section, prev.section) {
			x.section = prev.section
		}
	}
	d.prev = x
	return x
}

// share points *s at prev's bytes where the two are equal.
func share(s *string, prev string) {
	if *s == prev {
		*s = prev
	}
}

// vector reads the vector of r and appends both to st, quantizing the
// vector if st is compact and the file is not.
func (d *decoder) vector(st *slots, r unit, buf []byte, vec []float32) error {
	dim := len(vec)
	if !d.fileC {
		if err := d.read(buf[:4*dim]); err != nil {
			return err
		}
		var ss float64
		for i := range vec {
			vec[i] = math.Float32frombits(binary.LittleEndian.Uint32(buf[4*i:]))
			ss += float64(vec[i]) * float64(vec[i])
		}
		if !(math.Abs(ss-1) <= 1e-3) {
			return d.corrupt("vector is not unit length")
		}
		st.appendRecord(r, vec)
		return nil
	}
	if err := d.read(buf[:4]); err != nil {
		return err
	}
	scale := math.Float32frombits(binary.LittleEndian.Uint32(buf[:4]))
	if !(scale > 0) || math.IsInf(float64(scale), 0) {
		return d.corrupt("bad scale")
	}
	rb := kernel.ResidualBytes(dim)
	if err := d.read(buf[:dim+rb]); err != nil {
		return err
	}
	codes := unsafe.Slice((*int8)(unsafe.Pointer(&buf[0])), dim)
	if slices.Contains(codes, -128) {
		return d.corrupt("int8 code out of range")
	}
	st.appendCodes(r, codes, buf[dim:dim+rb], scale)
	return nil
}
