package serve

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"net/http"
	"os"
	"path/filepath"
	"sync"
	"time"

	"selfplay/store"
	"selfplay/store/record"
)

// source is one database file as the site reads it: its connection, the
// file it has open, and the tournaments' states counted from it. When
// the path names another file, the site starts a new source and retires
// the old one, which is closed when the last request using it ends.
type source struct {
	db    *store.Reader
	file  os.FileInfo // what the path named when db was opened; nil: not watched (newReaderServer)
	owned bool        // the server closes db

	refs    int  // requests using db (Server.watchMu)
	retired bool // no new request gets it (Server.watchMu)

	states *states
}

// states are the tournaments' states counted from one file. A file
// written in place gets a new connection (a new source) with the same
// states: each checks at its next update that its tournament and games
// are the ones it counted.
type states struct {
	mu   sync.Mutex
	byID map[int64]*tournamentState
}

func newSource(db *store.Reader, file os.FileInfo, owned bool, sts *states) *source {
	if sts == nil {
		sts = &states{byID: map[int64]*tournamentState{}}
	}
	return &source{db: db, file: file, owned: owned, states: sts}
}

// stateOf returns the state of tournament id, a new one if needed.
func (src *source) stateOf(id int64) *tournamentState {
	src.states.mu.Lock()
	defer src.states.mu.Unlock()
	st := src.states.byID[id]
	if st == nil {
		st = &tournamentState{}
		src.states.byID[id] = st
	}
	return st
}

// forgetDeleted drops the states of tournaments that are no longer stored
// (run -restart deletes one and stores it anew under a new id).
func (src *source) forgetDeleted(ts []record.Tournament) {
	stored := make(map[int64]bool, len(ts))
	for _, t := range ts {
		stored[t.ID] = true
	}
	src.states.mu.Lock()
	defer src.states.mu.Unlock()
	for id := range src.states.byID {
		if !stored[id] {
			delete(src.states.byID, id)
		}
	}
}

// CheckInterval is how often, at most, the site looks whether its path
// still names the database file it reads (a stat of the file; only
// requests look). It is the tournaments page's poll interval, so that a
// polling page notices a deleted or replaced database at its next poll
// or the one after.
const CheckInterval = pollInterval

// settleAfter is how long a new file at the path must have been left
// unchanged to be opened: by its modification time, or, for one that
// looks newer (a copy still being written, a clock that differs), since
// the site first saw it as it is.
const settleAfter = 2 * time.Second

// srcKey is the context key of the request's source.
type srcKey struct{}

// src returns the source of the request whose context ctx is (ServeHTTP
// puts it there); calls from outside a request (tests) read the current
// one.
func (s *Server) src(ctx context.Context) *source {
	if src, ok := ctx.Value(srcKey{}).(*source); ok {
		return src
	}
	s.watchMu.Lock()
	defer s.watchMu.Unlock()
	return s.cur
}

// acquire returns the source that a request reads, after looking at the
// path when the last look is CheckInterval old, or the 503 error that the
// request answers while there is no database to read. The caller
// releases the source.
func (s *Server) acquire(ctx context.Context) (*source, error) {
	s.watchMu.Lock()
	defer s.watchMu.Unlock()
	if s.path != "" && !s.closed {
		if now := s.now(); s.checked.IsZero() || now.Sub(s.checked) >= s.checkEvery {
			s.checked = now
			s.look(context.WithoutCancel(ctx), now)
		}
	}
	if s.cur == nil {
		return nil, s.gone
	}
	s.cur.refs++
	return s.cur, nil
}

// release ends a request's use of src, closing it if it was retired and
// this was its last request.
func (s *Server) release(src *source) {
	s.watchMu.Lock()
	defer s.watchMu.Unlock()
	src.refs--
	s.closeIfDone(src)
}

// closeIfDone closes a retired source that no request uses any more
// (s.watchMu held).
func (s *Server) closeIfDone(src *source) {
	if src.retired && src.refs == 0 && src.owned {
		src.owned = false // closed once
		if err := src.db.Close(); err != nil {
			s.log.Printf("selfplay serve: closing the database %s: %v", s.path, err)
		}
	}
}

// retire stops handing out the current source (s.watchMu held); it is
// remembered as the last one read, in case its file comes back.
func (s *Server) retire() {
	if s.cur == nil {
		return
	}
	s.cur.retired = true
	s.closeIfDone(s.cur)
	s.last, s.cur = s.cur, nil
}

// unavailable is the error of every request while the path names no
// database that the site can read: a 503 that names the path.
func unavailable(format string, args ...any) error {
	return &httpError{http.StatusServiceUnavailable, fmt.Sprintf(format, args...)}
}

// look compares the file at the path with the one the site reads
// (s.watchMu held):
//   - no file: every request is a 503 that says so;
//   - the same file (device and inode), unchanged: read on;
//   - the same file grown or written since (a run's checkpoint, or a copy
//     written over it): once it has settled, read with a new connection,
//     since SQLite's connections keep pages they read before a write that
//     did not go through SQLite; the states counted carry over;
//   - another file, or the same one shrunk or with an older modification
//     time (never a run's doing: a backup restored over it): once it has
//     settled (a 503 until then), read from scratch.
func (s *Server) look(ctx context.Context, now time.Time) {
	fi, err := os.Stat(s.abs)
	if err != nil {
		if s.cur != nil || s.pending != nil || s.gone == nil {
			s.log.Printf("selfplay serve: the database %s is gone (%v); the site answers 503 until a database is back at that path",
				s.path, pathErr(err))
		}
		s.retire()
		s.pending = nil
		if errors.Is(err, fs.ErrNotExist) {
			s.gone = unavailable("The database %s is gone: it was deleted or moved while the site was reading it. "+
				"The site shows it again when a selfplay database is back at that path.", s.path)
		} else {
			s.gone = unavailable("The database %s cannot be read: %v. The site shows it again when it can.", s.path, pathErr(err))
		}
		return
	}
	if s.cur != nil {
		old := s.cur.file
		if sameStat(fi, old) {
			return
		}
		if os.SameFile(fi, old) && fi.Size() >= old.Size() && !fi.ModTime().Before(old.ModTime()) {
			if s.settled(fi, now) {
				s.open(ctx, fi, s.cur.states)
			}
			return // meanwhile the connection reads on
		}
		s.log.Printf("selfplay serve: the database %s was replaced by another file; the site reads the new one", s.path)
		s.retire()
	}
	if s.last != nil && sameStat(fi, s.last.file) {
		s.open(ctx, fi, s.last.states) // moved away and back, unchanged
		return
	}
	if !s.settled(fi, now) {
		s.gone = unavailable("The database %s was replaced by another file, which is still being written; "+
			"the site shows it when it stops changing.", s.path)
		return
	}
	s.open(ctx, fi, nil)
}

// settled reports whether the file fi, which the site does not read yet,
// has been left unchanged for settleAfter: by its modification time, or
// since the site first saw it as it is (s.watchMu held).
func (s *Server) settled(fi os.FileInfo, now time.Time) bool {
	if s.pending == nil || !sameStat(fi, s.pending) {
		s.pending, s.pendingSince = fi, now
	}
	return now.Sub(fi.ModTime()) >= settleAfter || now.Sub(s.pendingSince) >= settleAfter
}

// open makes the file fi at the path the one the site reads, with the
// states sts (nil: none counted yet), and retires the source read so far;
// a file that cannot be read makes every request a 503 (s.watchMu held).
func (s *Server) open(ctx context.Context, fi os.FileInfo, sts *states) {
	db, err := store.OpenReader(ctx, s.path)
	if err == nil {
		// What was opened is what was looked at, not a file that took
		// its place meanwhile.
		var after os.FileInfo
		if after, err = os.Stat(s.abs); err == nil && !sameStat(after, fi) {
			err = errors.New("it changed while it was opened")
		}
		if err != nil {
			db.Close()
		}
	}
	s.retire()
	s.pending = nil
	if err != nil {
		s.gone = unavailable("The file now at %s cannot be read as a selfplay database (%v); "+
			"the site shows it when it can.", s.path, err)
		return
	}
	s.cur, s.last, s.gone = newSource(db, fi, true, sts), nil, nil
}

// sameStat reports whether a and b describe the same file with the same
// size and modification time.
func sameStat(a, b os.FileInfo) bool {
	return os.SameFile(a, b) && a.Size() == b.Size() && a.ModTime().Equal(b.ModTime())
}

// pathErr is err without the path that *fs.PathError repeats: the
// messages name the path as the user gave it.
func pathErr(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

// Open opens the database at path read-only (store.OpenReader) and returns
// its site, which follows the path: while no database is there (deleted,
// moved) every page answers 503 with a page that says so, and when
// another file takes its place (a backup restored, a copy moved in) the
// site reads that one, counting its tournaments afresh. The caller closes
// the Server after the HTTP server stops.
func Open(ctx context.Context, path string, opt Options) (*Server, error) {
	abs, err := filepath.Abs(path)
	if err != nil {
		return nil, fmt.Errorf("database %s: %w", path, err)
	}
	db, err := store.OpenReader(ctx, path)
	if err != nil {
		return nil, err
	}
	// The file opened (one replaced in between is noticed at the first
	// look that sees another).
	fi, err := os.Stat(abs)
	if err != nil {
		db.Close()
		return nil, fmt.Errorf("database %s: %w", path, pathErr(err))
	}
	s, err := newServer(newSource(db, fi, true, nil), opt)
	if err != nil {
		db.Close()
		return nil, err
	}
	s.path, s.abs = path, abs
	return s, nil
}

// Close closes the database of a Server made by Open, at once or when
// the last request using it ends; requests after Close answer 503. A
// Server made by newReaderServer leaves its Reader to the caller.
func (s *Server) Close() error {
	s.watchMu.Lock()
	defer s.watchMu.Unlock()
	s.closed = true
	s.retire()
	s.pending = nil
	s.gone = unavailable("The site is shutting down.")
	return nil
}
