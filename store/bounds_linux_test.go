package store

import (
	"context"
	"fmt"
	"os"
	"strconv"
	"strings"
	"testing"

	"selfplay/store/record"
)

// Reading the games of a database that holds a 100 MB opening name takes
// no more memory than one that does not: SQLite reads a value whole to
// cut it, and so that one is not read. Each database is read by a helper
// process of its own, which says its peak RSS.
func TestReaderBoundsMemory(t *testing.T) {
	if testing.Short() {
		t.Skip("writes a 100 MB value")
	}
	ctx := context.Background()
	peak := map[int]int{}
	for _, n := range []int{2, 100 << 20} {
		s, path := open(t)
		id, err := s.CreateTournament(ctx, record.Tournament{Name: "t", Config: "{}", ConfigHash: "h", TotalGames: 2})
		if err != nil {
			t.Fatal(err)
		}
		if err := s.SaveGame(ctx, &record.Game{TournamentID: id, White: "a", Black: "b", Result: "1-0", PGN: "p"}); err != nil {
			t.Fatal(err)
		}
		if _, err := s.db.ExecContext(ctx, `UPDATE games SET opening_name = replace(hex(zeroblob(?)), '0', 'x')`, n/2); err != nil {
			t.Fatal(err)
		}
		s.Close()
		out, code := runHelper(t, "read-games", path, nil)
		if code != 0 {
			t.Fatalf("read-games: exit %d: %s", code, out)
		}
		f := strings.Fields(out)
		if len(f) != 2 {
			t.Fatalf("read-games: %q", out)
		}
		peak[n], _ = strconv.Atoi(f[1])
		t.Logf("a %d-byte opening name: read as %s bytes, peak RSS %d MB", n, f[0], peak[n]/1024)
	}
	if grew := (peak[100<<20] - peak[1]) / 1024; grew > 20 {
		t.Errorf("a 100 MB opening name raised the reader's peak RSS by %d MB", grew)
	}
}

// readGames is the helper read-games PATH: it reads the games of the
// first tournament as the report and the web site do, and prints the
// length of the first one's opening name and its peak RSS in KB (VmHWM).
func readGames(path string) int {
	ctx := context.Background()
	r, err := OpenReader(ctx, path)
	if err != nil {
		fmt.Println("error:", err)
		return 1
	}
	defer r.Close()
	n := 0
	for range 3 {
		games, err := r.TournamentGames(ctx, 1)
		if err != nil {
			fmt.Println("error:", err)
			return 1
		}
		list, _, err := r.ListGames(ctx, GameFilter{}, 0, 10)
		if err != nil || len(list) != 1 || len(games) != 1 {
			fmt.Println("error:", err)
			return 1
		}
		if _, err := r.GameByID(ctx, list[0].ID); err != nil {
			fmt.Println("error:", err)
			return 1
		}
		n = len(games[0].OpeningName)
	}
	// VmHWM, not getrusage's maxrss, which keeps the parent's peak
	// across fork and exec.
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		fmt.Println("error:", err)
		return 1
	}
	for _, line := range strings.Split(string(b), "\n") {
		if f := strings.Fields(line); len(f) == 3 && f[0] == "VmHWM:" {
			fmt.Println(n, f[1])
			return 0
		}
	}
	fmt.Println("error: no VmHWM in /proc/self/status")
	return 1
}

func init() { extraHelpers["read-games"] = readGames }
