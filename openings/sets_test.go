package openings

import (
	"bufio"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// dataDir is the shared test data folder, relative to this package.
const dataDir = "../../shared/data"

// dataFile returns the path of a shared data file, skipping the test when it
// is absent.
func dataFile(t *testing.T, name string) string {
	t.Helper()
	path := filepath.Join(dataDir, name)
	if _, err := os.Stat(path); errors.Is(err, fs.ErrNotExist) {
		t.Skipf("%s not present", path)
	} else if err != nil {
		t.Fatal(err)
	}
	return path
}

// fen4 returns the first four fields of a FEN or EPD line.
func fen4(s string) string {
	f := strings.Fields(s)
	if len(f) > 4 {
		f = f[:4]
	}
	return strings.Join(f, " ")
}

// checkLegal replays o from its start position and checks that the moves are
// legal and that the stored SAN is notnil's.
func checkLegal(t *testing.T, o Opening) {
	t.Helper()
	if len(o.SAN) != len(o.Moves) {
		t.Errorf("%s: %d SAN moves for %d UCI moves", o.ID, len(o.SAN), len(o.Moves))
		return
	}
	replayed, err := newOpening(o.ID, o.Name, o.StartFEN, o.Moves)
	if err != nil {
		t.Errorf("%s: %v", o.ID, err)
		return
	}
	if !slices.Equal(replayed.SAN, o.SAN) {
		t.Errorf("%s: SAN %v, notnil says %v", o.ID, o.SAN, replayed.SAN)
	}
	if _, err := o.FEN(); err != nil {
		t.Errorf("%s: FEN: %v", o.ID, err)
	}
}

func TestFHR25(t *testing.T) {
	list := FHR25()
	if len(list) != 25 {
		t.Fatalf("got %d openings, want 25", len(list))
	}
	want := []string{
		"e4 e5", "e4 e6", "e4 c5", "e4 c6", "e4 d6", "e4 g6", "e4 Nf6", "e4 d5", "e4 Nc6",
		"d4 Nf6", "d4 d5", "d4 f5", "c4 c5", "c4 e5", "c4 c6", "c4 f5", "c4 e6", "c4 Nf6",
		"Nf3 d5", "Nf3 Nf6", "Nf3 f5", "f4 e5", "f4 d5", "b4 Nf6", "b4 e5",
	}
	for i, o := range list {
		if len(o.Moves) != 2 {
			t.Errorf("%s: %d plies, want 2", o.ID, len(o.Moves))
		}
		if got := strings.Join(o.SAN, " "); got != want[i] {
			t.Errorf("opening %d: %q, want %q", i+1, got, want[i])
		}
		if wantID := fmt.Sprintf("fhr-%02d", i+1); o.ID != wantID {
			t.Errorf("opening %d: ID %q, want %q", i+1, o.ID, wantID)
		}
		if o.Name != "1. "+want[i] {
			t.Errorf("%s: name %q, want %q", o.ID, o.Name, "1. "+want[i])
		}
		if !o.IsStandardStart() {
			t.Errorf("%s: not a standard start", o.ID)
		}
		checkLegal(t, o)
	}
	// A fresh slice every call.
	list[0].Moves[0] = "a2a3"
	if FHR25()[0].Moves[0] != "e2e4" {
		t.Error("FHR25 shares state between calls")
	}
}

// readLines returns the lines of a text file.
func readLines(t *testing.T, path string) []string {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var lines []string
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		lines = append(lines, sc.Text())
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return lines
}

func TestFHR25MatchesEPD(t *testing.T) {
	path := dataFile(t, "fhr25.epd")
	lines := readLines(t, path)
	list := FHR25()
	if len(lines) != len(list) {
		t.Fatalf("%s has %d lines, want %d", path, len(lines), len(list))
	}
	loaded, err := loadEPD(path)
	if err != nil {
		t.Fatal(err)
	}
	for i, o := range list {
		fen, err := o.FEN()
		if err != nil {
			t.Fatal(err)
		}
		if got, want := fen4(fen), fen4(lines[i]); got != want {
			t.Errorf("%s: position %q, %s line %d has %q", o.ID, got, path, i+1, want)
		}
		// The same file through the EPD reader: the ids are "fhr-01 e4 e5".
		if want := o.ID + " " + strings.TrimPrefix(o.Name, "1. "); loaded[i].ID != want {
			t.Errorf("line %d: ID %q, want %q", i+1, loaded[i].ID, want)
		}
		if fen4(loaded[i].StartFEN) != fen4(fen) || len(loaded[i].Moves) != 0 {
			t.Errorf("line %d: loaded %+v, want the position %q", i+1, loaded[i], fen)
		}
	}
}

func TestFHR25MatchesPGN(t *testing.T) {
	path := dataFile(t, "fhr25.pgn")
	loaded, err := loadPGN(path, 2)
	if err != nil {
		t.Fatal(err)
	}
	list := FHR25()
	if len(loaded) != len(list) {
		t.Fatalf("%s: %d openings, want %d", path, len(loaded), len(list))
	}
	for i, o := range list {
		p := loaded[i]
		if !slices.Equal(p.Moves, o.Moves) || !slices.Equal(p.SAN, o.SAN) || p.Name != o.Name || !p.IsStandardStart() {
			t.Errorf("game %d: %+v, want the moves of %+v", i+1, p, o)
		}
		if want := fmt.Sprintf("fhr25.pgn#%d", i+1); p.ID != want {
			t.Errorf("game %d: ID %q, want %q", i+1, p.ID, want)
		}
		got, _ := p.FEN()
		want, _ := o.FEN()
		if got != want {
			t.Errorf("game %d: position %q, want %q", i+1, got, want)
		}
	}
}

func TestTwoPly(t *testing.T) {
	list := TwoPly()
	if len(list) != 400 {
		t.Fatalf("got %d openings, want 400", len(list))
	}
	positions := map[string]string{}
	ids := map[string]bool{}
	for i, o := range list {
		if len(o.Moves) != 2 || !o.IsStandardStart() {
			t.Errorf("%s: %d plies from %q", o.ID, len(o.Moves), o.StartFEN)
		}
		if ids[o.ID] {
			t.Errorf("duplicate ID %s", o.ID)
		}
		ids[o.ID] = true
		if o.Name != "1. "+o.SAN[0]+" "+o.SAN[1] {
			t.Errorf("%s: name %q for %v", o.ID, o.Name, o.SAN)
		}
		if i > 0 {
			prev := list[i-1]
			if strings.Join(prev.Moves, " ") >= strings.Join(o.Moves, " ") {
				t.Errorf("not in UCI order: %v before %v", prev.Moves, o.Moves)
			}
		}
		checkLegal(t, o)
		fen, err := o.FEN()
		if err != nil {
			t.Fatal(err)
		}
		if other, dup := positions[fen4(fen)]; dup {
			t.Errorf("%s and %s reach the same position %s", other, o.ID, fen)
		}
		positions[fen4(fen)] = o.ID
	}
	for _, c := range []struct {
		i        int
		id, name string
	}{{0, "2ply-001", "1. a3 a5"}, {1, "2ply-002", "1. a3 a6"}, {399, "2ply-400", "1. h4 h6"}} {
		if list[c.i].ID != c.id || list[c.i].Name != c.name {
			t.Errorf("opening %d: %s %q, want %s %q", c.i, list[c.i].ID, list[c.i].Name, c.id, c.name)
		}
	}
	// Every two-ply sequence is there: 20 first moves, 20 replies each.
	first := map[string]int{}
	for _, o := range list {
		first[o.Moves[0]]++
	}
	if len(first) != 20 {
		t.Errorf("%d first moves, want 20", len(first))
	}
	for m, n := range first {
		if n != 20 {
			t.Errorf("%s has %d replies, want 20", m, n)
		}
	}
}

func TestOpeningFEN(t *testing.T) {
	o := FHR25()[0]
	if fen, err := o.FEN(); err != nil || fen != "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq e6 0 2" {
		t.Fatalf("%s: FEN %q, %v", o.ID, fen, err)
	}
	bad := []Opening{
		{ID: "x", StartFEN: "not a fen"},
		{ID: "x", StartFEN: StandardStartFEN, Moves: []string{"e2e5"}},
		{ID: "x", StartFEN: StandardStartFEN, Moves: []string{"zz"}},
	}
	for _, o := range bad {
		if _, err := o.FEN(); err == nil {
			t.Errorf("%+v: no error", o)
		}
	}
}

func TestMoveText(t *testing.T) {
	for _, c := range []struct {
		fen  string
		san  []string
		want string
	}{
		{StandardStartFEN, []string{"e4", "e5", "Nf3"}, "1. e4 e5 2. Nf3"},
		{"8/8/8/8/8/8/8/K6k b - - 3 12", []string{"Kg2", "Kb2", "Kf3"}, "12... Kg2 13. Kb2 Kf3"},
		{StandardStartFEN, nil, ""},
	} {
		if got := moveText(c.fen, c.san); got != c.want {
			t.Errorf("moveText(%q, %v) = %q, want %q", c.fen, c.san, got, c.want)
		}
	}
}
