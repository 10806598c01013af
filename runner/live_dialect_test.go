package runner

import (
	"context"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"selfplay/config"
	"selfplay/internal/testkit"
	"selfplay/store/record"
)

const fastchessOut = `pgn_out = { file = "live.pgn", dialect = "fastchess" }`

// A resume whose pgn_out dialect is not the one the file's games of the
// tournament were written in (the dialect is not in the snapshot: a config
// edited, or a match's -pgnout file=F resumed by a selfplay that writes
// fastchess's text for it) would not know them as its own and would append
// every stored game again. It refuses the file, naming it and the dialect
// found, and writes nothing.
func TestLivePGNDialectChanged(t *testing.T) {
	for _, c := range []struct {
		name, from, to, event string
		found                 config.PGNDialect
	}{
		{"selfplay to fastchess", `pgn_out = "live.pgn"`, fastchessOut, "", config.DialectSelfplay},
		{"fastchess to selfplay", fastchessOut, `pgn_out = "live.pgn"`, "", config.DialectFastchess},
		// With an event both dialects' Event is the same: the Round's
		// form tells them apart.
		{"selfplay to fastchess, event", `pgn_out = "live.pgn"`, fastchessOut, "ev", config.DialectSelfplay},
		{"fastchess to selfplay, event", fastchessOut, `pgn_out = "live.pgn"`, "ev", config.DialectFastchess},
	} {
		t.Run(c.name, func(t *testing.T) {
			body := func(out string) testkit.Config {
				k := quickConfig(1)
				k.Tournaments[0].Body = out
				if c.event != "" {
					k.Tournaments[0].Body += "\nevent = " + `"` + c.event + `"`
				}
				return k
			}
			cfg := loadConfig(t, body(c.from))
			st := openStore(t, cfg)
			liveRun(t, st, cfg, Options{Shard: record.Shard{Pairs: 2}})
			path := filepath.Join(cfg.Dir, "live.pgn")
			before, _ := os.ReadFile(path)
			if strings.Count(string(before), "[Event ") != 4 {
				t.Fatalf("after 2 pairs:\n%s", before)
			}
			changed, err := config.Load(body(c.to).Write(t, cfg.Dir, "t.toml"))
			if err != nil {
				t.Fatal(err)
			}
			err = Run(context.Background(), changed, st, Options{NewEngine: newPlayer(""), Shard: record.Shard{Pairs: 3}})
			if err == nil || !strings.Contains(err.Error(), path) || !strings.Contains(err.Error(), "the "+string(c.found)+" dialect") ||
				!strings.Contains(err.Error(), "move the file away") {
				t.Fatalf("resumed in the other dialect: %v", err)
			}
			if after, _ := os.ReadFile(path); string(after) != string(before) {
				t.Fatalf("the file changed:\n%s", after)
			}
		})
	}
}

// In fastchess's dialect every tournament without an event has the Event
// "Fastchess Tournament": two matches of other engines share a file, each
// finding its own games by their players; two matches of the same engines
// cannot be told apart, and the second is refused rather than take the
// first's games as its own.
func TestLivePGNFastchessSharedEvent(t *testing.T) {
	k := quickConfig(1)
	k.Engines = append(k.Engines, testkit.Engine{Name: "fhr2", Preset: "fhr", Hash: 1}, testkit.Engine{Name: "plain2", Preset: "plain", Hash: 1})
	k.Tournaments[0].Body = fastchessOut
	other := k.Tournaments[0]
	other.Name, other.Engines = "other", []string{"fhr2", "plain2"}
	k.Tournaments = append(k.Tournaments, other)
	cfg := loadConfig(t, k)
	st := openStore(t, cfg)
	liveRun(t, st, cfg, Options{Shard: record.Shard{Pairs: 1}})
	liveRun(t, st, cfg, Options{Shard: record.Shard{Pairs: 2}}) // a resume of both
	pgn, _ := os.ReadFile(filepath.Join(cfg.Dir, "live.pgn"))
	games := regexp.MustCompile(`\[Round "(\d+)"\]\n\[White "(\w+)"\]\n\[Black "(\w+)"\]`).FindAllStringSubmatch(string(pgn), -1)
	var got []string
	for _, g := range games {
		got = append(got, g[1]+":"+g[2]+"-"+g[3])
	}
	want := "1:fhr-plain 1:plain-fhr 1:fhr2-plain2 1:plain2-fhr2 2:fhr-plain 2:plain-fhr 2:fhr2-plain2 2:plain2-fhr2"
	if strings.Join(got, " ") != want {
		t.Fatalf("games %s, want %s", strings.Join(got, " "), want)
	}

	same := quickConfig(1)
	same.Tournaments[0].Body = fastchessOut
	twin := same.Tournaments[0]
	twin.Name = "twin"
	same.Tournaments = append(same.Tournaments, twin)
	cfg = loadConfig(t, same)
	st = openStore(t, cfg)
	err := Run(context.Background(), cfg, st, Options{NewEngine: newPlayer(""), Shard: record.Shard{Pairs: 1}})
	if err == nil || !strings.Contains(err.Error(), "twin") || !strings.Contains(err.Error(), "cannot be told apart") {
		t.Fatalf("a second match of the same engines into the file: %v", err)
	}
}
