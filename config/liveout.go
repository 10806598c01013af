package config

import (
	"strings"

	"selfplay/internal/fileid"
)

// LiveOut is a tournament's live output files (pgn_out, epd_out): appended
// game by game, in schedule order, as games are stored. Neither is part of
// the games, so neither is in the snapshot: adding one to a tournament
// that is under way resumes it.
type LiveOut struct {
	PGN    string // path of the live PGN file; "": none
	EPD    string // path of the live EPD file (each game's final position); "": none
	Fields PGNFields
	// Notation is how the live PGN writes moves (pgn_out's notation);
	// "" is san, export's.
	Notation Notation
	// PGNAfresh and EPDAfresh (pgn_out's and epd_out's append = false): a
	// tournament with no game stored yet empties the file first, as
	// fastchess does; a resume appends.
	PGNAfresh, EPDAfresh bool
	// Dialect is the live PGN's text (pgn_out's dialect); "" is selfplay's.
	Dialect PGNDialect
	// Min (pgn_out's min, fastchess's -pgnout min=true): fastchess's
	// minimal PGN, its first seven tags (and SetUp and FEN) and no
	// comments; only in fastchess's dialect.
	Min bool
}

// PGNDialect is the text of the live PGN's games: selfplay's own (export's
// text, with pgn_out's fields) or fastchess's (the PGN fastchess 1.8.2
// writes: its tags, their order, its comments and line breaks), so that
// scripts that read fastchess's PGN files read the live file unchanged.
type PGNDialect string

// PGN dialects. LiveOut holds selfplay's as "".
const (
	DialectSelfplay  PGNDialect = "selfplay"
	DialectFastchess PGNDialect = "fastchess"
)

var dialects = []PGNDialect{DialectSelfplay, DialectFastchess}

// Notation is the live PGN's move notation, fastchess's -pgnout
// notation=: san (the default), lan or uci.
type Notation string

// Notations. LiveOut holds san as "".
const (
	NotationSAN Notation = "san"
	NotationLAN Notation = "lan" // fastchess's: piece, from, x, to, promotion, check (Ng1f3, e4xd5, e7e8=Q+)
	NotationUCI Notation = "uci"
)

var notations = []Notation{NotationSAN, NotationLAN, NotationUCI}

// Plain reports whether the live PGN's games are the stored text: no
// per-move field and SAN, export's text byte for byte.
func (o LiveOut) Plain() bool {
	return o.Fields == (PGNFields{}) && o.Notation == "" && o.Dialect == ""
}

// PGNFields are the per-move comment fields that pgn_out adds after
// selfplay's own "{score/depth nodesN time}" comment, in fastchess's
// names and order: ", n=N, sd=S, nps=X". The zero value adds none, and
// the live file's games are then byte for byte those of export.
type PGNFields struct {
	TimeLeft bool // tl=: the mover's clock after the move
	Latency  bool // latency=: the move's time less the engine's last reported time
	Nodes    bool // n=: the move's nodes
	SelDepth bool // sd=: the move's selective depth
	NPS      bool // nps=: nodes per second over the move's time
	HashFull bool // hashfull=: the engine's last exact info line's
	TBHits   bool // tbhits=: likewise
	PV       bool // pv="...": likewise, UCI moves
}

var (
	pgnOutKeys = []string{"file", "nodes", "seldepth", "nps", "hashfull", "tbhits", "pv", "timeleft", "latency", "notation", "append", "dialect", "min"}
	epdOutKeys = []string{"file", "append"}
)

// boolean returns a boolean key.
func (t *table) boolean(k string) (bool, bool) {
	v, ok := t.m[k]
	if !ok {
		return false, false
	}
	b, ok := v.(bool)
	if !ok {
		t.wrongType(k, "true or false")
	}
	return b, ok
}

// liveOut reads pgn_out (a file name, or a table with file, the comment
// fields, notation, append, dialect and min) and epd_out (a file name, or
// a table with file and append); relative paths are relative to the
// config's directory, as the openings file's are.
func (p *parser) liveOut(t *table) LiveOut {
	var out LiveOut
	var pt, et *table
	out.PGN, pt = p.liveFile(t, "pgn_out", pgnOutKeys, `{ file = "games.pgn", nodes = true, seldepth = true, nps = true, ... }`)
	if pt != nil {
		p.pgnOutOptions(pt, &out)
	}
	out.EPD, et = p.liveFile(t, "epd_out", epdOutKeys, `{ file = "games.epd", append = false }`)
	if et != nil {
		if a, ok := et.boolean("append"); ok {
			out.EPDAfresh = !a
		}
	}
	for _, f := range []*string{&out.PGN, &out.EPD} {
		if *f != "" {
			*f = p.resolve(*f)
		}
	}
	if out.PGN != "" && fileid.Same(out.PGN, out.EPD) {
		t.errf("epd_out", "the same file as pgn_out")
	}
	return out
}

// liveFile reads a live file's key: a file name, or a table with file and
// the other keys (the names the table may hold: keys; a table such as
// example), which it returns to be read (nil for a name).
func (p *parser) liveFile(t *table, key string, keys []string, example string) (string, *table) {
	var file string
	var sub *table
	switch v := t.m[key].(type) {
	case nil:
		return "", nil
	case string:
		file = v
	case map[string]any:
		sub, _ = t.sub(key)
		sub.unknown(keys, nil)
		f, ok := sub.str("file")
		switch {
		case ok:
			file = f
		case !sub.has("file"):
			p.errf(sub.path, "missing file (file = %q)", "games."+strings.TrimSuffix(key, "_out"))
			return "", sub
		default:
			return "", sub // str has said what is wrong with it
		}
	default:
		t.wrongType(key, "a file name or a table "+example)
		return "", nil
	}
	if file == "" {
		t.errf(key, "empty file name")
	}
	return file, sub
}

// pgnOutOptions reads pgn_out's table: the comment fields, notation,
// append, dialect and min.
func (p *parser) pgnOutOptions(pt *table, out *LiveOut) {
	for _, f := range []struct {
		key string
		on  *bool
	}{
		{"timeleft", &out.Fields.TimeLeft}, {"latency", &out.Fields.Latency}, {"nodes", &out.Fields.Nodes},
		{"seldepth", &out.Fields.SelDepth}, {"nps", &out.Fields.NPS}, {"hashfull", &out.Fields.HashFull},
		{"tbhits", &out.Fields.TBHits}, {"pv", &out.Fields.PV},
	} {
		*f.on, _ = pt.boolean(f.key)
	}
	if n, ok := oneOf(pt, "notation", notations); ok && n != NotationSAN {
		out.Notation = n
	}
	if a, ok := pt.boolean("append"); ok {
		out.PGNAfresh = !a
	}
	if d, ok := oneOf(pt, "dialect", dialects); ok && d != DialectSelfplay {
		out.Dialect = d
	}
	if m, ok := pt.boolean("min"); ok && m {
		if out.Dialect != DialectFastchess {
			pt.errf("min", `fastchess's minimal PGN, so only with dialect = "fastchess"`)
		}
		out.Min = true
	}
}
