package main

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

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

// syncBuffer is a bytes.Buffer safe for one writer and one reader.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

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
