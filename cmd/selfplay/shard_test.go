package main

import (
	"bytes"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"selfplay/config"
	"selfplay/internal/testkit"
	"selfplay/store/record"
)

func TestParseShard(t *testing.T) {
	slurm := map[string]string{"SLURM_ARRAY_TASK_ID": "7", "SLURM_ARRAY_TASK_MIN": "4", "SLURM_ARRAY_TASK_MAX": "19",
		"SLURM_ARRAY_TASK_COUNT": "16", "SLURM_ARRAY_TASK_STEP": "1"}
	with := func(base map[string]string, kv ...string) map[string]string {
		m := map[string]string{}
		for k, v := range base {
			m[k] = v
		}
		for i := 0; i < len(kv); i += 2 {
			if kv[i+1] == "-" {
				delete(m, kv[i])
			} else {
				m[kv[i]] = kv[i+1]
			}
		}
		return m
	}
	tests := []struct {
		spec string
		env  map[string]string
		want record.Shard
		err  string // in the error; "" for none
	}{
		{"3/16", nil, record.Shard{Index: 3, Count: 16}, ""},
		{"0/1", nil, record.Shard{Index: 0, Count: 1}, ""},
		{"16/16", nil, record.Shard{}, "not in 0..15"},
		{"-1/4", nil, record.Shard{}, "not in 0..3"},
		{"1/0", nil, record.Shard{}, "number of shards \"0\""},
		{"3", nil, record.Shard{}, "want I/N"},
		{"slurm", slurm, record.Shard{Index: 3, Count: 16}, ""},
		{"slurm", with(slurm, "SLURM_ARRAY_TASK_MAX", "-", "SLURM_ARRAY_TASK_STEP", "-"), record.Shard{Index: 3, Count: 16}, ""},
		{"slurm", nil, record.Shard{}, "SLURM_ARRAY_TASK_ID is not set"},
		{"slurm", with(slurm, "SLURM_ARRAY_TASK_MIN", "-"), record.Shard{}, "SLURM_ARRAY_TASK_MIN is not set"},
		{"slurm", with(slurm, "SLURM_ARRAY_TASK_COUNT", "-"), record.Shard{}, "SLURM_ARRAY_TASK_COUNT is not set"},
		{"slurm", with(slurm, "SLURM_ARRAY_TASK_ID", "x"), record.Shard{}, `SLURM_ARRAY_TASK_ID="x" is not a whole number`},
		{"slurm", with(slurm, "SLURM_ARRAY_TASK_ID", "20"), record.Shard{}, "SLURM_ARRAY_TASK_ID=20 is outside the array"},
		{"slurm", with(slurm, "SLURM_ARRAY_TASK_STEP", "2"), record.Shard{}, "SLURM_ARRAY_TASK_STEP=2"},
		{"slurm", with(slurm, "SLURM_ARRAY_TASK_MAX", "30"), record.Shard{}, "not a contiguous range"},
		{"k8s/16", map[string]string{"JOB_COMPLETION_INDEX": "15"}, record.Shard{Index: 15, Count: 16}, ""},
		{"k8s/16", nil, record.Shard{}, "JOB_COMPLETION_INDEX is not set"},
		{"k8s/16", map[string]string{"JOB_COMPLETION_INDEX": "16"}, record.Shard{}, "JOB_COMPLETION_INDEX=16 is outside 0..15"},
		{"k8s/x", map[string]string{"JOB_COMPLETION_INDEX": "1"}, record.Shard{}, `number of shards "x"`},
	}
	for _, tt := range tests {
		t.Run(tt.spec, func(t *testing.T) {
			got, err := parseShard(tt.spec, func(k string) (string, bool) { v, ok := tt.env[k]; return v, ok })
			if tt.err != "" {
				if err == nil || !strings.Contains(err.Error(), tt.err) {
					t.Fatalf("err = %v, want one saying %q", err, tt.err)
				}
				return
			}
			if err != nil || got != tt.want {
				t.Fatalf("= %+v, %v; want %+v", got, err, tt.want)
			}
		})
	}
}

func TestShardFile(t *testing.T) {
	for _, tt := range []struct {
		db   string
		s    record.Shard
		want string
	}{
		{"selfplay.db", record.Shard{Index: 3, Count: 16}, "selfplay.shard-03-of-16.db"},
		{"data/games.sqlite", record.Shard{Index: 0, Count: 4}, "data/games.shard-00-of-04.sqlite"},
		{"x.y/games", record.Shard{Index: 12, Count: 100}, "x.y/games.shard-012-of-100"},
	} {
		if got := shardFile(tt.db, tt.s); got != tt.want {
			t.Errorf("shardFile(%q, %+v) = %q, want %q", tt.db, tt.s, got, tt.want)
		}
	}
}

// A shard's live files and log get the shard in their names, as its
// database; a path that is a device, a FIFO or a symbolic link (such as
// /dev/stdout, which Slurm's --output makes a regular file) keeps its own.
func TestShardOutputs(t *testing.T) {
	dir := t.TempDir()
	target := filepath.Join(dir, "out.txt")
	if err := os.WriteFile(target, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(dir, "stdout")
	if err := os.Symlink(target, link); err != nil {
		t.Fatal(err)
	}
	existing := filepath.Join(dir, "live.epd")
	if err := os.WriteFile(existing, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	cfg := &config.File{Tournaments: []config.Tournament{
		{Name: "a", Live: config.LiveOut{PGN: filepath.Join(dir, "live.pgn"), EPD: existing}, Log: filepath.Join(dir, "uci")},
		{Name: "b", Live: config.LiveOut{PGN: "/dev/null", EPD: link}},
	}}
	shardOutputs(cfg, record.Shard{Index: 3, Count: 16})
	for _, c := range []struct{ got, want string }{
		{cfg.Tournaments[0].Live.PGN, filepath.Join(dir, "live.shard-03-of-16.pgn")},
		{cfg.Tournaments[0].Live.EPD, filepath.Join(dir, "live.shard-03-of-16.epd")},
		{cfg.Tournaments[0].Log, filepath.Join(dir, "uci.shard-03-of-16")},
		{cfg.Tournaments[1].Live.PGN, "/dev/null"},
		{cfg.Tournaments[1].Live.EPD, link},
		{cfg.Tournaments[1].Log, ""},
	} {
		if c.got != c.want {
			t.Errorf("got %s, want %s", c.got, c.want)
		}
	}
}

// shardConfig is a 50-game match at nodes per move, one game at a time.
func shardConfig(nodes int) testkit.Config {
	c := tinyConfig()
	c.Tournaments[0].Limits["nodes"] = nodes
	c.Tournaments[0].Concurrency = 1
	return c
}

// comparable is what must agree between a merge of shards and a single
// run: the PGN without dates and move times, and the JSON report without
// times (when games were played, time per move, nodes per second).
type comparable struct {
	pgn    string
	report any
	status string
}

func comparableOf(t *testing.T, db string) comparable {
	t.Helper()
	var c comparable
	pgn := filepath.Join(t.TempDir(), "all.pgn")
	if code, _, stderr := run(t, "export", "-db", db, "-o", pgn); code != exitOK {
		t.Fatalf("export %s: exit %d: %s", db, code, stderr)
	}
	b, err := os.ReadFile(pgn)
	if err != nil {
		t.Fatal(err)
	}
	c.pgn = timeless(string(b))
	code, stdout, stderr := run(t, "report", "-db", db, "-format", "json")
	if code != exitOK {
		t.Fatalf("report %s: exit %d: %s", db, code, stderr)
	}
	if err := json.Unmarshal([]byte(stdout), &c.report); err != nil {
		t.Fatal(err)
	}
	c.report = dropKeys(c.report, "played", "time_ms", "nps")
	c.status = c.report.(map[string]any)["tournaments"].([]any)[0].(map[string]any)["status"].(string)
	return c
}

// dropKeys removes the keys from every object in v.
func dropKeys(v any, keys ...string) any {
	switch x := v.(type) {
	case map[string]any:
		for _, k := range keys {
			delete(x, k)
		}
		for k, e := range x {
			x[k] = dropKeys(e, keys...)
		}
	case []any:
		for i, e := range x {
			x[i] = dropKeys(e, keys...)
		}
	}
	return v
}

func sameAs(t *testing.T, got, want comparable) {
	t.Helper()
	if got.pgn != want.pgn {
		t.Error("the merged shards' PGN differs from the single run's")
	}
	if !reflect.DeepEqual(got.report, want.report) {
		g, _ := json.MarshalIndent(got.report, "", " ")
		w, _ := json.MarshalIndent(want.report, "", " ")
		t.Errorf("the merged shards' report differs from the single run's:\n%s\nwant\n%s", g, w)
	}
}

// startShard starts `selfplay run -shard I/N` as a separate process.
func startShard(t *testing.T, bin, cfg string, i, n int) *exec.Cmd {
	t.Helper()
	cmd := exec.Command(bin, "run", "-config", cfg, "-shard", fmt.Sprintf("%d/%d", i, n))
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	return cmd
}

// One config played by 4 shards as separate processes in parallel, each
// into its own default database, then merged: the same PGN and report as
// one process playing everything, complete. Also when one shard is killed
// with SIGKILL halfway through its share and started again.
func TestShardsMergeEqualsOneRun(t *testing.T) {
	bin := selfplayBinary(t)
	c := shardConfig(1500)
	c.Tournaments[0].Body = "pgn_out = \"live.pgn\"\nepd_out = \"live.epd\"\nlog = \"traffic.log\"\n"
	cfgText := c.String()
	single, singleCfg := soakDir(t, cfgText)
	if code, out := runBinary(t, bin, "run", "-config", singleCfg); code != exitOK {
		t.Fatalf("single run: exit %d\n%s", code, out)
	}
	want := comparableOf(t, single)
	if want.status != "complete" {
		t.Fatalf("single run: status %q", want.status)
	}

	for _, kill := range []bool{false, true} {
		t.Run(fmt.Sprintf("kill=%v", kill), func(t *testing.T) {
			dir := t.TempDir()
			cfg := writeFile(t, dir, "t.toml", cfgText)
			var wg sync.WaitGroup
			errs := make([]string, 4)
			for i := 0; i < 4; i++ {
				wg.Add(1)
				go func() {
					defer wg.Done()
					cmd := startShard(t, bin, cfg, i, 4)
					if kill && i == 2 {
						db := filepath.Join(dir, "games.shard-02-of-04.db")
						deadline := time.Now().Add(time.Minute)
						for n, _ := countGames(t, db); n < 6; n, _ = countGames(t, db) {
							if time.Now().After(deadline) {
								break
							}
							time.Sleep(5 * time.Millisecond)
						}
						cmd.Process.Signal(syscall.SIGKILL)
						cmd.Wait()
						n, distinct := countGames(t, db)
						t.Logf("shard 2 killed with %d of its 12 games stored (%d distinct)", n, distinct)
						if n >= 12 || n != distinct {
							errs[i] = fmt.Sprintf("shard 2 killed with %d games stored, %d distinct: not halfway", n, distinct)
						}
						cmd = startShard(t, bin, cfg, i, 4) // the scheduler's retry
					}
					if err := cmd.Wait(); err != nil {
						errs[i] = fmt.Sprintf("shard %d: %v", i, err)
					}
				}()
			}
			wg.Wait()
			for _, e := range errs {
				if e != "" {
					t.Fatal(e)
				}
			}
			shards, _ := filepath.Glob(filepath.Join(dir, "games.shard-*-of-04.db"))
			if len(shards) != 4 {
				t.Fatalf("shard databases: %v", shards)
			}
			// The shards ran side by side in one folder, each with live
			// files and a log of its own, named as its database: a live
			// PGN holds the share's games, the text export writes for
			// them (after a kill too: the database is the truth).
			for i, db := range shards {
				name := func(base, ext string) string {
					return filepath.Join(dir, fmt.Sprintf("%s.shard-%02d-of-04%s", base, i, ext))
				}
				live, err := os.ReadFile(name("live", ".pgn"))
				if err != nil {
					t.Fatal(err)
				}
				exported := filepath.Join(t.TempDir(), "export.pgn")
				if code, _, stderr := run(t, "export", "-db", db, "-o", exported); code != exitOK {
					t.Fatalf("export %s: exit %d: %s", db, code, stderr)
				}
				if want, err := os.ReadFile(exported); err != nil || !bytes.Equal(live, want) {
					t.Errorf("shard %d: its live PGN (%d games) is not its database's export (%d bytes, %v)",
						i, strings.Count(string(live), "[Event "), len(want), err)
				}
				epd, err := os.ReadFile(name("live", ".epd"))
				if n, _ := countGames(t, db); err != nil || strings.Count(string(epd), "\n") != n {
					t.Errorf("shard %d: live EPD of %d lines for %d games (%v)", i, strings.Count(string(epd), "\n"), n, err)
				}
				if _, err := os.Stat(name("traffic", ".log")); err != nil {
					t.Errorf("shard %d: %v", i, err)
				}
			}
			for _, f := range []string{"live.pgn", "live.epd", "traffic.log"} {
				if _, err := os.Stat(filepath.Join(dir, f)); !errors.Is(err, fs.ErrNotExist) {
					t.Errorf("a shard wrote the config's own %s (%v)", f, err)
				}
			}
			// A shard's own report says it is a share, not the tournament.
			code, stdout, _ := run(t, "report", "-db", shards[1], "-format", "text")
			if code != exitOK || !strings.Contains(stdout, "share complete, 12/12 games of shard 1 of 4 stored (50 games in the tournament)") {
				t.Errorf("shard report (exit %d):\n%s", code, stdout)
			}
			merged := filepath.Join(dir, "merged.db")
			if code, stdout, stderr := run(t, append([]string{"merge", "-o", merged}, shards...)...); code != exitOK {
				t.Fatalf("merge: exit %d\n%s%s", code, stdout, stderr)
			}
			got := comparableOf(t, merged)
			if got.status != "complete" {
				t.Errorf("merged status %q", got.status)
			}
			sameAs(t, got, want)
			// The merge is an ordinary database: run on it has nothing
			// left to play.
			code, stdout, stderr := run(t, "run", "-config", cfg, "-db", merged)
			if code != exitOK || !strings.Contains(stdout, "already complete (50 games stored)") {
				t.Errorf("run on the merge: exit %d\n%s%s", code, stdout, stderr)
			}
		})
	}
}

// A shard's database refuses another shard, another number of shards, and
// a run that is not a shard; a whole tournament's database refuses a
// shard. Nothing is played.
func TestShardMismatchRefused(t *testing.T) {
	dir := t.TempDir()
	cfg := shardConfig(200).Write(t, dir, "t.toml")
	db := filepath.Join(dir, "s.db")
	if code, _, stderr := run(t, "run", "-config", cfg, "-shard", "1/4", "-pairs", "1", "-db", db); code != exitOK {
		t.Fatalf("shard run: exit %d: %s", code, stderr)
	}
	whole := filepath.Join(dir, "whole.db")
	if code, _, stderr := run(t, "run", "-config", cfg, "-pairs", "1", "-db", whole); code != exitOK {
		t.Fatalf("run: exit %d: %s", code, stderr)
	}
	tests := []struct {
		args []string
		want []string
	}{
		{[]string{"-shard", "2/4", "-db", db}, []string{"holds shard 1 of 4", "this run is shard 2 of 4", "every shard needs a database of its own",
			"without -db, shard 2 of 4 writes " + filepath.Join(dir, "games.shard-02-of-04.db")}},
		{[]string{"-shard", "1/8", "-db", db}, []string{"holds shard 1 of 4", "number of shards changed (was 4, now 8)"}},
		{[]string{"-db", db}, []string{"holds shard 1 of 4", "not a shard", "-shard 1/4", "selfplay merge"}},
		{[]string{"-shard", "1/4", "-db", whole}, []string{"played as one", "a shard needs a database of its own"}},
		{[]string{"-pairs", "-1", "-db", whole}, []string{"-pairs -1 is negative"}},
		{[]string{"-shard", "4/4"}, []string{"not in 0..3"}},
	}
	for _, tt := range tests {
		before, _ := countGames(t, db)
		code, _, stderr := run(t, append([]string{"run", "-config", cfg}, tt.args...)...)
		if code != exitUsage {
			t.Errorf("%v: exit %d, want %d (%s)", tt.args, code, exitUsage, stderr)
		}
		for _, w := range tt.want {
			if !strings.Contains(stderr, w) {
				t.Errorf("%v: %q does not say %q", tt.args, stderr, w)
			}
		}
		if after, _ := countGames(t, db); after != before {
			t.Errorf("%v: games stored %d -> %d", tt.args, before, after)
		}
	}
	// The next wave of the same shard widens -pairs and plays on.
	code, stdout, stderr := run(t, "run", "-config", cfg, "-shard", "1/4", "-pairs", "3", "-db", db)
	if n, _ := countGames(t, db); code != exitOK || n != 6 || !strings.Contains(stdout, "share complete, 6/6 games of shard 1 of 4 (its first 3 pairs)") {
		t.Errorf("next wave: exit %d, %d games\n%s%s", code, n, stdout, stderr)
	}
}

// An SPRT run in waves (shards of the first K pairs, merged after each
// wave, K doubling until the test decides) takes the decision of one
// process with concurrency 1, at the same LLR, and the merge is complete.
func TestSPRTWavesDecideAsOneRun(t *testing.T) {
	c := shardConfig(200)
	c.Tournaments[0].Rounds = 40
	c.Tournaments[0].SPRT = testkit.Table{"elo0": 0, "elo1": 100, "alpha": 0.1, "beta": 0.1}
	cfgText := c.String()
	single, singleCfg := soakDir(t, cfgText)
	if code, _, stderr := run(t, "run", "-config", singleCfg); code != exitOK {
		t.Fatalf("single run: exit %d: %s", code, stderr)
	}
	want := storedSPRT(t, single)
	if want.state != "H0" && want.state != "H1" {
		t.Fatalf("the single run did not decide: %+v", want)
	}
	dir := t.TempDir()
	cfg := writeFile(t, dir, "t.toml", cfgText)
	merged := filepath.Join(dir, "merged.db")
	const n = 3
	var got sprtRow
	for k, wave := 1, 1; ; k, wave = 2*k, wave+1 {
		var shards []string
		for i := 0; i < n; i++ {
			db := filepath.Join(dir, fmt.Sprintf("s%d.db", i))
			if code, _, stderr := run(t, "run", "-config", cfg, "-shard", fmt.Sprintf("%d/%d", i, n), "-pairs", fmt.Sprint(k), "-db", db); code != exitOK {
				t.Fatalf("wave %d shard %d: exit %d: %s", wave, i, code, stderr)
			}
			shards = append(shards, db)
		}
		if code, _, stderr := run(t, append([]string{"merge", "-o", merged}, shards...)...); code != exitOK {
			t.Fatalf("merge: exit %d: %s", code, stderr)
		}
		code, stdout, _ := run(t, "report", "-db", merged, "-format", "json")
		var rep struct {
			Tournaments []struct {
				Status   string `json:"status"`
				Pairings []struct {
					SPRT struct {
						State string  `json:"state"`
						LLR   float64 `json:"llr"`
					} `json:"sprt"`
				} `json:"pairings"`
			} `json:"tournaments"`
		}
		if code != exitOK || json.Unmarshal([]byte(stdout), &rep) != nil {
			t.Fatalf("report: exit %d", code)
		}
		s := rep.Tournaments[0].Pairings[0].SPRT
		t.Logf("wave %d (%d pairs per shard): %s, LLR %.3f", wave, k, s.State, s.LLR)
		if s.State != "continue" {
			got = sprtRow{status: rep.Tournaments[0].Status, state: s.State, llr: s.LLR}
			break
		}
		if wave > 8 {
			t.Fatal("no decision after 8 waves")
		}
	}
	if got.state != want.state || math.Abs(got.llr-want.llr) > 1e-6 || got.status != "complete" {
		t.Errorf("waves: %+v, one process: %+v", got, want)
	}
	if row := storedSPRT(t, merged); row != want {
		t.Errorf("merged row %+v, one process %+v", row, want)
	}
}

type sprtRow struct {
	status, state string
	llr           float64
}

func storedSPRT(t *testing.T, db string) sprtRow {
	t.Helper()
	d, err := sql.Open("sqlite", db)
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	var r sprtRow
	if err := d.QueryRow(`SELECT status, sprt_state, sprt_llr FROM tournaments`).Scan(&r.status, &r.state, &r.llr); err != nil {
		t.Fatal(err)
	}
	return r
}
