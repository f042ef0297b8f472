package formats

import "github.com/ragkit/ragkit/loader"

// Parsers returns the loader's parsers ([loader.DefaultParsers]) and this
// package's with the default limits, by extension: .html, .htm and
// .xhtml ([HTMLParser]), .docx ([DOCXParser]) and .xlsx ([XLSXParser]).
// The map is new at each call, for the caller to change; it is what a
// load of every format takes:
//
//	res, err := loader.Dir(ctx, "docs", loader.Config{Parsers: formats.Parsers()})
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
	m := loader.DefaultParsers()
	for _, ext := range []string{".html", ".htm", ".xhtml"} {
		m[ext] = h
	}
	m[".docx"], m[".xlsx"] = d, x
	return m, nil
}
