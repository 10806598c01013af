package openings

import (
	"bytes"
	"compress/gzip"
	"io"
	"os"
	"testing"
)

// BenchmarkParsePGN loads the 50 games of results/fhr-vs-plain.pgn.gz as
// a book, 16 plies of each: notnil decodes each whole game, and the
// openings replay their moves. ns/op is for the 50 games.
func BenchmarkParsePGN(b *testing.B) {
	text := fhrVsPlain(b)
	b.ReportAllocs()
	for b.Loop() {
		list, err := ParsePGN(bytes.NewReader(text), "fhr-vs-plain.pgn", 16)
		if err != nil || len(list) != 50 {
			b.Fatalf("%d openings, %v", len(list), err)
		}
	}
}

// fhrVsPlain is the text of results/fhr-vs-plain.pgn.gz, 50 whole games.
func fhrVsPlain(tb testing.TB) []byte {
	return gunzip(tb, "../results/fhr-vs-plain.pgn.gz")
}

// gunzip returns the text of a gzipped file.
func gunzip(tb testing.TB, path string) []byte {
	tb.Helper()
	f, err := os.Open(path)
	if err != nil {
		tb.Fatal(err)
	}
	defer f.Close()
	z, err := gzip.NewReader(f)
	if err != nil {
		tb.Fatal(err)
	}
	text, err := io.ReadAll(z)
	if err != nil {
		tb.Fatal(err)
	}
	return text
}

// BenchmarkParseEPD loads an EPD book of 800 positions: the positions
// after 16 plies of the games of results/nmr-vs-adaptive.pgn.gz, with
// their clocks. ns/op is for the 800 lines.
func BenchmarkParseEPD(b *testing.B) {
	text := gunzip(b, "../results/nmr-vs-adaptive.pgn.gz")
	games, err := ParsePGN(bytes.NewReader(text), "nmr-vs-adaptive.pgn", 16)
	if err != nil {
		b.Fatal(err)
	}
	var book bytes.Buffer
	for _, g := range games {
		fen, err := g.FEN()
		if err != nil {
			b.Fatal(err)
		}
		book.WriteString(fen + "\n")
	}
	b.ReportAllocs()
	for b.Loop() {
		list, err := ParseEPD(bytes.NewReader(book.Bytes()), "book.epd")
		if err != nil || len(list) != len(games) {
			b.Fatalf("%d openings, %v", len(list), err)
		}
	}
}
