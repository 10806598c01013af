package config

import (
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"selfplay/config/snapshot"
)

const snapConfig = `
[engines.nmr]
preset = "nmr-r3-4"

[engines.plain]
preset = "plain"

[engines.sf]
command = "./sf"
args = ["-q"]
options = { Hash = 16, "Skill Level" = 3 }

[[tournament]]
name = "m"
engines = ["nmr", "plain"]
concurrency = 2

[tournament.openings]
file = "book.epd"

[tournament.limits]
nodes = 1000

[[tournament]]
name = "g"
engines = ["plain", "nmr", "sf"]
format = "gauntlet"

[tournament.limits]
tc = "40/120"
`

// snapshots loads a config from a fresh folder and returns the snapshot of
// every tournament.
func snapshots(t *testing.T, config string, extra map[string]string) []string {
	t.Helper()
	if extra == nil {
		extra = map[string]string{"book.epd": epdBook}
	}
	f := mustLoad(t, config, extra)
	var out []string
	for _, tr := range f.Tournaments {
		out = append(out, encodedSnapshot(t, f, tr))
	}
	return out
}

func TestSnapshotDeterministic(t *testing.T) {
	// Every load is in a new folder: the snapshot depends on neither the
	// load nor the folder.
	a := snapshots(t, snapConfig, nil)
	for range 5 {
		if b := snapshots(t, snapConfig, nil); !slices.Equal(a, b) {
			t.Fatalf("snapshots differ between loads (and folders):\n%v\n%v", a, b)
		}
	}
	// Same settings, written differently: other key order, comments,
	// defaults spelled out, an equivalent time control, another
	// concurrency (it does not change the games), and another folder.
	same := `
# comment
[engines.plain]
hash = 16
preset = "plain"
[engines.sf]
options = { "Skill Level" = 3, Hash = 16 }
command = "./sf"
args = ["-q"]
init_timeout = "30s"
ping_timeout = "5s"
[engines.nmr]
preset = "nmr-r3-4"
dr = 4
[[tournament]]
engines = ["nmr", "plain"]
name = "m"
format = "match"
rounds = 1
seed = 1
concurrency = 7
limits = { nodes = 1_000, time_margin = "1s" }
openings = { file = "./book.epd", order = "sequential" }
adjudication = { move = 100, policy = "referee", referee = "plain", referee_nodes = 200000, margin = 200 }
[[tournament]]
name = "g"
engines = ["plain", "nmr", "sf"]
format = "gauntlet"
[tournament.limits]
tc = "40/2:00+0"
`
	if b := snapshots(t, same, nil); !slices.Equal(a, b) {
		t.Errorf("equal configs give different snapshots:\n%s\n%s\ndiff: %v %v", a, b, snapshot.Diff(a[0], b[0]), snapshot.Diff(a[1], b[1]))
	}
	for _, s := range a {
		var m map[string]any
		if err := json.Unmarshal([]byte(s), &m); err != nil {
			t.Fatalf("not JSON: %v\n%s", err, s)
		}
		// Canonical: re-encoding (sorted keys) gives the same bytes.
		if re := mustJSON(t, m); re != s {
			t.Errorf("not canonical:\n%s\n%s", s, re)
		}
		for _, k := range []string{"name", "format", "players", "engines", "openings", "limits", "adjudication", "seed", "rounds"} {
			if _, ok := m[k]; !ok {
				t.Errorf("snapshot lacks %q: %s", k, s)
			}
		}
		if strings.Contains(s, "concurrency") || strings.Contains(s, "init_timeout") || strings.Contains(s, "ping_timeout") || strings.Contains(s, "selfplay.db") {
			t.Errorf("snapshot holds settings that do not change the games: %s", s)
		}
	}
	if !strings.Contains(a[0], `"options":"null=nmr r=3~4 r-depth=6 dr=4`) || !strings.Contains(a[0], `"file":"book.epd"`) ||
		!strings.Contains(a[1], `"command":"sf"`) || !strings.Contains(a[1], `"tc":"40/120+0"`) {
		t.Errorf("snapshots:\n%s\n%s", a[0], a[1])
	}
}

func mustJSON(t *testing.T, v any) string {
	t.Helper()
	var b strings.Builder
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		t.Fatal(err)
	}
	return strings.TrimSuffix(b.String(), "\n")
}

func TestSnapshotChanges(t *testing.T) {
	base := snapshots(t, snapConfig, nil)
	cases := []struct {
		name  string
		from  string
		to    string
		extra map[string]string
		i     int
		want  []string
	}{
		{"nodes", "nodes = 1000", "nodes = 2000", nil, 0, []string{"limits.nodes: 1000 -> 2000"}},
		{"switch", "preset = \"nmr-r3-4\"", "preset = \"nmr-r3-4\"\ndr = 2", nil, 0, []string{"engines.nmr.options: dr=4 -> dr=2"}},
		{"preset", "preset = \"nmr-r3-4\"", "preset = \"nmr-r4\"", nil, 0, []string{`engines.nmr.preset: "nmr-r3-4" -> "nmr-r4"`, "engines.nmr.options: r=3~4 r-depth=6 -> r=4"}},
		{"hash", "preset = \"plain\"", "preset = \"plain\"\nhash = 64", nil, 0, []string{"engines.plain.hash: 16 -> 64"}},
		{"limit kind", "nodes = 1000", "depth = 5", nil, 0, []string{"limits.depth: (none) -> 5", "limits.nodes: 1000 -> (none)"}},
		{"jitter", "nodes = 1000", "nodes = 1000\nnodes_jitter = 0.25", nil, 0, []string{"limits.nodes_jitter: (none) -> 0.25"}},
		{"players order", `engines = ["nmr", "plain"]`, `engines = ["plain", "nmr"]`, nil, 0, []string{`players: ["nmr","plain"] -> ["plain","nmr"]`}},
		{"book content", "", "", map[string]string{"book.epd": epdBook + "rnbqkbnr/pppppppp/8/8/2P5/8/PP1PPPPP/RNBQKBNR b KQkq c3\n"}, 0, []string{"openings.sha256: "}},
		{"sprt", "concurrency = 2", "sprt = { elo0 = 0, elo1 = 5 }", nil, 0, []string{"sprt.elo1: (none) -> 5", `sprt.model: (none) -> "normalized"`}},
		{"tc", `tc = "40/120"`, `tc = "40/120+1"`, nil, 1, []string{`limits.tc: "40/120+0" -> "40/120+1"`}},
		{"uci option", `Hash = 16`, `Hash = 32`, nil, 1, []string{`engines.sf.options.Hash: "16" -> "32"`}},
		{"adjudication", "[[tournament]]\nname = \"g\"", "[[tournament]]\nname = \"g\"\nadjudication = { move = 60, policy = \"draw\" }", nil, 1, []string{"adjudication.move: 100 -> 60", `adjudication.policy: "referee" -> "draw"`, "adjudication.referee: "}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if !strings.Contains(snapConfig, c.from) {
				t.Fatalf("%q not in the config", c.from)
			}
			extra := map[string]string{"book.epd": epdBook}
			if c.extra != nil {
				extra = c.extra
			}
			got := snapshots(t, strings.Replace(snapConfig, c.from, c.to, 1), extra)
			if got[c.i] == base[c.i] {
				t.Fatalf("snapshot unchanged: %s", got[c.i])
			}
			diff := snapshot.Diff(base[c.i], got[c.i])
			text := strings.Join(diff, "\n")
			for _, w := range c.want {
				if !strings.Contains(text, w) {
					t.Errorf("diff does not mention %q:\n%s", w, text)
				}
			}
			if !slices.IsSorted(diff) {
				t.Errorf("diff not sorted: %v", diff)
			}
			if other := 1 - c.i; got[other] != base[other] && c.name != "switch" && c.name != "preset" && c.name != "hash" {
				t.Errorf("the other tournament's snapshot changed too: %v", snapshot.Diff(base[other], got[other]))
			}
		})
	}
}

// An absolute path outside the config folder stays as it is. (The same
// files in another folder give the same snapshot: TestSnapshotDeterministic
// loads every config in a fresh folder.)
func TestSnapshotOutsidePath(t *testing.T) {
	book := filepath.Join(t.TempDir(), "outside.epd")
	if err := os.WriteFile(book, []byte(epdBook), 0o644); err != nil {
		t.Fatal(err)
	}
	c := snapshots(t, strings.Replace(snapConfig, `file = "book.epd"`, `file = "`+filepath.ToSlash(book)+`"`, 1), nil)
	if !strings.Contains(c[0], `"file":"`+book+`"`) {
		t.Errorf("snapshot: %s", c[0])
	}
}

func TestDiffSnapshots(t *testing.T) {
	s := snapshots(t, snapConfig, nil)[0]
	if d := snapshot.Diff(s, s); d != nil {
		t.Errorf("equal snapshots: %v", d)
	}
	all := snapshot.Diff("", s)
	if len(all) == 0 || !strings.HasPrefix(all[0], "adjudication.margin: (none) -> 200") {
		t.Errorf("from empty: %v", all)
	}
	if d := snapshot.Diff("{not json", s); len(d) != 1 || !strings.Contains(d[0], "old snapshot is unreadable") {
		t.Errorf("bad old: %v", d)
	}
	got := snapshot.Diff(`{"a":{"b":1,"c":[1,2]},"seed":18446744073709551615}`, `{"a":{"b":2,"c":[1,2]},"seed":18446744073709551614}`)
	want := []string{"a.b: 1 -> 2", "seed: 18446744073709551615 -> 18446744073709551614"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got %q, want %q", got, want)
	}
}

// The snapshot hashes the bytes the openings were loaded from, not the file
// as it is when the snapshot is taken; a tournament whose file was never
// loaded has no snapshot.
func TestSnapshotHashesTheLoadedOpenings(t *testing.T) {
	f := mustLoad(t, snapConfig, map[string]string{"book.epd": epdBook})
	tr := f.Tournaments[0]
	if err := os.WriteFile(tr.Openings.File, []byte("changed after loading\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	s := encodedSnapshot(t, f, tr)
	if want := fmt.Sprintf(`"sha256":"%x"`, sha256.Sum256([]byte(epdBook))); !strings.Contains(s, want) {
		t.Errorf("snapshot %s lacks %s", s, want)
	}
	tr.Openings.Hash = ""
	if _, err := tr.Snapshot(f); err == nil || !strings.Contains(err.Error(), "not loaded") {
		t.Errorf("snapshot of unloaded openings: %v", err)
	}
}
