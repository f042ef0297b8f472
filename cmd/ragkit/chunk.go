package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"github.com/ragkit/ragkit/tokencount"
)

// chunkCmd prints the chunks of a file.
func chunkCmd(ctx context.Context, args []string, io ios) error {
	fs := newFlags("chunk", "[-max-tokens N] FILE", io.stderr)
	maxTokens := fs.Int("max-tokens", defaultMaxTokens, "the most tokens of a chunk")
	maxBytes := maxFileFlag(fs)
	err := parse(fs, args, func(rest []string) error {
		if len(rest) != 1 {
			return errors.New("name one file")
		}
		if *maxTokens < 16 {
			return fmt.Errorf("-max-tokens must be at least 16, got %d", *maxTokens)
		}
		return nil
	})
	if err != nil {
		return err
	}
	docs, err := loadFiles(ctx, fs.Args(), maxBytes(), io.stderr)
	if err != nil {
		return err
	}
	tok, err := tokencount.Encoding("cl100k_base")
	if err != nil {
		return err
	}
	split, err := splitter(tok, *maxTokens)
	if err != nil {
		return err
	}
	for _, d := range docs {
		chunks, err := split(ctx, d)
		if err != nil {
			return err
		}
		outline := d.Outline()
		for _, c := range chunks {
			where := []string{fmt.Sprintf("%d tokens", c.Tokens), fmt.Sprintf("bytes %d-%d", c.Start, c.End)}
			if p := outline.Path(c.Start, c.End); len(p) > 0 {
				where = append(where, "section "+strings.Join(p, " > "))
			}
			if loc := d.Locate(c.Start, c.End); !loc.IsZero() {
				where = append(where, loc.String())
			}
			fmt.Fprintf(io.stdout, "--- %s chunk %d: %s\n%s\n", d.ID, c.Index+1, strings.Join(where, ", "), strings.TrimRight(c.Text, "\n"))
		}
	}
	return nil
}

// maxStdin bounds what count reads from standard input.
const maxStdin = 64 << 20

// countCmd prints the tokens of each file's parsed text, or of standard
// input.
func countCmd(ctx context.Context, args []string, ios ios) error {
	fs := newFlags("count", "[-model M] [FILE...]", ios.stderr)
	model := fs.String("model", "", "count as this model's tokenizer does, such as gpt-4o (default: cl100k_base)")
	maxBytes := maxFileFlag(fs)
	if err := parse(fs, args, nil); err != nil {
		return err
	}
	tok, name, err := tokenizer(*model)
	if err != nil {
		fmt.Fprintf(ios.stderr, "ragkit count: %v\n", err)
		return fmt.Errorf("%w: %w", errUsage, err)
	}
	if fs.NArg() == 0 {
		data, err := io.ReadAll(io.LimitReader(ios.stdin, maxStdin+1))
		if err != nil {
			return err
		}
		if len(data) > maxStdin {
			return fmt.Errorf("standard input is over %d MiB", maxStdin>>20)
		}
		fmt.Fprintln(ios.stdout, tok.Count(string(data)))
		return nil
	}
	docs, err := loadFiles(ctx, fs.Args(), maxBytes(), ios.stderr)
	if err != nil {
		return err
	}
	w := tabwriter.NewWriter(ios.stdout, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintf(w, "tokens (%s)\tbytes\t file\n", name)
	tokens, bytes := 0, 0
	for _, d := range docs {
		n := tok.Count(d.Text)
		tokens, bytes = tokens+n, bytes+len(d.Text)
		fmt.Fprintf(w, "%d\t%d\t %s\n", n, len(d.Text), d.ID)
	}
	if len(docs) > 1 {
		fmt.Fprintf(w, "%d\t%d\t total\n", tokens, bytes)
	}
	return w.Flush()
}

// tokenizer returns the tokenizer of a model, cl100k_base for none.
func tokenizer(model string) (tokencount.Tokenizer, string, error) {
	if model == "" {
		t, err := tokencount.Encoding("cl100k_base")
		return t, "cl100k_base", err
	}
	t, err := tokencount.ForModel(model)
	return t, model, err
}
