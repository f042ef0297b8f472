// Command apicount counts the exported names of ragkit's public packages
// (package-level identifiers and methods of exported types, not struct
// fields) and its sentinel errors (exported package-level vars set by
// errors.New), per package and in all, so that the size of the API can be
// followed from release to release:
//
//	cd benchmarks && go run ./cmd/apicount ..
//
// Nested modules, internal/, examples/ and benchmarks/ are not counted.
package main

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

func main() {
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: apicount <module root>")
		os.Exit(2)
	}
	root := os.Args[1]
	names := map[string]int{}
	sentinels := map[string]int{}
	err := filepath.WalkDir(root, func(path string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			n := d.Name()
			if path != root && (strings.HasPrefix(n, ".") || n == "testdata" || n == "internal" || n == "examples" || n == "benchmarks") {
				return filepath.SkipDir
			}
			if path != root {
				if _, err := os.Stat(filepath.Join(path, "go.mod")); err == nil {
					return filepath.SkipDir
				}
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(token.NewFileSet(), path, nil, 0)
		if err != nil || f.Name.Name == "main" {
			return nil
		}
		pkg, _ := filepath.Rel(root, filepath.Dir(path))
		for _, decl := range f.Decls {
			switch d := decl.(type) {
			case *ast.FuncDecl:
				if !d.Name.IsExported() {
					continue
				}
				if d.Recv != nil {
					t := d.Recv.List[0].Type
					if s, ok := t.(*ast.StarExpr); ok {
						t = s.X
					}
					if id, ok := t.(*ast.Ident); ok && !id.IsExported() {
						continue
					}
				}
				names[pkg]++
			case *ast.GenDecl:
				for _, spec := range d.Specs {
					switch s := spec.(type) {
					case *ast.TypeSpec:
						if s.Name.IsExported() {
							names[pkg]++
						}
					case *ast.ValueSpec:
						for i, n := range s.Names {
							if !n.IsExported() {
								continue
							}
							names[pkg]++
							if d.Tok == token.VAR && i < len(s.Values) {
								if c, ok := s.Values[i].(*ast.CallExpr); ok {
									if sel, ok := c.Fun.(*ast.SelectorExpr); ok && sel.Sel.Name == "New" {
										if x, ok := sel.X.(*ast.Ident); ok && x.Name == "errors" {
											sentinels[pkg]++
										}
									}
								}
							}
						}
					}
				}
			}
		}
		return nil
	})
	if err != nil {
		fmt.Fprintln(os.Stderr, "apicount:", err)
		os.Exit(1)
	}
	var pkgs []string
	for p := range names {
		pkgs = append(pkgs, p)
	}
	sort.Strings(pkgs)
	tn, ts := 0, 0
	for _, p := range pkgs {
		fmt.Printf("%-24s %4d names %3d sentinels\n", p, names[p], sentinels[p])
		tn += names[p]
		ts += sentinels[p]
	}
	fmt.Printf("%-24s %4d names %3d sentinels\n", "total", tn, ts)
}
