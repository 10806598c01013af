package config

import (
	"crypto/sha256"
	"errors"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"selfplay/internal/sysmem"
	"slices"
	"strings"
	"testing"
	"time"

	"selfplay/engines/search"
	"selfplay/openings"
	"selfplay/stats"
)

// writeFiles writes name -> content into a fresh temporary folder and
// returns the folder.
func writeFiles(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for name, content := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// load writes the config (and any extra files) to a temporary folder and
// loads it.
func load(t *testing.T, config string, extra map[string]string) (*File, string, error) {
	t.Helper()
	files := map[string]string{"tournaments.toml": config}
	maps.Copy(files, extra)
	dir := writeFiles(t, files)
	path := filepath.Join(dir, "tournaments.toml")
	f, err := Load(path)
	return f, path, err
}

func mustLoad(t *testing.T, config string, extra map[string]string) *File {
	t.Helper()
	f, _, err := load(t, config, extra)
	if err != nil {
		t.Fatalf("Load: %v", err)
	}
	return f
}

const engAB = `
[engines.a]
preset = "plain"

[engines.b]
preset = "fhr"

[engines.c]
preset = "null-r3"
`

const minimal = engAB + `
[[tournament]]
name = "t"
engines = ["a", "b"]

[tournament.limits]
nodes = 1000
`

func TestMinimalDefaults(t *testing.T) {
	f, path, err := load(t, minimal, nil)
	if err != nil {
		t.Fatal(err)
	}
	dir := filepath.Dir(path)
	if f.Path != path || f.Dir != dir || f.Database != filepath.Join(dir, "selfplay.db") {
		t.Errorf("Path %q Dir %q Database %q", f.Path, f.Dir, f.Database)
	}
	var names []string
	for _, e := range f.Engines {
		names = append(names, e.Name)
	}
	if !reflect.DeepEqual(names, []string{"a", "b", "c"}) {
		t.Errorf("engines %v", names)
	}
	a, _ := f.Engine("a")
	plain, _ := search.Preset("plain")
	if a.Preset != "plain" || a.Hash != 16 || a.Options != plain || len(a.Switches) != 0 || a.External() {
		t.Errorf("engine a: %+v", a)
	}
	if len(f.Tournaments) != 1 {
		t.Fatalf("%d tournaments", len(f.Tournaments))
	}
	got := f.Tournaments[0]
	want := Tournament{
		Name:        "t",
		Engines:     []string{"a", "b"},
		Format:      FormatMatch,
		Rounds:      1,
		Concurrency: runtime.NumCPU(),
		Seed:        1,
		Schedule:    ScheduleSelfplay,
		Openings:    Openings{Set: "fhr25", Order: "sequential", List: openings.FHR25()},
		Limits:      Limits{Nodes: 1000, TimeMargin: 100 * time.Millisecond, MoveTimeout: 2 * time.Minute},
		Adjudication: Adjudication{Rules: RulesSelfplay,
			Move: 100, Policy: "referee", Referee: "plain", RefereeOptions: plain, RefereeNodes: 200000, Margin: 200,
		},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("tournament\n got %+v\nwant %+v", got, want)
	}
	if g := got.Games(25); g != 50 {
		t.Errorf("Games(25) = %d", g)
	}
}

// example is the example of the config documentation.
const example = `
database = "data/selfplay.db"

[engines.plain]
preset = "plain"

[engines.fhr]
preset = "fhr"
hash = 32

[engines.custom]
preset = "nmr-r3-4"
dr = 2
r = "3~4"
ext-recapture = true

[engines.sf]
command = "/usr/games/stockfish"
args = ["--flag"]
options = { "Skill Level" = 3, Hash = 16, Threads = 1, Ponder = false, Contempt = 0.5 }
dir = "."
init_timeout = "10s"
ping_timeout = "2s"

[[tournament]]
name = "fhr-vs-plain"
engines = ["fhr", "plain"]
format = "match"
rounds = 2
concurrency = 2
seed = 7

[tournament.openings]
set = "two-ply"
order = "random"

[tournament.limits]
nodes = 20000
nodes_jitter = 0.1

[tournament.adjudication]
move = 80
policy = "agree"
referee = "plain:ext-check=false"
referee_nodes = 5000
margin = 150
resign_score = 600
resign_moves = 3
draw_score = 10
draw_moves = 8
draw_move_from = 40

[tournament.sprt]
elo0 = 0
elo1 = 5
alpha = 0.05
beta = 0.1
model = "logistic"

[[tournament]]
name = "gauntlet"
engines = ["custom", "plain", "fhr", "sf"]
format = "gauntlet"
sprt = { elo0 = 0, elo1 = 5 }   # an error: SPRT is for matches (TestBad)
`

func TestExample(t *testing.T) {
	// The inline sprt on a gauntlet is an error; cut it for this test.
	config := strings.Replace(example, "sprt = { elo0 = 0, elo1 = 5 }   # an error: SPRT is for matches (TestBad)", `
[tournament.limits]
tc = "40/120+0.5"
time_margin = "50ms"

[[tournament]]
name = "rr"
engines = ["plain", "fhr", "custom"]
[tournament.limits]
movetime = "100ms"
[tournament.openings]
file = "book.pgn"
[tournament.adjudication]
move = 0

[[tournament]]
name = "sprt-inline"
engines = ["fhr", "plain"]
sprt = { elo0 = -1.5, elo1 = 3 }
[tournament.limits]
depth = 6
[tournament.openings]
file = "book.EPD"
`, 1)
	f, path, err := load(t, config, map[string]string{"book.pgn": pgnBook, "book.EPD": epdBook})
	if err != nil {
		t.Fatal(err)
	}
	dir := filepath.Dir(path)
	if f.Database != filepath.Join(dir, "data", "selfplay.db") {
		t.Errorf("database %q", f.Database)
	}

	fhr, _ := f.Engine("fhr")
	if fhr.Hash != 32 || !fhr.Options.FHR {
		t.Errorf("fhr: %+v", fhr)
	}
	custom, _ := f.Engine("custom")
	o := custom.Options
	if o.Null != search.NullNMR || o.NullDR != 2 || o.NullRMin != 3 || o.NullRMax != 4 || !o.ExtRecapture {
		t.Errorf("custom options: %+v", o)
	}
	if want := map[string]string{"dr": "2", "r": "3~4", "ext-recapture": "true"}; !reflect.DeepEqual(custom.Switches, want) {
		t.Errorf("custom switches %v", custom.Switches)
	}
	sf, _ := f.Engine("sf")
	wantOpts := map[string]string{"Skill Level": "3", "Hash": "16", "Threads": "1", "Ponder": "false", "Contempt": "0.5"}
	if !sf.External() || sf.Command != "/usr/games/stockfish" || !reflect.DeepEqual(sf.Args, []string{"--flag"}) ||
		!reflect.DeepEqual(sf.UCIOptions, wantOpts) || sf.Dir != dir || sf.InitTimeout != 10*time.Second ||
		sf.PingTimeout != 2*time.Second {
		t.Errorf("sf: %+v", sf)
	}

	if len(f.Tournaments) != 4 {
		t.Fatalf("%d tournaments", len(f.Tournaments))
	}
	t0 := f.Tournaments[0]
	if t0.Rounds != 2 || t0.Concurrency != 2 || t0.Seed != 7 ||
		!reflect.DeepEqual(t0.Openings, Openings{Set: "two-ply", Order: "random", List: openings.TwoPly()}) ||
		t0.Limits != (Limits{Nodes: 20000, NodesJitter: 0.1, TimeMargin: 100 * time.Millisecond, MoveTimeout: 2 * time.Minute}) {
		t.Errorf("tournament 0: %+v", t0)
	}
	referee, err := search.ParseVariant("plain:ext-check=false")
	if err != nil {
		t.Fatal(err)
	}
	wantAdj := Adjudication{Rules: RulesSelfplay, Move: 80, Policy: "agree", Referee: "plain:ext-check=false", RefereeOptions: referee, RefereeNodes: 5000, Margin: 150,
		ResignScore: 600, ResignMoves: 3, DrawScore: 10, DrawMoves: 8, DrawMoveFrom: 40}
	if plain, _ := search.Preset("plain"); referee == plain {
		t.Fatal("the referee switch changes nothing: the test cannot tell the options apart")
	}
	if t0.Adjudication != wantAdj {
		t.Errorf("adjudication %+v", t0.Adjudication)
	}
	if t0.SPRT == nil || *t0.SPRT != (stats.SPRT{Elo0: 0, Elo1: 5, Alpha: 0.05, Beta: 0.1, Model: stats.LogisticElo}) {
		t.Errorf("sprt %+v", t0.SPRT)
	}
	if g := t0.Games(400); g != 1600 {
		t.Errorf("games %d", g)
	}

	t1 := f.Tournaments[1]
	if t1.Format != FormatGauntlet || len(t1.Pairings()) != 3 || t1.Limits.TC == nil ||
		*t1.Limits.TC != (TimeControl{Moves: 40, Base: 120 * time.Second, Increment: 500 * time.Millisecond, Text: "40/120+0.5"}) ||
		t1.Limits.TimeMargin != 50*time.Millisecond {
		t.Errorf("tournament 1: %+v %+v", t1, t1.Limits.TC)
	}

	t2 := f.Tournaments[2]
	o2 := t2.Openings
	if t2.Format != FormatRoundRobin || len(t2.Pairings()) != 3 || t2.Limits.MoveTime != 100*time.Millisecond ||
		o2.Set != "" || o2.File != filepath.Join(dir, "book.pgn") || o2.Plies != 8 || o2.Order != "sequential" ||
		t2.Adjudication.Move != 0 {
		t.Errorf("tournament 2: %+v", t2)
	}
	// The openings as loaded, with the hash of the file's bytes.
	list, err := openings.Load(t2.OpeningSpec())
	if err != nil || len(list) != 2 || len(list[0].Moves) != 8 || !reflect.DeepEqual(o2.List, list) {
		t.Errorf("openings of tournament 2: %d, %v; kept %+v", len(list), err, o2.List)
	}
	if want := fmt.Sprintf("%x", sha256.Sum256([]byte(pgnBook))); o2.Hash != want {
		t.Errorf("openings hash %q, want %q", o2.Hash, want)
	}

	t3 := f.Tournaments[3]
	if t3.SPRT == nil || *t3.SPRT != (stats.SPRT{Elo0: -1.5, Elo1: 3, Alpha: 0.05, Beta: 0.05, Model: stats.NormalizedElo}) ||
		t3.Limits.Depth != 6 || t3.Openings.File != filepath.Join(dir, "book.EPD") || t3.Openings.Plies != 0 ||
		len(t3.Openings.List) != 2 || t3.Openings.List[1].ID != "d4" ||
		t3.Openings.Hash != fmt.Sprintf("%x", sha256.Sum256([]byte(epdBook))) {
		t.Errorf("tournament 3: %+v %+v", t3, t3.SPRT)
	}
}

const pgnBook = `[Event "a"]
[Result "*"]

1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 4. Ba4 Nf6 5. O-O Be7 *

[Event "b"]
[Result "*"]

1. d4 d5 2. c4 e6 3. Nc3 Nf6 4. Bg5 Be7 5. e3 O-O *
`

const epdBook = `# two positions
rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 id "e4";
rnbqkbnr/pppppppp/8/8/3P4/8/PPP1PPPP/RNBQKBNR b KQkq d3 id "d4";
`

// plies is the most moves taken from each game of a PGN file; "all" takes
// every move (fastchess's default).
func TestPGNPlies(t *testing.T) {
	for _, c := range []struct {
		plies string
		want  int
		moves []int // of each opening
	}{
		{"4", 4, []int{4, 4}},
		{"20", 20, []int{10, 10}},
		{`"all"`, openings.AllPlies, []int{10, 10}},
	} {
		f := mustLoad(t, engAB+`
[[tournament]]
name = "p"
engines = ["a", "b"]
[tournament.openings]
file = "book.pgn"
plies = `+c.plies+`
[tournament.limits]
depth = 3
`, map[string]string{"book.pgn": pgnBook})
		o := f.Tournaments[0].Openings
		var moves []int
		for _, op := range o.List {
			moves = append(moves, len(op.Moves))
		}
		if o.Plies != c.want || !slices.Equal(moves, c.moves) {
			t.Errorf("plies = %s: plies %d, openings of %v plies; want %d, %v", c.plies, o.Plies, moves, c.want, c.moves)
		}
	}
}

func TestDefaultFormatAndOrder(t *testing.T) {
	f := mustLoad(t, `
[engines.z]
preset = "plain"
[engines.a]
preset = "fhr"
[engines.m]
preset = "null-r2"

[[tournament]]
name = "three"
engines = ["z", "a", "m"]
[tournament.limits]
nodes = 10
`, nil)
	var names []string
	for _, e := range f.Engines {
		names = append(names, e.Name)
	}
	if !reflect.DeepEqual(names, []string{"z", "a", "m"}) {
		t.Errorf("engine order %v, want the file's", names)
	}
	if tr := f.Tournaments[0]; tr.Format != FormatRoundRobin || tr.Games(25) != 150 {
		t.Errorf("format %q games %d", tr.Format, tr.Games(25))
	}
}

// tourn is a valid tournament table with the given extra lines.
func tourn(name string, extra string) string {
	return "\n[[tournament]]\nname = \"" + name + "\"\nengines = [\"a\", \"b\"]\n" + extra + "\n"
}

const limits = "[tournament.limits]\nnodes = 1000\n"

func TestBad(t *testing.T) {
	badEPD := "# line 1\n" + strings.Split(epdBook, "\n")[1] + "\nrnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBN w KQkq -\n"
	badPGN := "[Event \"a\"]\n\n1. e4 e5 *\n\n[Event \"b\"]\n\n1. e4 e4 *\n"
	files := map[string]string{"bad.epd": badEPD, "bad.pgn": badPGN, "good.pgn": pgnBook, "empty.epd": "# nothing\n\n", "book.epd": epdBook}
	cases := []struct {
		name   string
		config string
		want   []string
	}{
		{"syntax error", "[engines.a]\npreset = \"plain\"\n\n[engines.b]\npreset = \n", []string{":5:", "TOML syntax error"}},
		{"syntax error duplicate key", engAB + "[engines.a]\npreset = \"fhr\"\n", []string{":10:2:", "syntax", "already been defined"}},
		{"unknown top key", "databse = \"x.db\"\n" + minimal, []string{"databse: unknown key", `did you mean "database"`, "valid keys: database, log, engines, tournament"}},
		{"tournaments plural", strings.Replace(minimal, "[[tournament]]", "[[tournaments]]", 1), []string{"tournaments: unknown key", `did you mean "tournament"`}},
		{"single tournament table", strings.NewReplacer("[[tournament]]", "[tournament]").Replace(minimal), []string{"tournament: want an array of tables", "[[tournament]]"}},
		{"no tournaments", engAB, []string{"tournament: no tournaments"}},
		{"bad database type", "database = 3\n" + minimal, []string{"database: want a string, got integer 3"}},

		{"unknown engine key", engAB + "hashh = 3\n" + tourn("t", limits), []string{"engines.c.hashh: unknown key", `did you mean "hash"`, "preset, hash, null, r"}},
		{"engine not a table", "[engines]\na = 3\n" + tourn("t", limits), []string{"engines.a: want a table"}},
		{"missing preset", engAB + "[engines.x]\nhash = 16\n" + tourn("t", limits), []string{"engines.x: missing preset or command", "plain, fhr"}},
		{"misspelt preset", engAB + "[engines.x]\nprest = \"fhr\"\n" + tourn("t", limits), []string{"engines.x.prest: unknown key", `did you mean "preset"`, "valid keys: preset, hash, command", "engines.x: missing preset or command"}},
		{"misspelt command", engAB + "[engines.x]\ncomand = \"sf\"\n" + tourn("t", limits), []string{"engines.x.comand: unknown key", `did you mean "command"`}},
		{"preset and command", engAB + "[engines.x]\npreset = \"plain\"\ncommand = \"sf\"\n" + tourn("t", limits), []string{"engines.x: both preset and command"}},
		{"unknown preset", engAB + "[engines.x]\npreset = \"fhrr\"\n" + tourn("t", limits), []string{"engines.x.preset: unknown preset \"fhrr\"", `did you mean "fhr"`, "valid presets: plain, fhr, null-r1"}},
		{"preset type", engAB + "[engines.x]\npreset = 3\n" + tourn("t", limits), []string{"engines.x.preset: want a string, got integer 3"}},
		{"bad switch value", engAB + "[engines.x]\npreset = \"nmr-r3-4\"\ndr = 7\n" + tourn("t", limits), []string{"engines.x.dr: switch dr", "\"7\"", "1..4"}},
		{"bad switch string", engAB + "[engines.x]\npreset = \"nmr-r3-4\"\nr = \"5~3\"\n" + tourn("t", limits), []string{"engines.x.r: switch r", "N~M"}},
		{"bad switch type", engAB + "[engines.x]\npreset = \"plain\"\nfutility = 1.5\n" + tourn("t", limits), []string{"engines.x.futility: want an integer, boolean or string, got float 1.5"}},
		{"bad switch bool", engAB + "[engines.x]\npreset = \"plain\"\nfhr = \"yes\"\n" + tourn("t", limits), []string{"engines.x.fhr: switch fhr", "not true or false"}},
		{"options do not validate", engAB + "[engines.x]\npreset = \"plain\"\nnull = \"standard\"\n" + tourn("t", limits), []string{"engines.x: preset \"plain\" with these switches cannot run", "needs r"}},
		{"hash range", engAB + "[engines.x]\npreset = \"plain\"\nhash = 0\n" + tourn("t", limits), []string{"engines.x.hash: 0 is out of range: want 1..65536"}},
		{"hash too large", engAB + "[engines.x]\npreset = \"plain\"\nhash = 9223372036854775807\n" + tourn("t", limits), []string{"engines.x.hash: 9223372036854775807 is out of range: want 1..65536"}},
		{"external key on preset", engAB + "[engines.x]\npreset = \"plain\"\nargs = [\"-v\"]\n" + tourn("t", limits), []string{"engines.x.args: args applies only to external UCI engines"}},
		{"switch on external", engAB + "[engines.sf]\ncommand = \"sf\"\ndr = 2\n" + tourn("t", limits), []string{"engines.sf.dr: switch dr applies only to in-process engines"}},
		{"hash on external", engAB + "[engines.sf]\ncommand = \"sf\"\nhash = 2\n" + tourn("t", limits), []string{"engines.sf.hash: hash applies only to in-process engines", "options"}},
		{"empty command", engAB + "[engines.sf]\ncommand = \" \"\n" + tourn("t", limits), []string{"engines.sf.command: empty command"}},
		{"missing dir", engAB + "[engines.sf]\ncommand = \"sf\"\ndir = \"nowhere\"\n" + tourn("t", limits), []string{"engines.sf.dir:", "no such file or directory"}},
		{"dir is a file", engAB + "[engines.sf]\ncommand = \"sf\"\ndir = \"book.epd\"\n" + tourn("t", limits), []string{"engines.sf.dir:", "not a directory"}},
		{"bad init_timeout", engAB + "[engines.sf]\ncommand = \"sf\"\ninit_timeout = \"10\"\n" + tourn("t", limits), []string{"engines.sf.init_timeout:", "not a duration"}},
		{"bad ping_timeout", engAB + "[engines.sf]\ncommand = \"sf\"\nping_timeout = \"0s\"\n" + tourn("t", limits), []string{"engines.sf.ping_timeout: must be > 0"}},
		{"ping_timeout on in-process", engAB + "[engines.x]\npreset = \"plain\"\nping_timeout = \"1s\"\n" + tourn("t", limits), []string{"engines.x.ping_timeout", "only to external UCI engines"}},
		{"bad uci option type", engAB + "[engines.sf]\ncommand = \"sf\"\noptions = { Hash = [1] }\n" + tourn("t", limits), []string{"engines.sf.options.Hash: want an integer, float, boolean or string, got array"}},
		{"uci option with newline", engAB + "[engines.sf]\ncommand = \"sf\"\noptions = { Name = \"a\\nquit\" }\n" + tourn("t", limits), []string{"engines.sf.options.Name:", "control characters"}},
		{"bad engine name", engAB + "[engines.\"a\\tb\"]\npreset = \"plain\"\n" + tourn("t", limits), []string{"engines.\"a\\tb\"", "non-printable"}},

		{"unknown tournament key", engAB + tourn("t", "round = 2\n"+limits), []string{"tournament[0].round: unknown key", `did you mean "rounds"`, "valid keys: name, engines, format"}},
		{"wrong type rounds", engAB + tourn("t", "rounds = \"two\"\n"+limits), []string{"tournament[0].rounds: want an integer, got string \"two\""}},
		{"rounds zero", engAB + tourn("t", "rounds = 0\n"+limits), []string{"tournament[0].rounds: 0 is out of range: want >= 1"}},
		{"rounds too many", engAB + tourn("t", "rounds = 21990232555\n"+limits), []string{"tournament[0].rounds: 21990232555 is out of range: want 1..2147483647"}},
		{"concurrency zero", engAB + tourn("t", "concurrency = 0\n"+limits), []string{"tournament[0].concurrency:", "want 1..1024"}},
		{"movetime too long", engAB + tourn("t", "[tournament.limits]\nmovetime = \"2000000h\"\ntime_margin = \"1000000h\"\n"), []string{"tournament[0].limits.movetime: \"2000000h\" is out of range: want at most 8760h0m0s (a year)", "limits.time_margin"}},
		{"tc too long", engAB + tourn("t", "[tournament.limits]\ntc = \"40/31536001\"\n"), []string{"tournament[0].limits.tc:", "too large: want at most 8760h0m0s"}},
		{"concurrency too large", engAB + tourn("t", "concurrency = 100000\n"+limits), []string{"tournament[0].concurrency: 100000 is out of range: want 1..1024"}},
		{"too many games", engAB + "[[tournament]]\nname = \"t\"\nengines = [\"a\", \"b\", \"c\"]\nrounds = 2147483647\n[tournament.openings]\nset = \"two-ply\"\n" + limits,
			[]string{"tournament[0].rounds: the tournament is too large: 3 pairings x 400 openings x 2 colors x 2147483647 rounds is more than 1099511627776 games"}},
		{"negative seed", engAB + tourn("t", "seed = -1\n"+limits), []string{"tournament[0].seed:", ">= 0"}},
		{"missing name", engAB + "[[tournament]]\nengines = [\"a\", \"b\"]\n" + limits, []string{"tournament[0]: missing name"}},
		{"name with control character", engAB + "[[tournament]]\nname = \"a\\u0007b\"\nengines = [\"a\", \"b\"]\n" + limits, []string{"tournament[0].name:", "non-printable", "U+0007"}},
		{"empty name", engAB + tourn("", limits), []string{"tournament[0].name: empty name"}},
		{"duplicate tournament", engAB + tourn("t", limits) + tourn("u", limits) + tourn("t", limits), []string{"tournament[2].name: duplicate tournament name \"t\" (also tournament[0])"}},
		{"engines wrong type", engAB + "[[tournament]]\nname = \"t\"\nengines = \"a\"\n" + limits, []string{"tournament[0].engines: want an array of strings, got string \"a\""}},
		{"engines element type", engAB + "[[tournament]]\nname = \"t\"\nengines = [\"a\", 2]\n" + limits, []string{"tournament[0].engines[1]: want a string, got integer 2"}},
		{"missing engines", engAB + "[[tournament]]\nname = \"t\"\n" + limits, []string{"tournament[0]: missing engines"}},
		{"match with 1 engine", engAB + "[[tournament]]\nname = \"t\"\nformat = \"match\"\nengines = [\"a\"]\n" + limits, []string{"tournament[0].engines: want at least 2 engines, got 1"}},
		{"match with 3 engines", engAB + "[[tournament]]\nname = \"t\"\nformat = \"match\"\nengines = [\"a\", \"b\", \"c\"]\n" + limits, []string{"tournament[0].engines: format \"match\" needs exactly 2 engines, got 3"}},
		{"one engine", engAB + "[[tournament]]\nname = \"t\"\nengines = [\"a\"]\n" + limits, []string{"tournament[0].engines: want at least 2 engines, got 1"}},
		{"undefined engine", engAB + "[[tournament]]\nname = \"t\"\nengines = [\"a\", \"fhrr\"]\n" + limits, []string{"tournament[0].engines: engine \"fhrr\" is not defined", "defined engines: a, b, c"}},
		{"engine listed twice", engAB + "[[tournament]]\nname = \"t\"\nengines = [\"a\", \"a\", \"b\"]\nformat = \"round-robin\"\n" + limits, []string{"tournament[0].engines: engine \"a\" is listed twice"}},
		{"bad format", engAB + tourn("t", "format = \"swiss\"\n"+limits), []string{"tournament[0].format: unknown value \"swiss\"", "valid: match, gauntlet, round-robin"}},

		{"missing limits", engAB + tourn("t", ""), []string{"tournament[0].limits: missing", "nodes, depth, movetime, tc"}},
		{"limits not a table", engAB + tourn("t", "limits = 5\n"), []string{"tournament[0].limits: want a table, got integer 5"}},
		{"no limit", engAB + tourn("t", "[tournament.limits]\ntime_margin = \"1s\"\n"), []string{"tournament[0].limits: no limit", "exactly one of nodes, depth, movetime, tc"}},
		{"two limits", engAB + tourn("t", "[tournament.limits]\nnodes = 5\ndepth = 3\n"), []string{"tournament[0].limits: nodes and depth", "exactly one"}},
		{"unknown limits key", engAB + tourn("t", "[tournament.limits]\nnodes = 5\nnode_jitter = 0.1\n"), []string{"tournament[0].limits.node_jitter: unknown key", `did you mean "nodes_jitter"`}},
		{"nodes zero", engAB + tourn("t", "[tournament.limits]\nnodes = 0\n"), []string{"tournament[0].limits.nodes: 0 is out of range: want >= 1"}},
		{"nodes float", engAB + tourn("t", "[tournament.limits]\nnodes = 2e4\n"), []string{"tournament[0].limits.nodes: want an integer, got float 20000"}},
		{"depth range", engAB + tourn("t", "[tournament.limits]\ndepth = 101\n"), []string{"tournament[0].limits.depth: 101 is out of range: want 1..100"}},
		{"movetime zero", engAB + tourn("t", "[tournament.limits]\nmovetime = \"0s\"\n"), []string{"tournament[0].limits.movetime: must be > 0"}},
		{"movetime not duration", engAB + tourn("t", "[tournament.limits]\nmovetime = 100\n"), []string{"tournament[0].limits.movetime: want a duration string"}},
		{"bad tc", engAB + tourn("t", "[tournament.limits]\ntc = \"40/0+1\"\n"), []string{"tournament[0].limits.tc: time control \"40/0+1\"", "time must be > 0"}},
		{"tc wrong type", engAB + tourn("t", "[tournament.limits]\ntc = 300\n"), []string{"tournament[0].limits.tc: want a time control string", "got integer 300"}},
		{"jitter without nodes", engAB + tourn("t", "[tournament.limits]\ndepth = 5\nnodes_jitter = 0.1\n"), []string{"tournament[0].limits.nodes_jitter: applies only with a nodes limit"}},
		{"jitter range", engAB + tourn("t", "[tournament.limits]\nnodes = 5\nnodes_jitter = 0.7\n"), []string{"tournament[0].limits.nodes_jitter: 0.7 is out of range", "<= 0.5"}},
		{"bad time margin", engAB + tourn("t", "[tournament.limits]\nmovetime = \"1s\"\ntime_margin = \"-1s\"\n"), []string{"tournament[0].limits.time_margin:", "negative"}},

		{"unknown adjudication key", engAB + tourn("t", limits+"[tournament.adjudication]\nmoves = 80\n"), []string{"tournament[0].adjudication.moves: unknown key", `did you mean "move"`}},
		{"bad policy", engAB + tourn("t", limits+"[tournament.adjudication]\npolicy = \"engines\"\n"), []string{"tournament[0].adjudication.policy: unknown value \"engines\"", "valid: referee, agree, draw"}},
		{"bad referee", engAB + tourn("t", limits+"[tournament.adjudication]\nreferee = \"stockfish\"\n"), []string{"tournament[0].adjudication.referee: bad referee variant", "unknown variant preset \"stockfish\""}},
		{"bad referee switch", engAB + tourn("t", limits+"[tournament.adjudication]\nreferee = \"plain:dr=9\"\n"), []string{"tournament[0].adjudication.referee:", "switch dr"}},
		{"negative move", engAB + tourn("t", limits+"[tournament.adjudication]\nmove = -1\n"), []string{"tournament[0].adjudication.move: -1 is out of range"}},
		{"referee nodes", engAB + tourn("t", limits+"[tournament.adjudication]\nreferee_nodes = 0\n"), []string{"tournament[0].adjudication.referee_nodes:", ">= 1"}},
		{"resign half set", engAB + tourn("t", limits+"[tournament.adjudication]\nresign_score = 500\n"), []string{"tournament[0].adjudication: resign_score = 500 and resign_moves = 0"}},
		{"draw without moves", engAB + tourn("t", limits+"[tournament.adjudication]\ndraw_score = 5\n"), []string{"tournament[0].adjudication: draw_score and draw_move_from need draw_moves > 0"}},

		{"sprt on round robin", engAB + "[[tournament]]\nname = \"t\"\nengines = [\"a\", \"b\", \"c\"]\nsprt = { elo0 = 0, elo1 = 5 }\n" + limits, []string{"tournament[0].sprt: SPRT applies only to format = \"match\"", "\"round-robin\""}},
		{"sprt on gauntlet", example, []string{"tournament[1].sprt: SPRT applies only to format = \"match\"", "\"gauntlet\""}},
		{"bad sprt model", engAB + tourn("t", limits+"[tournament.sprt]\nelo0 = 0\nelo1 = 5\nmodel = \"bayes\"\n"), []string{"tournament[0].sprt.model: unknown value \"bayes\"", "valid: normalized, logistic"}},
		{"sprt elo order", engAB + tourn("t", limits+"[tournament.sprt]\nelo0 = 5\nelo1 = 0\n"), []string{"tournament[0].sprt: elo0 (5) must be less than elo1 (0)"}},
		{"sprt alpha", engAB + tourn("t", limits+"[tournament.sprt]\nelo0 = 0\nelo1 = 5\nalpha = 0\n"), []string{"tournament[0].sprt.alpha: 0 is out of range: want 0 < alpha < 1"}},
		{"sprt beta", engAB + tourn("t", limits+"[tournament.sprt]\nelo0 = 0\nelo1 = 5\nbeta = 1\n"), []string{"tournament[0].sprt.beta:", "0 < beta < 1"}},
		{"sprt missing elo1", engAB + tourn("t", limits+"[tournament.sprt]\nelo0 = 0\n"), []string{"tournament[0].sprt: missing elo1"}},
		{"sprt unknown key", engAB + tourn("t", limits+"[tournament.sprt]\nelo0 = 0\nelo1 = 5\nlower = 1\n"), []string{"tournament[0].sprt.lower: unknown key", "valid keys: elo0, elo1, alpha, beta, model"}},
		{"sprt wrong type", engAB + tourn("t", limits+"[tournament.sprt]\nelo0 = \"0\"\nelo1 = 5\n"), []string{"tournament[0].sprt.elo0: want a number, got string \"0\""}},

		{"unknown set", engAB + tourn("t", limits+"[tournament.openings]\nset = \"fhr26\"\n"), []string{"tournament[0].openings.set: unknown value \"fhr26\"", "valid: fhr25, two-ply"}},
		{"set and file", engAB + tourn("t", limits+"[tournament.openings]\nset = \"fhr25\"\nfile = \"book.epd\"\n"), []string{"tournament[0].openings: both set and file"}},
		{"bad order", engAB + tourn("t", limits+"[tournament.openings]\norder = \"shuffled\"\n"), []string{"tournament[0].openings.order: unknown value \"shuffled\"", "valid: sequential, random"}},
		{"unknown openings key", engAB + tourn("t", limits+"[tournament.openings]\nbook = \"x.pgn\"\n"), []string{"tournament[0].openings.book: unknown key", "valid keys: set, file, plies, order"}},
		{"plies with set", engAB + tourn("t", limits+"[tournament.openings]\nplies = 4\n"), []string{"tournament[0].openings.plies: plies applies only to a .pgn file", "\"fhr25\""}},
		{"plies with epd", engAB + tourn("t", limits+"[tournament.openings]\nfile = \"book.epd\"\nplies = 4\n"), []string{"tournament[0].openings.plies: plies applies only to a .pgn file, not to an EPD file"}},
		{"plies zero", engAB + tourn("t", limits+"[tournament.openings]\nfile = \"good.pgn\"\nplies = 0\n"), []string{"tournament[0].openings.plies: 0 is out of range: want 1..1000"}},
		{"unknown file type", engAB + tourn("t", limits+"[tournament.openings]\nfile = \"book.txt\"\n"), []string{"tournament[0].openings.file:", "unknown file type \".txt\"", ".epd or .pgn"}},
		{"missing file", engAB + tourn("t", limits+"[tournament.openings]\nfile = \"missing.epd\"\n"), []string{"tournament[0].openings.file:", "missing.epd", "no such file"}},
		{"bad epd line", engAB + tourn("t", limits+"[tournament.openings]\nfile = \"bad.epd\"\n"), []string{"tournament[0].openings.file: openings:", "bad.epd:3:", "bad position"}},
		{"bad pgn game", engAB + tourn("t", limits+"[tournament.openings]\nfile = \"bad.pgn\"\nplies = 2\n"), []string{"tournament[0].openings.file: openings:", "bad.pgn:5: game 2"}},
		{"pgn bad with the default plies", engAB + tourn("t", limits+"[tournament.openings]\nfile = \"bad.pgn\"\n"), []string{"tournament[0].openings.file:", "bad.pgn:5: game 2"}},
		{"plies neither a number nor all", engAB + tourn("t", limits+"[tournament.openings]\nfile = \"good.pgn\"\nplies = \"most\"\n"),
			[]string{`tournament[0].openings.plies: want an integer 1..1000 or "all", got string "most"`}},
		{"all plies of an EPD file", engAB + tourn("t", limits+"[tournament.openings]\nfile = \"book.epd\"\nplies = \"all\"\n"),
			[]string{"tournament[0].openings.plies: plies applies only to a .pgn file, not to an EPD file"}},
		{"zero games", engAB + tourn("t", limits+"[tournament.openings]\nfile = \"empty.epd\"\n"), []string{"tournament[0].openings.file:", "empty.epd", "no openings", "zero games"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			f, path, err := load(t, c.config, files)
			if err == nil {
				t.Fatalf("no error; want one mentioning %q (got %d tournaments)", c.want, len(f.Tournaments))
			}
			if f != nil {
				t.Errorf("got a File with the error")
			}
			msg := err.Error()
			if !strings.Contains(msg, path) {
				t.Errorf("error does not name the file %s:\n%s", path, msg)
			}
			for _, w := range c.want {
				if !strings.Contains(msg, w) {
					t.Errorf("error does not mention %q:\n%s", w, msg)
				}
			}
			var es Errors
			if !errors.As(err, &es) || len(es) == 0 {
				t.Errorf("error is not an Errors: %T", err)
			}
		})
	}
}

// TestNoCascade: an invalid engine is still defined for the tournaments, so
// the only error is the engine's; every problem of a file is reported.
func TestNoCascade(t *testing.T) {
	_, _, err := load(t, engAB+"[engines.x]\npreset = \"plainn\"\n"+
		"[[tournament]]\nname = \"t\"\nengines = [\"a\", \"x\"]\n"+limits+
		"[[tournament]]\nname = \"u\"\nengines = [\"a\", \"b\"]\nrounds = 0\n"+limits, nil)
	if err == nil {
		t.Fatal("no error")
	}
	var es Errors
	if !errors.As(err, &es) || len(es) != 2 {
		t.Fatalf("want 2 problems, got:\n%v", err)
	}
	if !strings.Contains(es[0].Error(), "engines.x.preset") || es[0].Key != "engines.x.preset" ||
		!strings.Contains(es[1].Error(), "tournament[1].rounds") {
		t.Errorf("problems:\n%v", err)
	}
}

func TestSyntaxErrorPosition(t *testing.T) {
	_, path, err := load(t, "database = \"a.db\"\n\n[engines.a]\npreset = \"plain\" x\n", nil)
	var es Errors
	if !errors.As(err, &es) || len(es) != 1 {
		t.Fatalf("err %v", err)
	}
	e := es[0]
	if e.Line != 4 || e.Col < 1 || e.File != path || !strings.HasPrefix(e.Error(), path+":4:") {
		t.Errorf("line %d col %d: %v", e.Line, e.Col, e)
	}
}

func TestLoadMissingFile(t *testing.T) {
	_, err := Load(filepath.Join(t.TempDir(), "none.toml"))
	if err == nil || !strings.Contains(err.Error(), "none.toml") {
		t.Errorf("err %v", err)
	}
}

func TestExternalCommandResolution(t *testing.T) {
	f, path, err := load(t, engAB+`
[engines.bare]
command = "stockfish"
[engines.rel]
command = "./bin/engine"
[engines.indir]
command = "./engine"
dir = "."
`+tourn("t", limits), nil)
	if err != nil {
		t.Fatal(err)
	}
	dir, _ := filepath.Abs(filepath.Dir(path))
	for name, want := range map[string]string{
		"bare":  "stockfish",
		"rel":   filepath.Join(dir, "bin", "engine"),
		"indir": filepath.Join(dir, "engine"),
	} {
		e, _ := f.Engine(name)
		if e.Command != want {
			t.Errorf("%s: command %q, want %q", name, e.Command, want)
		}
	}
}

func TestDefaultConfig(t *testing.T) {
	f, err := Load("../tournaments.toml")
	if err != nil {
		t.Fatal(err)
	}
	want := []struct {
		name    string
		format  Format
		engines []string
		games   int
	}{
		{"fhr-vs-plain", FormatMatch, []string{"fhr", "plain"}, 50},
		{"nmr-vs-adaptive", FormatMatch, []string{"nmr-r3-4", "adaptive-r2-3"}, 800},
		{"null-move-round-robin", FormatRoundRobin, []string{"null-r1", "null-r2", "null-r3", "null-r4", "adaptive-r2-3", "verified-r3", "nmr-r3-4"}, 1050},
		{"falcon-nmr-vs-adaptive", FormatMatch, []string{"falcon-nmr-r3-4", "falcon-adaptive-r2-3"}, 800},
		{"nmr-vs-adaptive-2m", FormatMatch, []string{"nmr-r3-4", "adaptive-r2-3"}, 800},
		{"falcon-nmr-vs-adaptive-2m", FormatMatch, []string{"falcon-nmr-r3-4", "falcon-adaptive-r2-3"}, 800},
	}
	if len(f.Tournaments) != len(want) {
		t.Fatalf("%d tournaments, want %d", len(f.Tournaments), len(want))
	}
	for i, w := range want {
		tr := f.Tournaments[i]
		n := len(tr.Openings.List)
		if tr.Name != w.name || tr.Format != w.format || !reflect.DeepEqual(tr.Engines, w.engines) || tr.Games(n) != w.games {
			t.Errorf("tournament %d: %s %s %v %d games, want %+v", i, tr.Name, tr.Format, tr.Engines, tr.Games(n), w)
		}
		if tr.Limits.Nodes == 0 || tr.Adjudication.Move != 100 || tr.Adjudication.Policy != PolicyReferee {
			t.Errorf("tournament %s: limits %+v adjudication %+v", tr.Name, tr.Limits, tr.Adjudication)
		}
		for _, name := range tr.Engines {
			e, _ := f.Engine(name)
			if e.Preset != name {
				t.Errorf("engine %s has preset %q", name, e.Preset)
			}
		}
	}
	if f.Tournaments[0].Openings.Set != "fhr25" || f.Tournaments[1].Openings.Set != "two-ply" {
		t.Errorf("opening sets %+v %+v", f.Tournaments[0].Openings, f.Tournaments[1].Openings)
	}
}

func TestMoveTimeout(t *testing.T) {
	base := "[engines.a]\npreset = \"plain\"\n[engines.b]\npreset = \"fhr\"\n[[tournament]]\nname = \"t\"\nengines = [\"a\", \"b\"]\n[tournament.limits]\nnodes = 10\n"
	f, err := Parse([]byte(base+"move_timeout = \"5s\"\n"), "t.toml")
	if err != nil || f.Tournaments[0].Limits.MoveTimeout != 5*time.Second {
		t.Fatalf("move_timeout = 5s: %v", err)
	}
	if _, err := Parse([]byte(base+"move_timeout = \"-1s\"\n"), "t.toml"); err == nil || !strings.Contains(err.Error(), "tournament[0].limits.move_timeout") {
		t.Fatalf("negative move_timeout: %v", err)
	}
}

// A match listing one engine is one problem, not two on the same key.
func TestOneEngineMatchIsOneProblem(t *testing.T) {
	_, _, err := load(t, engAB+"[[tournament]]\nname = \"t\"\nformat = \"match\"\nengines = [\"a\"]\n"+limits, nil)
	var es Errors
	if !errors.As(err, &es) || len(es) != 1 || es[0].Key != "tournament[0].engines" {
		t.Fatalf("want 1 problem on tournament[0].engines, got:\n%v", err)
	}
}

func TestPairings(t *testing.T) {
	abcd := []string{"a", "b", "c", "d"}
	for _, c := range []struct {
		format  Format
		engines []string
		seeds   int
		want    [][2]string
	}{
		{FormatMatch, []string{"a", "b"}, 0, [][2]string{{"a", "b"}}},
		{FormatGauntlet, abcd, 0, [][2]string{{"a", "b"}, {"a", "c"}, {"a", "d"}}},
		{FormatGauntlet, abcd, 1, [][2]string{{"a", "b"}, {"a", "c"}, {"a", "d"}}},
		// fastchess's -seeds 2: the seeds play each other too
		// (schedule/base_scheduler.hpp:64-74; its PGN in
		// cmd/selfplay/testdata/fastchess-schedule/gauntlet2seeds.txt).
		{FormatGauntlet, abcd, 2, [][2]string{{"a", "b"}, {"a", "c"}, {"a", "d"}, {"b", "c"}, {"b", "d"}}},
		{FormatGauntlet, abcd, 3, [][2]string{{"a", "b"}, {"a", "c"}, {"a", "d"}, {"b", "c"}, {"b", "d"}, {"c", "d"}}},
		{FormatRoundRobin, abcd, 2, [][2]string{{"a", "b"}, {"a", "c"}, {"a", "d"}, {"b", "c"}, {"b", "d"}, {"c", "d"}}},
		{FormatRoundRobin, []string{"a", "b"}, 0, [][2]string{{"a", "b"}}},
	} {
		if got := Pairings(c.format, c.engines, c.seeds); !reflect.DeepEqual(got, c.want) {
			t.Errorf("Pairings(%s, %v, %d) = %v, want %v", c.format, c.engines, c.seeds, got, c.want)
		}
		tr := Tournament{Format: c.format, Engines: c.engines, Rounds: 3, GauntletSeeds: c.seeds}
		if !reflect.DeepEqual(tr.Pairings(), c.want) || tr.Games(5) != len(c.want)*5*2*3 {
			t.Errorf("%s %v: method Pairings %v, Games(5) %d", c.format, c.engines, tr.Pairings(), tr.Games(5))
		}
	}
}

func TestHashAndTablesWithinMemory(t *testing.T) {
	for _, c := range []struct {
		mib, physical int64
		want          string
	}{
		{16, 1024, ""},
		{1024, 1024, ""},
		{1025, 1024, "1025 MiB is more than this machine's physical memory (1024 MiB)"},
		{65536, 0, ""}, // memory unknown: the fixed bound only
		{65537, 0, "65537 MiB is out of range: want 1..65536"},
		{0, 1024, "0 MiB is out of range"},
		{-1, 1024, "-1 MiB is out of range"},
	} {
		err := checkHash(c.mib, c.physical)
		if (c.want == "") != (err == nil) || err != nil && !strings.Contains(err.Error(), c.want) {
			t.Errorf("checkHash(%d, %d) = %v, want %q", c.mib, c.physical, err, c.want)
		}
	}
	f := mustLoad(t, engAB+"[engines.sf]\ncommand = \"sf\"\n"+`
[[tournament]]
name = "t"
engines = ["a", "b", "sf"]
concurrency = 4
[tournament.limits]
nodes = 1000
`, nil)
	tr := &f.Tournaments[0]
	// 4 x (16 + 16 + referee 16) = 192 MiB; the external engine has no table here.
	if err := tr.checkTables(f, 4, 192); err != nil {
		t.Errorf("192 MiB in 192 MiB: %v", err)
	}
	err := tr.checkTables(f, 4, 191)
	if err == nil || !strings.Contains(err.Error(), "need 192 MiB (concurrency 4 x (a 16 + b 16 + referee 16) MiB), more than this machine's physical memory (191 MiB)") {
		t.Errorf("192 MiB in 191 MiB: %v", err)
	}
	// The machine's own memory: a table of all of it does not load.
	if phys := sysmem.PhysicalMiB(); phys > 0 && phys < MaxHash {
		_, _, err := load(t, engAB+fmt.Sprintf("[engines.x]\npreset = \"plain\"\nhash = %d\n", phys+1)+tourn("t", limits), nil)
		if err == nil || !strings.Contains(err.Error(), "engines.x.hash:") || !strings.Contains(err.Error(), "physical memory") {
			t.Errorf("hash = %d on a machine of %d MiB: %v", phys+1, phys, err)
		}
		_, _, err = load(t, strings.Replace(engAB, `preset = "fhr"`, fmt.Sprintf("preset = \"fhr\"\nhash = %d", phys/2+1), 1)+tourn("t", "concurrency = 2\n"+limits), nil)
		if err == nil || !strings.Contains(err.Error(), "tournament[0].concurrency: the transposition tables need") {
			t.Errorf("two tables of half the memory each: %v", err)
		}
	}
}
