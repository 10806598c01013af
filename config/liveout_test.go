package config

import (
	"path/filepath"
	"strings"
	"testing"
)

func TestLiveOut(t *testing.T) {
	cases := []struct {
		name, keys string
		want       LiveOut // paths relative to the config's folder
	}{
		{"none", "", LiveOut{}},
		{"pgn file", `pgn_out = "games.pgn"`, LiveOut{PGN: "games.pgn"}},
		{"pgn table", `pgn_out = { file = "out/g.pgn", nodes = true, nps = true }`, LiveOut{PGN: "out/g.pgn", Fields: PGNFields{Nodes: true, NPS: true}}},
		{"all fields and epd", "epd_out = \"g.epd\"\n[tournament.pgn_out]\nfile = \"g.pgn\"\nnodes = true\nseldepth = true\nnps = false\n",
			LiveOut{PGN: "g.pgn", EPD: "g.epd", Fields: PGNFields{Nodes: true, SelDepth: true}}},
		{"fastchess's every field", `pgn_out = { file = "g.pgn", timeleft = true, latency = true, nodes = true, seldepth = true, nps = true, hashfull = true, tbhits = true, pv = true }`,
			LiveOut{PGN: "g.pgn", Fields: PGNFields{TimeLeft: true, Latency: true, Nodes: true, SelDepth: true, NPS: true, HashFull: true, TBHits: true, PV: true}}},
		{"lan, append false", `pgn_out = { file = "g.pgn", notation = "lan", append = false }`, LiveOut{PGN: "g.pgn", Notation: NotationLAN, PGNAfresh: true}},
		{"san is the default", `pgn_out = { file = "g.pgn", notation = "san" }`, LiveOut{PGN: "g.pgn"}},
		{"uci, append true", `pgn_out = { file = "g.pgn", notation = "uci", append = true }`, LiveOut{PGN: "g.pgn", Notation: NotationUCI}},
		{"fastchess's dialect", `pgn_out = { file = "g.pgn", dialect = "fastchess", nodes = true }`, LiveOut{PGN: "g.pgn", Dialect: DialectFastchess, Fields: PGNFields{Nodes: true}}},
		{"selfplay's dialect is the default", `pgn_out = { file = "g.pgn", dialect = "selfplay" }`, LiveOut{PGN: "g.pgn"}},
		{"fastchess's minimal PGN", `pgn_out = { file = "g.pgn", dialect = "fastchess", min = true }`, LiveOut{PGN: "g.pgn", Dialect: DialectFastchess, Min: true}},
		{"min false", `pgn_out = { file = "g.pgn", min = false }`, LiveOut{PGN: "g.pgn"}},
		{"epd table, append false", `epd_out = { file = "g.epd", append = false }`, LiveOut{EPD: "g.epd", EPDAfresh: true}},
		{"epd table, append true", `epd_out = { file = "g.epd", append = true }`, LiveOut{EPD: "g.epd"}},
	}
	var hash string
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			f, path, err := load(t, engAB+tourn("t", c.keys+"\n"+limits), nil)
			if err != nil {
				t.Fatal(err)
			}
			want := c.want
			for _, p := range []*string{&want.PGN, &want.EPD} {
				if *p != "" {
					*p = filepath.Join(filepath.Dir(path), *p)
				}
			}
			tr := f.Tournaments[0]
			if tr.Live != want {
				t.Fatalf("Live = %+v, want %+v", tr.Live, want)
			}
			// Not part of the games: the snapshot (and so a resume) is
			// the same with or without the files.
			snap, err := tr.Snapshot(f)
			if err != nil {
				t.Fatal(err)
			}
			text, _ := snap.Encode()
			if hash == "" {
				hash = text
			} else if text != hash {
				t.Fatalf("the snapshot changed with %s:\n%s", c.keys, text)
			}
		})
	}
}

func TestLiveOutBad(t *testing.T) {
	cases := []struct{ keys, want string }{
		{`pgn_out = 3`, `tournament[0].pgn_out: want a file name or a table`},
		{`pgn_out = ""`, `tournament[0].pgn_out: empty file name`},
		{`pgn_out = { nodes = true }`, `tournament[0].pgn_out: missing file`},
		{`pgn_out = { file = "g.pgn", pvs = true }`, `tournament[0].pgn_out.pvs: unknown key`},
		{`pgn_out = { file = "g.pgn", notation = "fan" }`, `tournament[0].pgn_out.notation: unknown value "fan"`},
		{`pgn_out = { file = "g.pgn", append = "no" }`, `tournament[0].pgn_out.append: want true or false`},
		{`pgn_out = { file = "g.pgn", dialect = "cutechess" }`, `tournament[0].pgn_out.dialect: unknown value "cutechess"`},
		{`event = ""`, `tournament[0].event: empty`},
		{`site = 3`, `tournament[0].site: want a string`},
		{`pgn_out = { file = "g.pgn", nodes = "yes" }`, `tournament[0].pgn_out.nodes: want true or false, got string "yes"`},
		{`epd_out = 1`, `tournament[0].epd_out: want a file name or a table { file = "games.epd", append = false }, got integer 1`},
		{`epd_out = ""`, `tournament[0].epd_out: empty file name`},
		{`epd_out = { append = false }`, `tournament[0].epd_out: missing file (file = "games.epd")`},
		{`epd_out = { file = "" }`, `tournament[0].epd_out: empty file name`},
		{`epd_out = { file = "g.epd", nodes = true }`, `tournament[0].epd_out.nodes: unknown key`},
		{`epd_out = { file = 3 }`, `tournament[0].epd_out.file: want a string, got integer 3`},
		{`epd_out = { file = "g.epd", append = 0 }`, `tournament[0].epd_out.append: want true or false`},
		{`pgn_out = { file = "g.pgn", min = true }`, `tournament[0].pgn_out.min: fastchess's minimal PGN, so only with dialect = "fastchess"`},
		{"pgn_out = \"g\"\nepd_out = \"g\"", `tournament[0].epd_out: the same file as pgn_out`},
	}
	for _, c := range cases {
		_, _, err := load(t, engAB+tourn("t", c.keys+"\n"+limits), nil)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: got %v, want %q", c.keys, err, c.want)
		} else if !strings.Contains(c.want, "empty file name") && strings.Contains(err.Error(), "empty file name") {
			t.Errorf("%s: %v: a second, spurious error", c.keys, err) // a file of the wrong type is not empty
		}
	}
}

// A live file that is the openings file would append games to the book.
func TestLiveOutIsTheBook(t *testing.T) {
	for key, want := range map[string]string{
		`epd_out = "book.epd"`: "tournament[0].epd_out: ",
		`pgn_out = "book.epd"`: "tournament[0].pgn_out: ",
	} {
		_, _, err := load(t, engAB+tourn("t", key+"\n"+limits+"[tournament.openings]\nfile = \"book.epd\"\n"), map[string]string{"book.epd": epdBook})
		if err == nil || !strings.Contains(err.Error(), want) || !strings.Contains(err.Error(), "is the openings file: the games would be appended to the book") {
			t.Errorf("%s: %v", key, err)
		}
	}
}

// event and site (fastchess's -event, -site) are in the snapshot only when
// set, so that existing tournaments keep theirs; wait is never in it.
func TestEventSiteWait(t *testing.T) {
	snap := func(keys string) (Tournament, string) {
		t.Helper()
		f, _, err := load(t, engAB+tourn("t", keys+"\n"+limits), nil)
		if err != nil {
			t.Fatal(err)
		}
		s, err := f.Tournaments[0].Snapshot(f)
		if err != nil {
			t.Fatal(err)
		}
		text, _ := s.Encode()
		return f.Tournaments[0], text
	}
	_, plain := snap("")
	if strings.Contains(plain, `"event"`) || strings.Contains(plain, `"site"`) {
		t.Fatalf("a snapshot without event and site names them:\n%s", plain)
	}
	tr, waited := snap(`wait = "250ms"`)
	if waited != plain || tr.Wait.Milliseconds() != 250 {
		t.Errorf("wait = 250ms: Wait %v, snapshot changed: %v", tr.Wait, waited != plain)
	}
	tr, tagged := snap("event = \"Weekly\"\nsite = \"lab\"")
	if !strings.Contains(tagged, `"event":"Weekly"`) || !strings.Contains(tagged, `"site":"lab"`) {
		t.Errorf("the snapshot lacks event and site:\n%s", tagged)
	}
	if tr.PGNEvent() != "Weekly" || tr.PGNSite() != "lab" {
		t.Errorf("PGNEvent %q, PGNSite %q", tr.PGNEvent(), tr.PGNSite())
	}
	tr, _ = snap("")
	if tr.PGNEvent() != "t" || tr.PGNSite() != "selfplay" {
		t.Errorf("defaults: PGNEvent %q, PGNSite %q", tr.PGNEvent(), tr.PGNSite())
	}
}
