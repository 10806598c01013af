package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log"
	"net"
	"net/http"
	"strconv"
	"strings"
	"time"

	"selfplay/internal/termtext"
	"selfplay/serve"
	"selfplay/stats"
)

// cmdServe serves a read-only web site over a database until the context
// ends (SIGINT, SIGTERM). Exit codes: 2 for bad flags, a missing or
// foreign database, an address that cannot be bound; 1 when serving
// fails; 0 after a clean shutdown.
func cmdServe(ctx context.Context, e env, args []string) error {
	fs := newFlagSet(e, "serve", "[-db selfplay.db] [-addr 127.0.0.1:8080] [-level 0.95]")
	dbPath := fs.String("db", "selfplay.db", "database file (opened read-only; a run may be writing it)")
	addr := fs.String("addr", "127.0.0.1:8080", "address to listen on (host:port, or a port alone for 127.0.0.1; "+
		"the default is reachable from this machine only)")
	level := fs.Float64("level", stats.DefaultLevel, "confidence level of the intervals, in (0, 1)")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if !(*level > 0 && *level < 1) {
		return usageErrorf("-level %v is not in (0, 1)", *level)
	}
	h, logger, err := openSite(ctx, e.stderr, *dbPath, *level)
	if err != nil {
		return inputError(err)
	}
	defer h.Close()
	ln, err := listen(*addr)
	if err != nil {
		return inputErrorf("-addr: %w", err)
	}
	srv := startSite(logger, h, ln)
	fmt.Fprintf(e.stdout, "selfplay serve: %s on http://%s/ (read-only; Ctrl-C stops)\n", *dbPath, srv.addr)
	select {
	case err := <-srv.failed:
		return err
	case <-ctx.Done():
	}
	if err := srv.stop(); err != nil {
		return fmt.Errorf("shutting down: %w", err)
	}
	fmt.Fprintln(e.stdout, "selfplay serve: stopped")
	return nil
}

// site is the web site of a database, listening (serve, run -serve).
type site struct {
	addr   net.Addr
	srv    *http.Server
	failed chan error // receives the error if serving stops by itself
}

// listenAddress is the address to listen on for -addr or -serve: a port
// alone ("8080") means 127.0.0.1, so that only an explicit host (":8080",
// "0.0.0.0:8080") makes the site reachable from other machines. A port
// number out of range is an error of its own (net.Listen would call 99999
// a "missing port in address"); 0 asks for any free port.
func listenAddress(addr string) (string, error) {
	port, bare := addr, true
	if _, p, err := net.SplitHostPort(addr); err == nil {
		port, bare = p, false
	}
	if port != "" && strings.Trim(port, "0123456789") == "" {
		if n, err := strconv.ParseUint(port, 10, 64); err != nil || n > 65535 {
			return "", fmt.Errorf("%q: port %s is out of range: want 1..65535", addr, port)
		}
		if bare {
			return net.JoinHostPort("127.0.0.1", port), nil
		}
	}
	return addr, nil
}

// listen listens on addr as listenAddress reads it.
func listen(addr string) (net.Listener, error) {
	a, err := listenAddress(addr)
	if err != nil {
		return nil, err
	}
	return net.Listen("tcp", a)
}

// openSite opens the database at dbPath read-only and returns its web
// site, which follows the file at that path (serve.Open), and the logger
// of its errors, which go to logw.
func openSite(ctx context.Context, logw io.Writer, dbPath string, level float64) (*serve.Server, *log.Logger, error) {
	logger := log.New(escapedWriter{logw}, "", log.LstdFlags)
	h, err := serve.Open(ctx, dbPath, serve.Options{Level: level, Log: logger})
	return h, logger, err
}

// startSite serves h on ln in the background.
func startSite(logger *log.Logger, h http.Handler, ln net.Listener) *site {
	s := &site{
		addr: ln.Addr(),
		srv: &http.Server{
			Handler:           h,
			ReadHeaderTimeout: 10 * time.Second,
			IdleTimeout:       2 * time.Minute,
			ErrorLog:          logger,
		},
		failed: make(chan error, 1),
	}
	go func() {
		if err := s.srv.Serve(ln); !errors.Is(err, http.ErrServerClosed) {
			s.failed <- err
		}
	}()
	return s
}

// stop shuts the site down, giving requests in flight a few seconds to
// finish.
func (s *site) stop() error {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	err := s.srv.Shutdown(ctx)
	if errors.Is(err, context.DeadlineExceeded) {
		return s.srv.Close() // the slow ones are cut off
	}
	return err
}

// escapedWriter escapes what is written to it (termtext.EscapeLines): the
// site's log quotes request paths and server errors, which a client
// chooses. A log.Logger writes each entry in one Write, so no character is
// split between two.
type escapedWriter struct{ w io.Writer }

func (e escapedWriter) Write(p []byte) (int, error) {
	if _, err := io.WriteString(e.w, termtext.EscapeLines(string(p))); err != nil {
		return 0, err
	}
	return len(p), nil
}
