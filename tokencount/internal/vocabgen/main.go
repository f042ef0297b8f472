// Command vocabgen writes the vocabularies of package tokencount, in the
// form it reads without parsing, from tiktoken-go-loader's rank files
// (lines of "base64 rank"). Run it through go generate in tokencount:
//
//	go generate ./tokencount
//
// For each encoding it writes ranks/<name>.lens, one byte per rank: the
// length of that rank's token, 0 where no token has the rank; and the
// tokens' bytes, in rank order with nothing between them, in
// ranks/<name>.<k>.tokens files of at most 1 MiB each (a token never
// straddles two). r50k_base is the first 50,256 tokens of p50k_base and
// is not written: tokencount reads it from p50k_base's files.
package main

import (
	"bufio"
	"bytes"
	"encoding/base64"
	"fmt"
	"os"
	"path/filepath"
	"strconv"

	"github.com/pkoukk/tiktoken-go-loader/assets"
)

// maxFile keeps every generated file within the project's 1 MiB limit.
const maxFile = 1 << 20

func main() {
	for _, name := range []string{"cl100k_base", "o200k_base", "p50k_base"} {
		if err := write(name, "ranks"); err != nil {
			fmt.Fprintln(os.Stderr, "vocabgen:", err)
			os.Exit(1)
		}
	}
}

func write(name, dir string) error {
	data, err := assets.Assets.ReadFile(name + ".tiktoken")
	if err != nil {
		return err
	}
	var toks [][]byte // by rank; nil for a rank no token has
	sc := bufio.NewScanner(bytes.NewReader(data))
	for sc.Scan() {
		b64, num, ok := bytes.Cut(sc.Bytes(), []byte{' '})
		if !ok {
			continue
		}
		tok, err := base64.StdEncoding.DecodeString(string(b64))
		if err != nil {
			return fmt.Errorf("%s: %w", name, err)
		}
		rank, err := strconv.Atoi(string(num))
		if err != nil || rank < len(toks) || len(tok) == 0 || len(tok) > 255 {
			return fmt.Errorf("%s: bad line %q", name, sc.Bytes())
		}
		for len(toks) < rank {
			toks = append(toks, nil)
		}
		toks = append(toks, tok)
	}
	if err := sc.Err(); err != nil {
		return err
	}
	lens := make([]byte, len(toks))
	var files [][]byte
	var cur []byte
	for r, tok := range toks {
		lens[r] = byte(len(tok))
		if len(cur)+len(tok) > maxFile {
			files, cur = append(files, cur), nil
		}
		cur = append(cur, tok...)
	}
	files = append(files, cur)
	if err := os.WriteFile(filepath.Join(dir, name+".lens"), lens, 0o644); err != nil {
		return err
	}
	for k, f := range files {
		if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("%s.%d.tokens", name, k)), f, 0o644); err != nil {
			return err
		}
	}
	return nil
}
