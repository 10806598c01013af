package config

import (
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"selfplay/config/snapshot"
	"selfplay/stats"
)

// compatSnapshots are the snapshots of testdata/snapshot-compat.toml, one
// line per tournament.
func compatSnapshots(t *testing.T) string {
	t.Helper()
	body, err := os.ReadFile(filepath.Join("testdata", "snapshot-compat.toml"))
	if err != nil {
		t.Fatal(err)
	}
	f := mustLoad(t, string(body), map[string]string{"book.epd": epdBook, "book.pgn": pgnBook})
	var lines []string
	for _, tr := range f.Tournaments {
		lines = append(lines, encodedSnapshot(t, f, tr))
	}
	return strings.Join(lines, "\n") + "\n"
}

// encodedSnapshot is the tournament's snapshot as stored.
func encodedSnapshot(t *testing.T, f *File, tr Tournament) string {
	t.Helper()
	snap, err := tr.Snapshot(f)
	if err != nil {
		t.Fatal(err)
	}
	s, err := snap.Encode()
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// The typed snapshot encodes every tournament exactly as the snapshots
// that earlier versions stored (testdata/snapshot-compat.golden, written by
// the map-based code of commit 75202b1, before the snapshot was typed), so their config hashes
// still match; and a stored snapshot decodes and re-encodes to itself. The
// engines' canonical options in the golden gained the SEE switches (qsee,
// see-order, delta, delta-margin) when the search got them: the engine
// changed, so a tournament stored before correctly refuses to resume.
func TestSnapshotCompatibleWithStored(t *testing.T) {
	golden, err := os.ReadFile(filepath.Join("testdata", "snapshot-compat.golden"))
	if err != nil {
		t.Fatal(err)
	}
	got, want := strings.Split(compatSnapshots(t), "\n"), strings.Split(string(golden), "\n")
	if len(got) != len(want) {
		t.Fatalf("%d snapshots, want %d", len(got), len(want))
	}
	for i := range got {
		if got[i] != want[i] {
			t.Errorf("snapshot %d differs from the stored one (%v):\n got %s\nwant %s", i, snapshot.Diff(want[i], got[i]), got[i], want[i])
		}
	}
	for _, line := range want[:len(want)-1] {
		snap, err := snapshot.Parse(line)
		if err != nil {
			t.Fatal(err)
		}
		again, err := snap.Encode()
		if err != nil {
			t.Fatal(err)
		}
		if again != line {
			t.Errorf("decoded and encoded again:\n%s\nwant\n%s", again, line)
		}
	}
}

// A snapshot as the report's tests store it (a few keys) decodes, and a
// snapshot that is not a JSON object is an error.
func TestParseSnapshot(t *testing.T) {
	s, err := snapshot.Parse(`{"format":"match","players":["a","b"],"sprt":{"elo0":0,"elo1":5,"alpha":0.05,"beta":0.05,"model":"normalized"},"future":1}`)
	if err != nil || s.Format != "match" || len(s.Players) != 2 || s.SPRT == nil || s.SPRT.Elo1 != 5 || s.SPRT.Model != stats.NormalizedElo {
		t.Errorf("ParseSnapshot = %+v, %v", s, err)
	}
	for _, bad := range []string{"", "[1]", "{not json", `{"engines":{"a":{"options":[1]}}}`} {
		if _, err := snapshot.Parse(bad); err == nil {
			t.Errorf("snapshot.Parse(%q) succeeded", bad)
		}
	}
}

// Diff compares typed snapshots key by key, as merge and the runner need.
func TestSnapshotDiff(t *testing.T) {
	body, err := os.ReadFile(filepath.Join("testdata", "snapshot-compat.toml"))
	if err != nil {
		t.Fatal(err)
	}
	f := mustLoad(t, string(body), map[string]string{"book.epd": epdBook, "book.pgn": pgnBook})
	a, err := f.Tournaments[1].Snapshot(f)
	if err != nil {
		t.Fatal(err)
	}
	b := a
	b.Engines = maps.Clone(a.Engines)
	ext := b.Engines["ext"]
	ext.UCIOptions = map[string]string{"Hash": "32", "Skill Level": "3", "Threads": "1"}
	b.Engines["ext"] = ext
	b.Limits.Depth = 6
	d, err := b.Diff(a)
	if err != nil || !slices.Equal(d, []string{`engines.ext.options.Hash: "16" -> "32"`, "limits.depth: 5 -> 6"}) {
		t.Errorf("Diff = %q, %v", d, err)
	}
	if d, err := a.Diff(a); err != nil || d != nil {
		t.Errorf("Diff of equal snapshots = %q, %v", d, err)
	}
}
