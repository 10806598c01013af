package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"selfplay/internal/testkit"
	"selfplay/serve"
	"selfplay/store/storetest"
)

func TestServeBadInput(t *testing.T) {
	dir := t.TempDir()
	foreign := writeFile(t, dir, "notes.txt", "not a database\n")
	db := filepath.Join(dir, "s.db")
	if err := storetest.Generate(context.Background(), db, storetest.Options{Games: 4, NoMoves: true}); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"-db", filepath.Join(dir, "missing.db")}, "missing.db"},
		{[]string{"-db", foreign}, "not an SQLite database"},
		{[]string{"-db", db, "-addr", "127.0.0.1:notaport"}, "notaport"},
		{[]string{"-db", db, "-level", "1.5"}, "-level 1.5 is not in (0, 1)"},
		{[]string{"-nope"}, "-nope"},
	} {
		code, _, stderr := run(t, append([]string{"serve"}, tc.args...)...)
		if code != exitUsage || !strings.Contains(stderr, tc.want) {
			t.Errorf("serve %v: exit %d, stderr %q; want exit 2 mentioning %q", tc.args, code, stderr, tc.want)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "missing.db")); !os.IsNotExist(err) {
		t.Errorf("serve created the missing database: %v", err)
	}
}

// syncBuffer is safe for one writer and one reader.
type syncBuffer = testkit.SyncBuffer

// TestServeServesAndStops: serve listens on the address, answers, and
// stops with exit 0 when its context ends (SIGINT, SIGTERM in main).
func TestServeServesAndStops(t *testing.T) {
	db := filepath.Join(t.TempDir(), "s.db")
	if err := storetest.Generate(context.Background(), db, storetest.Options{Games: 20}); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var out, errb syncBuffer
	done := make(chan int, 1)
	go func() {
		done <- dispatch(ctx, env{stdin: strings.NewReader(""), stdout: &out, stderr: &errb}, []string{"serve", "-db", db, "-addr", "127.0.0.1:0"})
	}()
	addr := regexp.MustCompile(`http://(127\.0\.0\.1:\d+)/`)
	var base string
	for deadline := time.Now().Add(10 * time.Second); base == "" && time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		if m := addr.FindStringSubmatch(out.String()); m != nil {
			base = "http://" + m[1]
		}
		select {
		case code := <-done:
			t.Fatalf("serve exited %d: %s", code, errb.String())
		default:
		}
	}
	if base == "" {
		t.Fatalf("serve did not say where it listens: %q %q", out.String(), errb.String())
	}
	res, err := http.Get(base + "/api/tournaments")
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(res.Body)
	res.Body.Close()
	if res.StatusCode != 200 || !strings.Contains(string(body), `"name": "synthetic"`) {
		t.Errorf("GET /api/tournaments: %d %s", res.StatusCode, body)
	}
	// The database deleted: the site says so (it looks at the file once
	// per serve.CheckInterval).
	if err := os.Remove(db); err != nil {
		t.Fatal(err)
	}
	for deadline := time.Now().Add(10 * serve.CheckInterval); ; time.Sleep(50 * time.Millisecond) {
		res, err := http.Get(base + "/api/tournaments")
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(res.Body)
		res.Body.Close()
		if res.StatusCode == http.StatusServiceUnavailable && strings.Contains(string(body), db+" is gone") {
			break
		}
		if res.StatusCode != 200 || time.Now().After(deadline) {
			t.Fatalf("GET /api/tournaments after the database was deleted: %d %s", res.StatusCode, body)
		}
	}
	cancel()
	select {
	case code := <-done:
		if code != exitOK || !strings.Contains(out.String(), "stopped") {
			t.Errorf("exit %d, stdout %q, stderr %q", code, out.String(), errb.String())
		}
	case <-time.After(10 * time.Second):
		t.Fatal("serve did not stop after its context ended")
	}
	if _, err := http.Get(base + "/"); err == nil {
		t.Errorf("still serving after it stopped")
	}
}

// waitForURL waits until out says where a site listens and returns its
// base URL, failing if done reports an exit first.
func waitForURL(t *testing.T, out, errb *syncBuffer, done <-chan int) string {
	t.Helper()
	addr := regexp.MustCompile(`http://(127\.0\.0\.1:\d+)/`)
	for deadline := time.Now().Add(20 * time.Second); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		if m := addr.FindStringSubmatch(out.String()); m != nil {
			return "http://" + m[1]
		}
		select {
		case code := <-done:
			t.Fatalf("exited %d before serving: %s %s", code, out.String(), errb.String())
		default:
		}
	}
	t.Fatalf("no address on stdout: %q %q", out.String(), errb.String())
	return ""
}

// gamesStored reads the stored games of the first tournament from the
// site's /api/tournaments.
func gamesStored(t *testing.T, base string) (int, error) {
	res, err := http.Get(base + "/api/tournaments")
	if err != nil {
		return 0, err
	}
	defer res.Body.Close()
	var v struct {
		Tournaments []struct {
			GamesStored int `json:"games_stored"`
		} `json:"tournaments"`
	}
	if res.StatusCode != 200 {
		return 0, fmt.Errorf("GET /api/tournaments: %s", res.Status)
	}
	if err := json.NewDecoder(res.Body).Decode(&v); err != nil {
		return 0, err
	}
	if len(v.Tournaments) == 0 {
		return 0, nil
	}
	return v.Tournaments[0].GamesStored, nil
}

// TestRunServe: run -serve serves the database while the run writes it:
// the count of stored games grows on the site, and the site stops with
// the run (here interrupted, exit 130).
func TestRunServe(t *testing.T) {
	dir := t.TempDir()
	c := tinyConfig()
	c.Tournaments[0].Rounds = 20 // 1,000 games: longer than the test
	cfg := c.Write(t, dir, "t.toml")
	for _, tt := range []struct {
		name string
		args []string
	}{
		{"run", []string{"run", "-config", cfg, "-serve", "127.0.0.1:0"}},
		{"match", []string{"match", "plain:hash=1", "fhr:hash=1", "-nodes", "200", "-rounds", "20", "-move", "25",
			"-concurrency", "2", "-db", filepath.Join(dir, "match.db"), "-serve", "127.0.0.1:0"}},
	} {
		t.Run(tt.name, func(t *testing.T) { testServeBeside(t, tt.args) })
	}
}

// testServeBeside runs args (a run or match with -serve) and watches the
// site show the stored games growing, then stop with the run.
func testServeBeside(t *testing.T, args []string) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var out, errb syncBuffer
	done := make(chan int, 1)
	go func() {
		done <- dispatch(ctx, env{stdin: strings.NewReader(""), stdout: &out, stderr: &errb},
			args)
	}()
	base := waitForURL(t, &out, &errb, done)
	var seen []int
	for deadline := time.Now().Add(30 * time.Second); len(seen) < 2 && time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
		n, err := gamesStored(t, base)
		if err != nil {
			t.Fatalf("while the run plays: %v", err)
		}
		if n > 0 && (len(seen) == 0 || n > seen[len(seen)-1]) {
			seen = append(seen, n)
		}
	}
	if len(seen) < 2 {
		t.Fatalf("the site did not show the stored games growing: %v", seen)
	}
	cancel()
	select {
	case code := <-done:
		if code != exitInterrupted {
			t.Errorf("exit %d, want %d: %s", code, exitInterrupted, errb.String())
		}
	case <-time.After(30 * time.Second):
		t.Fatal("the run did not stop")
	}
	if _, err := http.Get(base + "/"); err == nil {
		t.Errorf("the site still answers after the run stopped")
	}
	if strings.Contains(errb.String(), "web site") {
		t.Errorf("stderr: %s", errb.String())
	}
}

// TestRunServeBadAddress: an address that cannot be bound is an error
// before anything is written.
func TestRunServeBadAddress(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	for _, addr := range []string{"127.0.0.1:notaport", ln.Addr().String(), "99999"} {
		dir := t.TempDir()
		cfg := tinyConfig().Write(t, dir, "t.toml")
		code, _, stderr := run(t, "run", "-config", cfg, "-serve", addr)
		if code != exitUsage || !strings.Contains(stderr, "-serve") {
			t.Errorf("-serve %s: exit %d, stderr %q; want exit 2 naming -serve", addr, code, stderr)
		}
		if _, err := os.Stat(filepath.Join(dir, "games.db")); !os.IsNotExist(err) {
			t.Errorf("-serve %s: the database was written: %v", addr, err)
		}
	}
}

func TestListenAddress(t *testing.T) {
	for in, want := range map[string]string{"8080": "127.0.0.1:8080", ":8080": ":8080", "0.0.0.0:80": "0.0.0.0:80",
		"127.0.0.1:0": "127.0.0.1:0", "[::1]:8080": "[::1]:8080", "0": "127.0.0.1:0", "65535": "127.0.0.1:65535",
		"localhost:http": "localhost:http", "127.0.0.1:notaport": "127.0.0.1:notaport"} {
		if got, err := listenAddress(in); got != want || err != nil {
			t.Errorf("listenAddress(%q) = %q, %v; want %q", in, got, err, want)
		}
	}
	// A port out of range is named as such, not "missing port in address".
	for _, in := range []string{"99999", ":65536", "127.0.0.1:99999", "[::1]:123456789012345678901234567890"} {
		if got, err := listenAddress(in); err == nil || !strings.Contains(err.Error(), "is out of range: want 1..65535") {
			t.Errorf("listenAddress(%q) = %q, %v; want the range error", in, got, err)
		}
	}
}
