package parse

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path"
	"strings"

	"github.com/ragkit/ragkit/document"
)

// Go reads a Go source file through go/parser: the package clause and
// imports first, under a heading "package NAME (FILE)", which is the
// Title, with the package's doc comment; then each top-level
// declaration (type, function, method, const and var groups) a section
// of its own, its doc comment as text and its code, the comment left
// out, in a fenced block; comments that are no declaration's doc stay in
// the code blocks, with the code after them. A mark per section gives its Line. A file that
// does not parse is read as [Code] is.
func Go(name, data string) (document.Document, error) {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, name, data, parser.ParseComments|parser.SkipObjectResolution)
	if err != nil || f.Name == nil {
		return Code(name, data, "go")
	}
	tf := fset.File(f.Pos())
	off := func(p token.Pos) int { return min(max(tf.Offset(p), 0), len(data)) }
	line := func(p token.Pos) int { return tf.Line(p) }
	var w writer
	title := "package " + f.Name.Name + " (" + path.Base(name) + ")"
	w.mark(document.Mark{Line: 1})
	w.heading(1, title)
	if f.Doc != nil {
		w.block()
		w.sb.WriteString(f.Doc.Text())
	}
	// The comments before the package clause that are not its doc (a
	// copyright notice, build constraints) are the first block's.
	head := data[:off(f.Package)]
	if f.Doc != nil {
		head = data[:off(f.Doc.Pos())]
	}
	start := off(f.Package)
	end := off(f.Name.End())
	rest := f.Decls
	for len(rest) > 0 {
		if g, ok := rest[0].(*ast.GenDecl); ok && g.Tok == token.IMPORT {
			end = off(g.End())
			rest = rest[1:]
			continue
		}
		break
	}
	w.fence("go", strings.TrimLeft(head, "\n")+data[start:end]+"\n")
	prev := end
	for _, d := range rest {
		var doc *ast.CommentGroup
		var heading string
		switch d := d.(type) {
		case *ast.FuncDecl:
			doc, heading = d.Doc, funcHeading(d)
		case *ast.GenDecl:
			doc, heading = d.Doc, genHeading(d)
		default:
			continue
		}
		first := d.Pos()
		if doc != nil {
			first = doc.Pos()
		}
		w.block()
		w.mark(document.Mark{Line: line(first)})
		w.codeHeading(2, heading)
		if doc != nil {
			w.block()
			w.sb.WriteString(doc.Text())
		}
		// Comments between declarations that are no one's doc go with the
		// code after them.
		loose := strings.TrimSpace(data[prev:off(first)])
		if loose != "" {
			loose += "\n\n"
		}
		w.fence("go", loose+data[off(d.Pos()):off(d.End())]+"\n")
		prev = off(d.End())
	}
	if tail := strings.TrimSpace(data[prev:]); tail != "" {
		w.fence("go", tail+"\n")
	}
	return w.doc(title, document.Markdown), nil
}

// funcHeading names a function or method: "func Name", "func (T) Name".
func funcHeading(d *ast.FuncDecl) string {
	if d.Recv == nil || len(d.Recv.List) == 0 {
		return "func " + d.Name.Name
	}
	return "func (" + typeName(d.Recv.List[0].Type) + ") " + d.Name.Name
}

// typeName names a receiver's type, without its pointer and type
// parameters.
func typeName(e ast.Expr) string {
	for {
		switch t := e.(type) {
		case *ast.StarExpr:
			e = t.X
		case *ast.IndexExpr:
			e = t.X
		case *ast.IndexListExpr:
			e = t.X
		case *ast.Ident:
			return t.Name
		default:
			return "?"
		}
	}
}

// genHeading names a type, const or var declaration by its keyword and
// first names: "type Config", "const (A, B, C, ...)".
func genHeading(d *ast.GenDecl) string {
	var names []string
	for _, s := range d.Specs {
		switch s := s.(type) {
		case *ast.TypeSpec:
			names = append(names, s.Name.Name)
		case *ast.ValueSpec:
			for _, n := range s.Names {
				names = append(names, n.Name)
			}
		}
	}
	kw := d.Tok.String()
	switch {
	case len(names) == 1:
		return kw + " " + names[0]
	case len(names) > 4:
		return kw + " (" + strings.Join(names[:4], ", ") + ", ...)"
	}
	return kw + " (" + strings.Join(names, ", ") + ")"
}
