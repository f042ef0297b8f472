package formats

import (
	"errors"
	"fmt"
)

// ErrConfig reports a [Config] that cannot be used.
var ErrConfig = errors.New("formats: invalid configuration")

// Config bounds what one file can make a parser of this package do. Every
// zero value means the default given with the field; a negative value is
// refused. A file over a limit is an error wrapping [loader.ErrTooLarge],
// which the loader reports as the file's reason for being skipped.
type Config struct {
	// MaxDepth is the deepest nesting of elements read in an XML part of
	// a DOCX or XLSX file, and in an HTML page. 0: 512. An HTML page is
	// also refused by its parser (golang.org/x/net/html) when more than
	// 512 of its elements are open at once, whatever MaxDepth is.
	MaxDepth int
	// MaxUnzippedBytes is the most bytes read out of one archive (a DOCX
	// or XLSX file), all the members read added up, counted as they are
	// decompressed rather than as the archive declares. 0: 256 MiB.
	MaxUnzippedBytes int64
	// MaxMemberBytes is the most bytes read out of one member of an
	// archive. 0: 64 MiB.
	MaxMemberBytes int64
	// MaxRatio is the most a member larger than 1 MiB may grow when
	// decompressed, as a multiple of its compressed size: a zip bomb
	// grows by thousands, XML by tens. 0: 200.
	MaxRatio int
	// MaxCells is the most cells of a spreadsheet read, all sheets added
	// up, empty cells included where a row skips columns. 0: 1,000,000.
	MaxCells int
	// MaxTextBytes is the most bytes of text a parser makes of one file
	// (a shared string repeated in every cell grows without this).
	// 0: 64 MiB.
	MaxTextBytes int64
}

// Defaults of [Config]'s fields.
const (
	DefaultMaxDepth         = 512
	DefaultMaxUnzippedBytes = 256 << 20
	DefaultMaxMemberBytes   = 64 << 20
	DefaultMaxRatio         = 200
	DefaultMaxCells         = 1_000_000
	DefaultMaxTextBytes     = 64 << 20
)

// ratioFloor is the size a member must exceed before MaxRatio applies:
// small parts of an Office file (styles, a sheet of one value) often
// compress by more than any bomb threshold.
const ratioFloor = 1 << 20

// resolved returns cfg with the defaults in place of zero values, or an
// error wrapping ErrConfig naming the first negative field.
func (cfg Config) resolved() (Config, error) {
	for _, f := range []struct {
		name string
		v    int64
	}{
		{"MaxDepth", int64(cfg.MaxDepth)},
		{"MaxUnzippedBytes", cfg.MaxUnzippedBytes},
		{"MaxMemberBytes", cfg.MaxMemberBytes},
		{"MaxRatio", int64(cfg.MaxRatio)},
		{"MaxCells", int64(cfg.MaxCells)},
		{"MaxTextBytes", cfg.MaxTextBytes},
	} {
		if f.v < 0 {
			return cfg, fmt.Errorf("%w: %s is %d: must not be negative (0 means the default)", ErrConfig, f.name, f.v)
		}
	}
	cfg.MaxDepth = or(cfg.MaxDepth, DefaultMaxDepth)
	cfg.MaxUnzippedBytes = or(cfg.MaxUnzippedBytes, DefaultMaxUnzippedBytes)
	cfg.MaxMemberBytes = or(cfg.MaxMemberBytes, DefaultMaxMemberBytes)
	cfg.MaxRatio = or(cfg.MaxRatio, DefaultMaxRatio)
	cfg.MaxCells = or(cfg.MaxCells, DefaultMaxCells)
	cfg.MaxTextBytes = or(cfg.MaxTextBytes, DefaultMaxTextBytes)
	return cfg, nil
}

func or[T int | int64](v, def T) T {
	if v == 0 {
		return def
	}
	return v
}
