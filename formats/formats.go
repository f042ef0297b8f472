package formats

import "github.com/ragkit/ragkit/loader"

// Parsers returns the parsers of this package with the default limits,
// by extension: .html, .htm and .xhtml ([HTMLParser]), .docx
// ([DOCXParser]) and .xlsx ([XLSXParser]). The map is new at each call,
// for the caller to change.
func Parsers() map[string]loader.Parser {
	p, err := ParsersWith(Config{})
	if err != nil {
		panic(err) // unreachable: the zero Config is valid
	}
	return p
}

// ParsersWith is [Parsers] with the limits of cfg; the error wraps
// [ErrConfig].
func ParsersWith(cfg Config) (map[string]loader.Parser, error) {
	h, err := NewHTML(cfg)
	if err != nil {
		return nil, err
	}
	d, err := NewDOCX(cfg)
	if err != nil {
		return nil, err
	}
	x, err := NewXLSX(cfg)
	if err != nil {
		return nil, err
	}
	return map[string]loader.Parser{
		".html": h, ".htm": h, ".xhtml": h,
		".docx": d,
		".xlsx": x,
	}, nil
}
