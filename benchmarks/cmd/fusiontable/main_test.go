package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

func TestParseMethod(t *testing.T) {
	for _, tc := range []struct {
		name, unit, search string
		size               int
		bad                bool
	}{
		{name: "retriever-chunks-64+vector", unit: "chunks", size: 64, search: "vector"},
		{name: "retriever-segments-256+hybrid(w1:20,k4)", unit: "segments", size: 256, search: "hybrid(w1:20,k4)"},
		{name: "balanced-64+hybrid", bad: true},
		{name: "retriever-chunks-64", bad: true},
		{name: "retriever-chunks-x+vector", bad: true},
		{name: "retriever-chunks-0+vector", bad: true},
	} {
		unit, size, search, err := parseMethod(tc.name)
		if tc.bad {
			if err == nil {
				t.Errorf("%q: no error", tc.name)
			}
			continue
		}
		if err != nil || unit != tc.unit || size != tc.size || search != tc.search {
			t.Errorf("%q: %q %d %q %v, want %q %d %q", tc.name, unit, size, search, err, tc.unit, tc.size, tc.search)
		}
	}
}

// results writes cmd/eval's JSON for corpus c, chunks of 64, with the
// given hit@1 and hit@5 of vector, keywords and two hybrid settings.
func results(t *testing.T, dir, name string, v, kw, a, b [2]float64) string {
	t.Helper()
	var sb strings.Builder
	sb.WriteString("[")
	for i, x := range []struct {
		search string
		s      [2]float64
	}{{"vector", v}, {"keywords", kw}, {"hybrid(w1:20,k4)", a}, {"hybrid(w1:1,k60)", b}} {
		if i > 0 {
			sb.WriteString(",")
		}
		sb.WriteString(`{"corpus":"c","method":"retriever-chunks-64+` + x.search + `","k":5,"hit_at_1":` +
			ftoa(x.s[0]) + `,"hit_at_k":` + ftoa(x.s[1]) + `}`)
	}
	sb.WriteString("]")
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, []byte(sb.String()), 0o600); err != nil {
		t.Fatal(err)
	}
	return p
}

func ftoa(x float64) string { return strconv.FormatFloat(x, 'g', -1, 64) }

func TestRun(t *testing.T) {
	dir := t.TempDir()
	// Lexical: hybrid w1:20 equals keywords (the better input at both
	// metrics): it holds; w1:1 loses hit@1. MiniLM: vector is better at
	// hit@5, keywords at hit@1; w1:20 has keywords' hit@5 and fails,
	// w1:1 has the best of each and holds.
	lex := results(t, dir, "lex.json", [2]float64{0.4, 0.8}, [2]float64{0.5, 0.9}, [2]float64{0.5, 0.9}, [2]float64{0.4, 0.9})
	mini := results(t, dir, "mini.json", [2]float64{0.3, 0.95}, [2]float64{0.5, 0.9}, [2]float64{0.5, 0.9}, [2]float64{0.5, 0.95})
	var out, errs bytes.Buffer
	if code := run([]string{"Lexical=" + lex, "MiniLM=" + mini}, &out, &errs); code != 0 {
		t.Fatalf("exit %d: %s", code, errs.String())
	}
	for _, want := range []string{
		"| c | chunks | 64 | vector | 0.400 | 0.800 |  | 0.300 | 0.950 |  |",
		"| c | chunks | 64 | hybrid(w1:1,k60) | 0.400 | 0.900 | no | 0.500 | 0.950 | yes |",
		"| c | chunks | 64 | hybrid(w1:20,k4) | 0.500 | 0.900 | yes | 0.500 | 0.900 | no |",
		"| vector | 0.400 | 0.800 |  | 0.300 | 0.950 |  |",
		"| hybrid(w1:1,k60) | 0.400 | 0.900 | 0 of 1 | 0.500 | 0.950 | 1 of 1 |",
		"| hybrid(w1:20,k4) | 0.500 | 0.900 | 1 of 1 | 0.500 | 0.900 | 0 of 1 |",
	} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("no line %q in\n%s", want, out.String())
		}
	}
}

func TestRunErrors(t *testing.T) {
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.json")
	if err := os.WriteFile(bad, []byte(`[{"corpus":"c","method":"retriever-chunks-64+vector","error":"boom"}]`), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		args []string
		code int
	}{
		{nil, 2},
		{[]string{"nolabel"}, 2},
		{[]string{"L=" + filepath.Join(dir, "missing.json")}, 1},
		{[]string{"L=" + bad}, 1},
	} {
		var out, errs bytes.Buffer
		if code := run(tc.args, &out, &errs); code != tc.code {
			t.Errorf("%q: exit %d, want %d (%s)", tc.args, code, tc.code, errs.String())
		}
	}
}
