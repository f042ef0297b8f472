package chart_test

import (
	"bytes"
	"encoding/xml"
	"io"
	"math"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/ragkit/ragkit/benchmarks/internal/chart"
)

// parse checks that doc is well-formed XML with an svg root, and returns
// the text of its elements, one per line, and the number of each element.
func parse(t *testing.T, doc []byte) (string, map[string]int) {
	t.Helper()
	d := xml.NewDecoder(bytes.NewReader(doc))
	var text strings.Builder
	elems := map[string]int{}
	root := ""
	for {
		tok, err := d.Token()
		if err == io.EOF {
			break
		}
		require.NoError(t, err, "%s", doc)
		switch tok := tok.(type) {
		case xml.StartElement:
			if root == "" {
				root = tok.Name.Local
			}
			elems[tok.Name.Local]++
		case xml.CharData:
			if strings.TrimSpace(string(tok)) == "" {
				continue
			}
			text.Write(tok)
			text.WriteByte('\n')
		}
	}
	require.Equal(t, "svg", root)
	return text.String(), elems
}

func write(t *testing.T, c interface{ WriteSVG(io.Writer) error }) []byte {
	t.Helper()
	var b, again bytes.Buffer
	require.NoError(t, c.WriteSVG(&b))
	require.NoError(t, c.WriteSVG(&again))
	require.Equal(t, b.String(), again.String(), "the same chart twice")
	return b.Bytes()
}

func TestBars(t *testing.T) {
	c := chart.Bars{
		Title:      "Failures <per> configuration & size",
		Categories: []string{"greedy-64", "balanced-64", "balanced-64+headers"},
		Series:     []chart.Series{{Name: "reports", Values: []float64{72.6, 56, 20}}, {Name: "room", Values: []float64{69.6, 52.2, 0}}},
		Axis:       "failures (%)",
		Format:     func(v float64) string { return strconv.FormatFloat(v, 'f', 1, 64) + "%" },
	}
	text, elems := parse(t, write(t, c))
	for _, want := range []string{"Failures <per> configuration & size", "greedy-64", "balanced-64+headers", "reports", "room", "72.6%", "52.2%", "0.0%", "failures (%)"} {
		assert.Contains(t, text, want)
	}
	assert.Equal(t, 6, elems["title"], "one bar per category and series")
}

// On a log axis, bars start at 1: a ratio under 1 is drawn to its left.
func TestBarsLog(t *testing.T) {
	c := chart.Bars{
		Title:      "speed",
		Categories: []string{"tiktoken-go", "floor"},
		Series:     []chart.Series{{Name: "ratio", Values: []float64{23.3, 0.46}}},
		Log:        true,
		Reference:  1,
	}
	text, elems := parse(t, write(t, c))
	for _, want := range []string{"23.3", "0.46", "0.1", "1", "10", "100"} {
		assert.Contains(t, strings.Split(text, "\n"), want)
	}
	assert.Equal(t, 2, elems["title"])
	assert.NotContains(t, strings.Split(text, "\n"), "ratio", "no legend for one series")
}

func TestBarsInvalid(t *testing.T) {
	for name, c := range map[string]chart.Bars{
		"empty":        {},
		"no series":    {Categories: []string{"a"}},
		"short series": {Categories: []string{"a", "b"}, Series: []chart.Series{{Values: []float64{1}}}},
		"NaN":          {Categories: []string{"a"}, Series: []chart.Series{{Values: []float64{math.NaN()}}}},
		"Inf":          {Categories: []string{"a"}, Series: []chart.Series{{Values: []float64{math.Inf(1)}}}},
		"log of 0":     {Categories: []string{"a"}, Series: []chart.Series{{Values: []float64{0}}}, Log: true},
	} {
		t.Run(name, func(t *testing.T) {
			require.ErrorIs(t, c.WriteSVG(io.Discard), chart.ErrInput)
		})
	}
}

func TestHistograms(t *testing.T) {
	c := chart.Histograms{
		Title: "Chunk sizes, room_with_a_view.txt, at most 256 tokens",
		Rows: []chart.Distribution{
			{Label: "ragkit balanced", Values: []int{200, 210, 220, 256}},
			{Label: "langchaingo token", Values: []int{256, 256, 256, 12, 300}},
		},
		Max:  256,
		Bins: 8,
		Axis: "chunk size (tokens)",
	}
	text, elems := parse(t, write(t, c))
	for _, want := range []string{"ragkit balanced", "langchaingo token", "n 4, median 220 (200-256)", "n 5, median 256 (12-300), 1 over", "chunk size (tokens)"} {
		assert.Contains(t, text, want)
	}
	// balanced: bins 6 (200, 210, 220) and 7 (256); token: bins 0 and 7.
	assert.Equal(t, 4, elems["title"], "one bar per non-empty bin")
	assert.Contains(t, text, "\n0\n64\n128\n192\n256\nchunk size (tokens)\n", "the axis in quarters")
}

func TestHistogramsInvalid(t *testing.T) {
	for name, c := range map[string]chart.Histograms{
		"empty":    {Max: 10},
		"no max":   {Rows: []chart.Distribution{{Values: []int{1}}}},
		"bad bins": {Rows: []chart.Distribution{{Values: []int{1}}}, Max: 10, Bins: -1},
	} {
		t.Run(name, func(t *testing.T) {
			require.ErrorIs(t, c.WriteSVG(io.Discard), chart.ErrInput)
		})
	}
}
