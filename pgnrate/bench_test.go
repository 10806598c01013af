package pgnrate

import (
	"bufio"
	"context"
	"flag"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"selfplay/stats"
)

var (
	largePGN   = flag.String("large.pgn", "", "TestWriteLargePGN writes a generated PGN file here (for timing the binary)")
	largeGames = flag.Int("large.games", 1_000_000, "games in the -large.pgn file and in BenchmarkRate")
)

// writeGames writes n games as cutechess-cli's verbose -pgnout writes them
// (its tags, eight {book} plies, {score/depth time} comments, lines wrapped
// before 80 columns, the result's description in the last comment): eight
// engines of known strength in colour-swapped pairs, 40 to 120 plies a
// game, about 2.3 KB each.
func writeGames(w io.Writer, n int, seed uint64) error {
	bw := bufio.NewWriterSize(w, 1<<20)
	rng := rand.New(rand.NewPCG(seed, 1))
	names := []string{"Stockfish 16", "Ethereal 14.25", "Berserk 12", "Koivisto 9", "Weiss 2.0", "Seer 2.8",
		"Rubi 2.2", "Minic 3.32"}
	strength := []float64{180, 120, 90, 40, 0, -60, -120, -250}
	books := [][]string{
		{"e4", "e5", "Nf3", "Nc6", "Bb5", "a6", "Ba4", "Nf6"},
		{"d4", "Nf6", "c4", "e6", "Nc3", "Bb4", "e3", "O-O"},
		{"c4", "c5", "Nc3", "Nc6", "g3", "g6", "Bg2", "Bg7"},
		{"e4", "c5", "Nf3", "d6", "d4", "cxd4", "Nxd4", "Nf6"},
	}
	moves := []string{"Nc3", "Be7", "Re1", "b5", "Bb3", "d6", "c3", "O-O", "h3", "Na5", "Bc2", "c5", "d4", "Qc7",
		"Nbd2", "cxd4", "cxd4", "Nc6", "Nb3", "a5", "Be3", "a4", "Nbd2", "Bd7", "Rc1", "Qb7", "Qe2", "Rfe8"}
	var line strings.Builder
	game := 0
	for pair := 0; game < n; pair++ {
		a := rng.IntN(len(names))
		b := (a + 1 + rng.IntN(len(names)-1)) % len(names)
		book := books[pair%len(books)]
		for k := 0; k < 2 && game < n; k++ {
			game++
			white, black := a, b
			if k == 1 {
				white, black = b, a
			}
			s := stats.ScoreFromElo(strength[white] - strength[black])
			result, desc := "1/2-1/2", "Draw by adjudication"
			switch u := rng.Float64(); {
			case u < s-0.2:
				result, desc = "1-0", "White wins by adjudication"
			case u > s+0.2:
				result, desc = "0-1", "Black wins by adjudication"
			}
			plies := 40 + rng.IntN(81)
			fmt.Fprintf(bw, "[Event \"?\"]\n[Site \"?\"]\n[Date \"2024.05.04\"]\n[Round \"%d\"]\n[White \"%s\"]\n"+
				"[Black \"%s\"]\n[Result \"%s\"]\n[ECO \"C84\"]\n[GameDuration \"00:01:%02d\"]\n"+
				"[GameEndTime \"2024-05-04T11:02:15.338 CEST\"]\n[GameStartTime \"2024-05-04T11:01:53.971 CEST\"]\n"+
				"[Opening \"Ruy Lopez\"]\n[PlyCount \"%d\"]\n[Termination \"adjudication\"]\n[TimeControl \"10+0.1\"]\n\n",
				game, names[white], names[black], result, game%60, plies)
			line.Reset()
			col := 0
			emit := func(tok string) {
				if col > 0 && col+1+len(tok) >= 80 {
					bw.WriteString(line.String())
					bw.WriteByte('\n')
					line.Reset()
					col = 0
				}
				if col > 0 {
					line.WriteByte(' ')
					col++
				}
				line.WriteString(tok)
				col += len(tok)
			}
			for ply := range plies {
				san := moves[(ply*7+game)%len(moves)]
				comment := fmt.Sprintf("{%+.2f/%d %.3fs}", float64(rng.IntN(200)-100)/100, 8+rng.IntN(12), rng.Float64())
				if ply < len(book) {
					san, comment = book[ply], "{book}"
				}
				if ply == plies-1 {
					comment = comment[:len(comment)-1] + ", " + desc + "}"
				}
				tok := san + " " + comment
				if ply%2 == 0 {
					tok = fmt.Sprintf("%d. %s", ply/2+1, tok)
				}
				emit(tok)
			}
			emit(result)
			bw.WriteString(line.String())
			bw.WriteString("\n\n")
		}
	}
	return bw.Flush()
}

// TestWriteLargePGN writes -large.games games to -large.pgn, for timing
// the binary on them:
//
//	go test ./pgnrate -run WriteLargePGN -large.pgn /tmp/1m.pgn
//	/usr/bin/time -v selfplay ratings /tmp/1m.pgn
func TestWriteLargePGN(t *testing.T) {
	if *largePGN == "" {
		t.Skip("no -large.pgn given")
	}
	f, err := os.Create(*largePGN)
	if err != nil {
		t.Fatal(err)
	}
	if err := writeGames(f, *largeGames, 1); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
}

// The generated games are what the benchmark says: every game read and
// rated, all in pairs, at the generator's size.
func TestGeneratedGames(t *testing.T) {
	var b strings.Builder
	if err := writeGames(&b, 2000, 3); err != nil {
		t.Fatal(err)
	}
	p := NewPool(0)
	if err := p.Read(context.Background(), strings.NewReader(b.String()), "gen.pgn", nil); err != nil {
		t.Fatal(err)
	}
	in := p.Input()
	if in.Games != 2000 || in.Rated != 2000 || in.Pairs != 1000 || in.Malformed != 0 {
		t.Errorf("input %+v", in)
	}
	if size := b.Len() / 2000; size < 1800 || size > 3000 {
		t.Errorf("%d bytes a game", size)
	}
	r, err := p.Report(0, "")
	if err != nil {
		t.Fatal(err)
	}
	if got := r.Tournaments[0].Ratings[0].Engine; got != "Stockfish 16" {
		t.Errorf("best engine %s", got)
	}
}

// BenchmarkRate rates a file of -large.games games (1,000,000 by default,
// about 2.3 GB, written to the temp dir first): the whole pipeline of
// `selfplay ratings` but the output.
//
//	go test ./pgnrate -run XXX -bench Rate -benchtime 1x
func BenchmarkRate(b *testing.B) {
	path := filepath.Join(b.TempDir(), "games.pgn")
	f, err := os.Create(path)
	if err != nil {
		b.Fatal(err)
	}
	if err := writeGames(f, *largeGames, 1); err != nil {
		b.Fatal(err)
	}
	if err := f.Close(); err != nil {
		b.Fatal(err)
	}
	st, err := os.Stat(path)
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(st.Size())
	b.ResetTimer()
	for range b.N {
		p := NewPool(0)
		if err := p.ReadFile(context.Background(), path, nil, nil); err != nil {
			b.Fatal(err)
		}
		if _, err := p.Report(0, ""); err != nil {
			b.Fatal(err)
		}
		if in := p.Input(); in.Rated != *largeGames {
			b.Fatalf("rated %d of %d", in.Rated, *largeGames)
		}
	}
	b.ReportMetric(float64(*largeGames)*float64(b.N)/b.Elapsed().Seconds(), "games/s")
}
