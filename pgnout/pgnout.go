// Package pgnout keeps a live game file, PGN or EPD, that a run appends to
// game by game: each game goes out in one write followed by an fsync, and
// opening the file cuts off a torn last game (a crash of the machine or a
// full disk in the middle of a write), so the file never holds half a game.
// A last game that is whole but lacks the blank line (or the EPD line its
// line break) that selfplay ends a game with, as files of other tools and
// editors may, is kept, and the missing end written.
// Opening also reads which games the file holds, by key (the PGN's Event,
// Round, White and Black tags, the EPD line's c0 and id operations), so that a resumed
// run continues after the last one instead of writing a game twice.
//
// What goes in the file, and in what order, is the runner's business; this
// package knows only how a game's text starts and ends.
package pgnout

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
)

// Format is a live file's kind.
type Format int

const (
	PGN Format = iota // games as PGN text, each ended by a blank line
	EPD               // one line per game: its final position
)

// Key identifies a game in a live file: its tournament (the PGN's Event)
// and its place in the tournament's schedule (the PGN's Round, "pair.game",
// or the pair's number in fastchess's dialect). White and Black are the
// PGN's players (empty in an EPD file): in fastchess's dialect every
// tournament without an event shares one Event, and its players tell
// whose game it is.
type Key struct{ Event, Round, White, Black string }

// File is a live game file open for appending.
type File struct {
	f       *os.File
	path    string
	written []Key
	cut     int64 // bytes of a torn last game cut off by Open
	regular bool  // a regular file: not a device, FIFO or socket
}

// Open opens (creating it if need be) the live file at path, cuts off a
// torn last game, and reads the keys of the games it holds. A device, FIFO
// or socket (/dev/null, /dev/stdout, a pipe to a reader) holds no games to
// read back: it is written to, never read, cut or synced.
func Open(path string, format Format) (*File, error) {
	lf, err := open(path, format)
	if err != nil || !lf.regular {
		return lf, err
	}
	keys, end, pad, err := scan(bufio.NewReader(lf.f), format)
	if err == nil {
		lf.cut, err = truncateTorn(lf.f, end, pad)
	}
	if err != nil {
		lf.f.Close()
		return nil, fmt.Errorf("live %s file %s: %w", format, path, err)
	}
	lf.written = keys
	return lf, nil
}

// OpenUnread opens (creating it if need be) the live file at path without
// reading it, for a caller that empties it (Empty) before it writes:
// fastchess's append=false, whatever the file held, another tool's text
// included.
func OpenUnread(path string, format Format) (*File, error) {
	return open(path, format)
}

func open(path string, format Format) (*File, error) {
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o644)
	if err != nil {
		return nil, fmt.Errorf("live %s file: %w", format, err)
	}
	st, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, fmt.Errorf("live %s file: %w", format, err)
	}
	return &File{f: f, path: path, regular: st.Mode().IsRegular()}, nil
}

func (fm Format) String() string {
	if fm == EPD {
		return "EPD"
	}
	return "PGN"
}

// truncateTorn cuts the file after its last whole game (at end), writes
// pad there (the end that game lacks, if any) and leaves the write offset
// after it. It returns how many bytes it cut.
func truncateTorn(f *os.File, end int64, pad string) (cut int64, err error) {
	st, err := f.Stat()
	if err != nil {
		return 0, err
	}
	if st.Size() > end {
		cut = st.Size() - end
		if err := f.Truncate(end); err != nil {
			return 0, fmt.Errorf("cutting off a torn last game: %w", err)
		}
	}
	if _, err = f.Seek(end, io.SeekStart); err != nil {
		return 0, err
	}
	if pad != "" {
		if _, err := f.WriteString(pad); err != nil {
			return 0, fmt.Errorf("ending its last game: %w", err)
		}
	}
	if cut > 0 || pad != "" {
		if err := f.Sync(); err != nil {
			return 0, err
		}
	}
	return cut, nil
}

// Cut is how many bytes of a torn last game Open cut off (0: none).
func (f *File) Cut() int64 { return f.cut }

// Written returns the keys of the games the file held when opened, in
// file order.
func (f *File) Written() []Key { return f.written }

// Path is the file's path.
func (f *File) Path() string { return f.path }

// Append writes a game's text (as PGNText or EPDLine made it) in one
// write and syncs it to disk before returning.
func (f *File) Append(text string) error {
	if _, err := f.f.WriteString(text); err != nil {
		return fmt.Errorf("live file %s: %w", f.path, err)
	}
	if !f.regular {
		return nil // a device or a pipe keeps nothing to sync (fsync fails: EINVAL)
	}
	if err := f.f.Sync(); err != nil {
		return fmt.Errorf("live file %s: %w", f.path, err)
	}
	return nil
}

// Empty cuts the file to nothing (fastchess's append=false on a fresh
// tournament: the file is started afresh, its games of any tournament
// gone) and syncs it; a device or a pipe, which holds nothing, stays as it
// is.
func (f *File) Empty() error {
	f.written = nil
	if !f.regular {
		return nil
	}
	if err := f.f.Truncate(0); err != nil {
		return fmt.Errorf("live file %s: %w", f.path, err)
	}
	if _, err := f.f.Seek(0, io.SeekStart); err != nil {
		return fmt.Errorf("live file %s: %w", f.path, err)
	}
	if err := f.f.Sync(); err != nil {
		return fmt.Errorf("live file %s: %w", f.path, err)
	}
	return nil
}

// Close closes the file.
func (f *File) Close() error { return f.f.Close() }

// scan reads the games of a live file: their keys, the offset just after
// the last whole one (where a torn tail starts), and the end that this
// last game lacks ("" when it has it).
func scan(r *bufio.Reader, format Format) (keys []Key, end int64, pad string, err error) {
	if format == EPD {
		return scanEPD(r)
	}
	return scanPGN(r)
}

// PGN reading states: a game is tag lines, a blank line, movetext lines
// and a blank line; it is whole once that last blank line is read, or at
// the end of the file once its movetext has ended (movetext.ended).
const (
	between = iota // before a game (blank lines between games are allowed)
	inTags
	afterTags // the blank line after the tags: movetext comes next
	inMoves
)

func scanPGN(r *bufio.Reader) (keys []Key, end int64, pad string, err error) {
	state := between
	var pos int64
	var key Key
	var moves movetext
	for {
		line, rerr := readLine(r)
		if rerr != nil && rerr != io.EOF {
			return nil, 0, "", rerr
		}
		pos += int64(len(line))
		blank := strings.TrimRight(line, "\r\n") == ""
		if rerr == io.EOF {
			// The end of the file, after line (a last line without its
			// line break, or nothing).
			if !blank && (state == afterTags || state == inMoves) {
				moves.feed(line)
				state = inMoves
			}
			if state != inMoves || !moves.ended() {
				return keys, end, "", nil // nothing, or a torn last game
			}
			pad = "\n" // the blank line
			if strings.TrimSpace(line) != "" {
				pad = "\n\n" // the line break too
			}
			return append(keys, key), pos, pad, nil
		}
		switch {
		case state == between && blank:
			end = pos
		case (state == between || state == inTags) && strings.HasPrefix(line, "["):
			state = inTags
			readTag(line, &key)
		case state == between:
			return nil, 0, "", notLive(fmt.Sprintf("line %q is not PGN as selfplay writes it (a tag line, then the moves)", quoted(line)))
		case state == inTags && blank:
			state = afterTags
		case state == afterTags && !blank, state == inMoves && !blank:
			state = inMoves
			moves.feed(line)
		case state == inMoves && blank:
			keys = append(keys, key)
			key, moves = Key{}, movetext{}
			end, state = pos, between
		default: // not a torn tail (that ends the file): damage
			return nil, 0, "", notLive(fmt.Sprintf("line %q is not PGN as selfplay writes it (a game without moves)", quoted(line)))
		}
	}
}

// movetext follows a game's movetext far enough to tell whether it has
// ended: its last token outside comments is a game termination marker and
// no comment is open. (Only a crash in the middle of a write tears a game
// of selfplay's; a tear just after the marker loses the comment that
// follows it, the reason of the result, and keeps the game.)
type movetext struct {
	inComment bool   // inside a {} comment
	last      string // the last token outside comments
}

func (m *movetext) feed(line string) {
	tok := -1 // where the token being read starts; -1: none
	flush := func(i int) {
		if tok >= 0 {
			m.last, tok = line[tok:i], -1
		}
	}
	for i := 0; i < len(line); i++ {
		switch c := line[i]; {
		case m.inComment:
			m.inComment = c != '}'
		case c == '{':
			flush(i)
			m.inComment = true
		case c == ';':
			flush(i)
			return // a comment to the end of the line
		case c == ' ' || c == '\t' || c == '\r' || c == '\n':
			flush(i)
		case tok < 0:
			tok = i
		}
	}
	flush(len(line))
}

func (m *movetext) ended() bool {
	switch m.last {
	case "1-0", "0-1", "1/2-1/2", "*":
		return !m.inComment
	}
	return false
}

// maxLine bounds a line of a live file (selfplay's lines have at most a
// few hundred bytes; a comment of an engine's PV, a few KB): a file
// without line breaks is refused, not read into memory whole.
const maxLine = 1 << 20

// readLine is bufio.Reader.ReadString('\n') with lines bounded by
// maxLine.
func readLine(r *bufio.Reader) (string, error) {
	var b []byte
	for {
		chunk, err := r.ReadSlice('\n')
		if len(b)+len(chunk) > maxLine {
			return "", notLive(fmt.Sprintf("a line longer than %d bytes", maxLine))
		}
		b = append(b, chunk...)
		if err != bufio.ErrBufferFull {
			return string(b), err
		}
	}
}

// quoted is a line of the file as an error quotes it: trimmed, and cut to
// 60 bytes (a binary file's "line" may be kilobytes).
func quoted(line string) string {
	line = strings.TrimSpace(line)
	if len(line) > 60 {
		line = strings.ToValidUTF8(line[:60], "") + "..."
	}
	return line
}

// readTag keeps the Event, Round, White and Black tags of a tag line.
func readTag(line string, key *Key) {
	name, value, ok := strings.Cut(strings.TrimSpace(line), " ")
	if !ok {
		return
	}
	name = strings.TrimPrefix(name, "[")
	value = strings.TrimSuffix(value, "]")
	value = strings.TrimSuffix(strings.TrimPrefix(value, `"`), `"`)
	value = strings.NewReplacer(`\\`, `\`, `\"`, `"`).Replace(value)
	switch name {
	case "Event":
		key.Event = value
	case "Round":
		key.Round = value
	case "White":
		key.White = value
	case "Black":
		key.Black = value
	}
}

func scanEPD(r *bufio.Reader) (keys []Key, end int64, pad string, err error) {
	for {
		line, rerr := readLine(r)
		if rerr != nil && rerr != io.EOF {
			return nil, 0, "", rerr
		}
		if !strings.HasSuffix(line, "\n") {
			// The end, or a last line without its line break: whole if it
			// ends as selfplay's lines do, with the id operation's ";".
			if k, ok := epdKey(line); ok && strings.HasSuffix(strings.TrimSpace(line), ";") {
				return append(keys, k), end + int64(len(line)), "\n", nil
			}
			return keys, end, "", nil
		}
		end += int64(len(line))
		if strings.TrimSpace(line) == "" {
			continue
		}
		k, ok := epdKey(line)
		if !ok {
			return nil, 0, "", notLive(fmt.Sprintf("line %q has no c0 and id operations (the tournament and the game)", quoted(line)))
		}
		keys = append(keys, k)
	}
}

// EPDLine is a game's line in a live EPD file: the final position's FEN
// as EPD (its first four fields, the move counters as hmvc and fmvn) with
// the tournament as c0 and the game's round as id.
func EPDLine(fen string, k Key) (string, error) {
	f := strings.Fields(fen)
	if len(f) != 6 {
		return "", fmt.Errorf("final position %q is not a FEN of 6 fields", fen)
	}
	return fmt.Sprintf("%s hmvc %s; fmvn %s; c0 %s; id %s;\n", strings.Join(f[:4], " "), f[4], f[5], epdString(k.Event), epdString(k.Round)), nil
}

// epdString quotes an EPD string operand; the quote and backslash are
// escaped as in PGN, and control characters (a line break would split the
// game) become spaces.
func epdString(s string) string {
	s = strings.Map(func(r rune) rune {
		if r < 0x20 || r == 0x7f {
			return ' '
		}
		return r
	}, s)
	return `"` + strings.NewReplacer(`\`, `\\`, `"`, `\"`).Replace(s) + `"`
}

// epdKey reads the c0 and id operations of an EPD line.
func epdKey(line string) (Key, bool) {
	var k Key
	var hasEvent, hasRound bool
	rest := line
	for {
		i := strings.Index(rest, ` "`)
		if i < 0 {
			break
		}
		op := rest[:i]
		if j := strings.LastIndexAny(op, " ;"); j >= 0 {
			op = op[j+1:]
		}
		val, after, ok := readQuoted(rest[i+2:])
		if !ok {
			return Key{}, false
		}
		switch op {
		case "c0":
			k.Event, hasEvent = val, true
		case "id":
			k.Round, hasRound = val, true
		}
		rest = after
	}
	return k, hasEvent && hasRound
}

// readQuoted reads a quoted string's body up to its closing quote (the
// opening one already read), undoing the escapes.
func readQuoted(s string) (val, rest string, ok bool) {
	var b bytes.Buffer
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '\\':
			if i+1 < len(s) {
				i++
				b.WriteByte(s[i])
			}
		case '"':
			return b.String(), s[i+1:], true
		default:
			b.WriteByte(s[i])
		}
	}
	return "", "", false
}

// ErrNotLiveFile is matched by the errors of a file that is not a live
// game file of selfplay's (its text, not its games, is foreign): it is
// refused, not cut or appended to.
var ErrNotLiveFile = errors.New("not a live game file")

// notLive is an error of a file that is not a live game file; it matches
// ErrNotLiveFile.
type notLive string

func (e notLive) Error() string      { return string(e) }
func (notLive) Is(target error) bool { return target == ErrNotLiveFile }

// ErrForeign is wrapped by the errors of a live file whose games are not
// the first games of the tournament's schedule in schedule order.
var ErrForeign = errors.New("the file's games do not follow the tournament's schedule")
