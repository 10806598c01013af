package runner

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"selfplay/outcome"
	"selfplay/store/record"
)

// A game lost by an illegal move, as fastchess writes it: the move is in
// match_.moves (matchmaking/match/match.cpp:523-549), so PlyCount counts
// it (pgn_builder.cpp:68), and the last legal move's comment ends with
// "White makes an illegal move: e2e5" (pgn_builder.cpp:176-178), or, when
// the first move is illegal, that comment stands alone (:86-91). The move
// comes from the stored reason (faultReason: `NAME plays "e2e5"`); a reason
// without one has fastchess's text alone, as fastchess writes a bestmove
// that is no move (match.cpp:661-670: the reason, no move kept).
func TestFastchessPGNIllegalMove(t *testing.T) {
	e4 := record.Move{UCI: "e2e4", SAN: "e4", Depth: 5, Time: time.Millisecond}
	for _, c := range []struct {
		name     string
		moves    []record.Move
		result   outcome.Result
		reason   string
		plies    string
		movetext string
	}{
		{"after a move", []record.Move{e4}, "1-0", `Black makes an illegal move: b plays "e7e4"`, "2",
			"1. e4 {0.00/5 0.001s, Black makes an illegal move: e7e4} 1-0"},
		{"first move", nil, "0-1", `White makes an illegal move: a: x plays "e2e5"`, "1",
			"{White makes an illegal move: e2e5} 0-1"},
		{"no move in the reason", []record.Move{e4}, "1-0", `Black makes an illegal move: b plays ""`, "1",
			"1. e4 {0.00/5 0.001s, Black makes an illegal move} 1-0"},
	} {
		t.Run(c.name, func(t *testing.T) {
			g := record.Game{White: "a", Black: "b", Result: c.result, Termination: record.IllegalMove, Reason: c.reason,
				StartFEN: "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", Moves: c.moves}
			text, err := writeFastchessPGN(&g, fastchessGame{event: "e", site: "?", round: 1, tc: [2]string{"-", "-"}})
			if err != nil {
				t.Fatal(err)
			}
			tags, moves, _ := strings.Cut(text, "\n\n")
			if !strings.Contains(tags, `[PlyCount "`+c.plies+`"]`) || !strings.Contains(tags, `[Termination "illegal move"]`) {
				t.Errorf("tags:\n%s\nwant PlyCount %s", tags, c.plies)
			}
			if moves != c.movetext+"\n\n" {
				t.Errorf("movetext %q, want %q", moves, c.movetext)
			}
		})
	}
}

// fastchess writes tag values raw (pgn_gen.hpp:60-61); the dialect keeps
// PGN's escapes of `"` and `\` (and of control bytes) instead, since a raw
// quote, or a backslash before the closing one, leaves a file that
// pgn-extract cannot read: the escaped game reads whole with its values,
// the raw one does not.
func TestFastchessPGNTagEscapes(t *testing.T) {
	tool := pgnExtract(t)
	event := `say "hi" in C:\games\`
	g := record.Game{White: "a", Black: "b", Result: "1-0", Termination: record.Adjudication, Reason: "White wins by adjudication",
		StartFEN: "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
		Moves:    []record.Move{{UCI: "e2e4", SAN: "e4", Book: true}}}
	text, err := writeFastchessPGN(&g, fastchessGame{event: event, site: "?", round: 1, tc: [2]string{"-", "-"}})
	if err != nil {
		t.Fatal(err)
	}
	escaped := `[Event "say \"hi\" in C:\\games\\"]`
	if !strings.HasPrefix(text, escaped+"\n") {
		t.Fatalf("text:\n%s", text)
	}
	raw := strings.Replace(text, escaped, `[Event "`+event+`"]`, 1)
	dir := t.TempDir()
	for _, c := range []struct {
		name, text string
		reads      bool
	}{{"escaped", text, true}, {"raw", raw, false}} {
		path := filepath.Join(dir, c.name+".pgn")
		if err := os.WriteFile(path, []byte(c.text), 0o644); err != nil {
			t.Fatal(err)
		}
		out, err := exec.Command(tool, "-s", path).Output()
		if err != nil {
			t.Fatalf("pgn-extract %s: %v", c.name, err)
		}
		if reads := strings.Contains(string(out), escaped+"\n") && strings.Contains(string(out), "1. e4 { book } 1-0"); reads != c.reads {
			t.Errorf("pgn-extract read the %s game: %v, want %v:\n%s", c.name, reads, c.reads, out)
		}
	}
}
