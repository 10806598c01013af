package main

import (
	"context"
	"errors"
	"fmt"
	"log"
	"net"
	"net/http"
	"time"

	"selfplay/serve"
	"selfplay/stats"
)

// cmdServe serves a read-only web site over a database until the context
// ends (SIGINT, SIGTERM). Exit codes: 2 for bad flags, a missing or
// foreign database, an address that cannot be bound; 1 when serving
// fails; 0 after a clean shutdown.
func cmdServe(ctx context.Context, e env, args []string) int {
	fs := newFlagSet(e, "serve", "[-db selfplay.db] [-addr 127.0.0.1:8080] [-level 0.95]")
	dbPath := fs.String("db", "selfplay.db", "database file (opened read-only; a run may be writing it)")
	addr := fs.String("addr", "127.0.0.1:8080", "address to listen on (host:port; the default is reachable from this machine only)")
	level := fs.Float64("level", stats.DefaultLevel, "confidence level of the intervals, in (0, 1)")
	if code, done := parseFlags(fs, args); done {
		return code
	}
	if !(*level > 0 && *level < 1) {
		fmt.Fprintf(e.stderr, "selfplay serve: -level %v is not in (0, 1)\n", *level)
		return exitUsage
	}
	db, err := openExisting(ctx, *dbPath)
	if err != nil {
		fmt.Fprintf(e.stderr, "selfplay serve: %v\n", err)
		return exitUsage
	}
	defer db.Close()
	logger := log.New(e.stderr, "", log.LstdFlags)
	h, err := serve.New(db, serve.Options{Level: *level, Log: logger})
	if err != nil {
		fmt.Fprintf(e.stderr, "selfplay serve: %v\n", err)
		return exitFailure
	}
	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		fmt.Fprintf(e.stderr, "selfplay serve: %v\n", err)
		return exitUsage
	}
	srv := &http.Server{
		Handler:           h,
		ReadHeaderTimeout: 10 * time.Second,
		IdleTimeout:       2 * time.Minute,
		ErrorLog:          logger,
	}
	fmt.Fprintf(e.stdout, "selfplay serve: %s on http://%s/ (read-only; Ctrl-C stops)\n", *dbPath, ln.Addr())
	done := make(chan error, 1)
	go func() { done <- srv.Serve(ln) }()
	select {
	case err := <-done:
		fmt.Fprintf(e.stderr, "selfplay serve: %v\n", err)
		return exitFailure
	case <-ctx.Done():
	}
	// Requests in flight get a few seconds to finish.
	shutCtx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := srv.Shutdown(shutCtx); err != nil && !errors.Is(err, context.DeadlineExceeded) {
		fmt.Fprintf(e.stderr, "selfplay serve: shutting down: %v\n", err)
		return exitFailure
	}
	fmt.Fprintln(e.stdout, "selfplay serve: stopped")
	return exitOK
}
