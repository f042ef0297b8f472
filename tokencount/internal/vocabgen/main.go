// Command vocabgen writes the vocabularies of package tokencount, laid out
// as its lookup tables, from tiktoken-go-loader's rank files (lines of
// "base64 rank"). Run it through go generate in tokencount:
//
//	go generate ./tokencount
//
// Each token gets the slot of the table (see internal/vocabhash) that
// inserting the tokens in rank order, with linear probing, gives it. For
// each encoding it writes, in ranks/:
//
//   - <name>.slots: one byte per slot, the length of its token, 0 for an
//     empty slot;
//   - <name>.ranks: three bytes per token, little-endian, in the order of
//     the slots: its rank, plus 1<<23 if the token is not valid UTF-8 (a
//     character cut in two);
//   - <name>.<k>.tokens: the tokens' bytes in the order of the slots, with
//     nothing between them, in files of at most 1 MiB (a token never
//     straddles two).
//
// tokencount then fills its table in one pass over the slots in order.
package main

import (
	"bufio"
	"bytes"
	"encoding/base64"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"unicode/utf8"

	"github.com/pkoukk/tiktoken-go-loader/assets"

	"github.com/ragkit/ragkit/tokencount/internal/vocabhash"
)

// maxFile keeps every generated file within the project's 1 MiB limit.
const maxFile = 1 << 20

// partial marks, in a rank, a token that is not valid UTF-8.
const partial = 1 << 23

func main() {
	for _, name := range []string{"cl100k_base", "o200k_base", "p50k_base", "r50k_base"} {
		if err := write(name, "ranks"); err != nil {
			fmt.Fprintln(os.Stderr, "vocabgen:", err)
			os.Exit(1)
		}
	}
}

func write(name, dir string) error {
	toks, ranks, err := read(name)
	if err != nil {
		return err
	}
	// Place the tokens in rank order, as a table filled at run time would.
	size := vocabhash.Size(len(toks))
	at := make([]int, size) // 1 + the token's index in toks, 0 for none
	for t, tok := range toks {
		s := string(tok)
		i := vocabhash.Index(vocabhash.Hash(s, vocabhash.Head(s)), size)
		for at[i] != 0 {
			i = (i + 1) % size
		}
		at[i] = t + 1
	}
	slots := make([]byte, size)
	var order, files [][]byte
	var cur []byte
	for i, t := range at {
		if t == 0 {
			continue
		}
		tok, r := toks[t-1], ranks[t-1]
		if !utf8.Valid(tok) {
			r |= partial
		}
		slots[i] = byte(len(tok))
		order = append(order, []byte{byte(r), byte(r >> 8), byte(r >> 16)})
		if len(cur)+len(tok) > maxFile {
			files, cur = append(files, cur), nil
		}
		cur = append(cur, tok...)
	}
	files = append(files, cur)
	if err := os.WriteFile(filepath.Join(dir, name+".slots"), slots, 0o644); err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(dir, name+".ranks"), bytes.Join(order, nil), 0o644); err != nil {
		return err
	}
	for k, f := range files {
		if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("%s.%d.tokens", name, k)), f, 0o644); err != nil {
			return err
		}
	}
	return nil
}

// read returns the tokens of an encoding and their ranks, in rank order.
func read(name string) (toks [][]byte, ranks []int, err error) {
	data, err := assets.Assets.ReadFile(name + ".tiktoken")
	if err != nil {
		return nil, nil, err
	}
	sc := bufio.NewScanner(bytes.NewReader(data))
	for sc.Scan() {
		b64, num, ok := bytes.Cut(sc.Bytes(), []byte{' '})
		if !ok {
			continue
		}
		tok, err := base64.StdEncoding.DecodeString(string(b64))
		if err != nil {
			return nil, nil, fmt.Errorf("%s: %w", name, err)
		}
		rank, err := strconv.Atoi(string(num))
		if err != nil || (len(ranks) > 0 && rank <= ranks[len(ranks)-1]) || rank >= partial || len(tok) == 0 || len(tok) > 255 {
			return nil, nil, fmt.Errorf("%s: bad line %q", name, sc.Bytes())
		}
		toks, ranks = append(toks, tok), append(ranks, rank)
	}
	return toks, ranks, sc.Err()
}
