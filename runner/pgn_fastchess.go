package runner

import (
	"fmt"
	"math/big"
	"strconv"
	"strings"
	"time"

	"selfplay/config"
	"selfplay/engines"
	"selfplay/openings"
	"selfplay/openings/eco"
	"selfplay/store/record"
)

// The live PGN in fastchess's dialect (pgn_out's dialect = "fastchess"):
// the text fastchess 1.8.2 writes for a game (app/src/game/pgn/
// pgn_builder.cpp and pgn_gen.hpp), so that scripts that read fastchess's
// files read ours. The ECO and Opening tags come from the same lichess
// table fastchess embeds (openings/eco, pgn_builder.cpp:79-84). The engines' id name and
// author (EngineWhiteName ..., pgn_builder.cpp:36-49) are those stored with
// the game (record.Game.Identity), so that a resume writes them as the run
// that played it did; fastchess leaves out a tag with an empty value
// (pgn_gen.hpp:30-33), and so these for an engine that said nothing.

// fastchessDefaultEvent and fastchessDefaultSite are the Event and Site
// tags fastchess writes without -event and -site.
const (
	fastchessDefaultEvent = "Fastchess Tournament"
	fastchessDefaultSite  = "?"
)

// fastchessLineLength is where fastchess breaks movetext lines
// (pgn_gen.hpp:74: a line grows to at most 80 characters).
const fastchessLineLength = 80

// fastchessGame is what fastchess's PGN of a game needs beyond the game.
type fastchessGame struct {
	event, site string
	round       int       // fastchess's round_id + 1: the game pair's number
	tc          [2]string // White's and Black's TimeControl values
	fields      config.PGNFields
	notation    config.Notation
	min         bool // -pgnout min=true: the first seven tags, no comments
}

// fastchessEvent and fastchessSite are the tournament's Event and Site
// tags in fastchess's dialect.
func fastchessEvent(t *config.Tournament) string {
	if t.Event != "" {
		return t.Event
	}
	return fastchessDefaultEvent
}

func fastchessSite(t *config.Tournament) string {
	if t.Site != "" {
		return t.Site
	}
	return fastchessDefaultSite
}

// fastchessRound is the Round tag of game (pair, index): fastchess's
// pairing_id + 1 (matchmaking/tournament/roundrobin/roundrobin.cpp:137
// passes pairing.pairing_id as round_id, base/tournament.cpp:266 adds 1),
// a counter that base_scheduler.hpp:58-62 advances after each -games games
// of one pair of engines: both games of a pair share it, and with -games 1
// (games_per_opening = 1) every game has its own.
func fastchessRound(t *config.Tournament, pair, index int) int {
	if t.OneGamePerOpening {
		return 2*pair + index + 1
	}
	return pair + 1
}

// fastchessTermination is the Termination tag of a game that ended so
// (pgn_builder.cpp:211-230, convertMatchTermination): the end by the rules
// is "normal"; a crash, a broken protocol and a hung engine are fastchess's
// disconnect and stall, "abandoned".
func fastchessTermination(t record.Termination) string {
	switch t {
	case record.Checkmate, record.Stalemate, record.Repetition, record.FiftyMoves, record.InsufficientMaterial:
		return "normal"
	case record.Adjudication:
		return "adjudication"
	case record.IllegalMove:
		return "illegal move"
	case record.TimeForfeit:
		return "time forfeit"
	case record.EngineTimeout, record.EngineCrash, record.EngineError:
		return "abandoned"
	}
	return ""
}

// fastchessTimeControl is the TimeControl value of limits as fastchess's
// operator<< writes its TimeControl (game/timecontrol/timecontrol.cpp:62-78):
// "0.1/move" for a fixed move time (8 significant digits), else
// "moves/seconds+increment" with 6 significant digits, and "-" without a
// clock (node and depth limits). The times are fastchess's whole
// milliseconds (fastchessMillis): tc=40/60+0.123456789 is "40/60+0.123".
func fastchessTimeControl(l config.Limits) string {
	if l.MoveTime > 0 {
		return strconv.FormatFloat(fastchessSeconds64(l.MoveTime), 'g', 8, 64) + "/move"
	}
	tc := l.TC
	if tc == nil {
		return "-"
	}
	base, inc := fastchessMillis(tc.Base), fastchessMillis(tc.Increment)
	if tc.Moves == 0 && base == 0 && inc == 0 {
		return "-"
	}
	s := ""
	if tc.Moves > 0 {
		s = fmt.Sprintf("%d/", tc.Moves)
	}
	if base+inc > 0 {
		s += strconv.FormatFloat(float64(base)/1000, 'g', 6, 64)
	}
	if inc > 0 {
		s += "+" + strconv.FormatFloat(float64(inc)/1000, 'g', 6, 64)
	}
	return s
}

// fastchessMillis is the whole milliseconds fastchess makes of a time
// given in seconds (cli.cpp:75-88 parseDuration, used for tc= and st=):
// the text read as a long double, cast to double (parseScalar, cli.cpp:
// 44-49), times 1000 in long double (exact: 53 bits times 10), cut
// toward zero. So 0.123456789 is 123 and 0.3, the double just below it,
// 299. d stands for its exact decimal text (a time control read as
// minutes:seconds is summed by fastchess before, which this cannot see).
func fastchessMillis(d time.Duration) int64 {
	if d <= 0 {
		return 0
	}
	text := fmt.Sprintf("%d.%09d", d/time.Second, d%time.Second)
	x, _, err := big.ParseFloat(text, 10, 64, big.ToNearestEven) // std::stold: 64-bit mantissa
	if err != nil {
		return d.Milliseconds()
	}
	x.SetMode(big.ToNearestEven).SetPrec(53) // static_cast<double>
	x.SetPrec(128).Mul(x, big.NewFloat(1000))
	ms, _ := x.Int64() // static_cast<int64_t>: toward zero
	return ms
}

// fastchessSeconds64 is fastchess's milliseconds of d over 1000.0.
func fastchessSeconds64(d time.Duration) float64 { return float64(fastchessMillis(d)) / 1000 }

// fastchessDuration is a game's length as fastchess's time::duration
// writes it: whole seconds as HH:MM:SS (core/time/time.cpp:81-92).
func fastchessDuration(d time.Duration) string {
	s := int64(max(d, 0) / time.Second)
	return fmt.Sprintf("%02d:%02d:%02d", s/3600, s/60%60, s%60)
}

// fastchessDateTime is a moment as fastchess's time::datetime_iso writes
// it: local time and the zone's offset, "2025-01-31T14:05:09 +0100"
// (core/time/time.cpp:50-78).
func fastchessDateTime(t time.Time) string {
	return t.Local().Format("2006-01-02T15:04:05 -0700")
}

// writeFastchessPGN renders a game as fastchess's PgnBuilder does: the
// tags in its order (pgn_builder.cpp:28-77), one comment per move, the
// reason in the last move's, and movetext broken at 80 columns between
// moves (pgn_gen.hpp:56-126), ended by a blank line (pgn_builder.hpp:24);
// with fg.min, the tags up to Result (and SetUp and FEN) and no comments.
func writeFastchessPGN(g *record.Game, fg fastchessGame) (string, error) {
	var sb strings.Builder
	tag := func(name, value string) {
		if value == "" {
			return // pgn_gen.hpp:31
		}
		fmt.Fprintf(&sb, "[%s \"%s\"]\n", name, pgnTagValue(value))
	}
	tag("Event", fg.event)
	tag("Site", fg.site)
	tag("Date", g.Started.Local().Format("2006.01.02"))
	tag("Round", strconv.Itoa(fg.round))
	tag("White", g.White)
	tag("Black", g.Black)
	tag("Result", g.Result.String())
	if !fg.min {
		tag("EngineWhiteName", g.Identity[0].Name) // pgn_builder.cpp:36-49
		tag("EngineWhiteAuthor", g.Identity[0].Author)
		tag("EngineBlackName", g.Identity[1].Name)
		tag("EngineBlackAuthor", g.Identity[1].Author)
	}
	if strings.Join(strings.Fields(g.StartFEN), " ") != openings.StandardStartFEN {
		tag("SetUp", "1")
		tag("FEN", g.StartFEN)
	}
	if !fg.min {
		if err := writeFastchessTags(tag, g, fg); err != nil {
			return "", err
		}
	}
	sb.WriteByte('\n')
	writeFastchessMoves(&sb, g, fg)
	sb.WriteString("\n\n")
	return sb.String(), nil
}

// writeFastchessTags writes the tags after SetUp and FEN, which a minimal
// PGN leaves out (pgn_builder.cpp:64-84).
func writeFastchessTags(tag func(name, value string), g *record.Game, fg fastchessGame) error {
	opening, found, err := fastchessOpening(g)
	if err != nil {
		return err
	}
	tag("GameDuration", fastchessDuration(g.Finished.Sub(g.Started)))
	tag("GameStartTime", fastchessDateTime(g.Started))
	tag("GameEndTime", fastchessDateTime(g.Finished))
	tag("PlyCount", strconv.Itoa(fastchessPlyCount(g)))
	tag("Termination", fastchessTermination(g.Termination))
	if fg.tc[0] == fg.tc[1] {
		tag("TimeControl", fg.tc[0])
	} else {
		tag("WhiteTimeControl", fg.tc[0])
		tag("BlackTimeControl", fg.tc[1])
	}
	if found { // pgn_builder.cpp:79-84
		tag("ECO", opening.ECO)
		tag("Opening", opening.Name)
	}
	return nil
}

// fastchessOpening is the game's entry in the opening table, as
// getOpeningClassification finds it (pgn_builder.cpp:122-149). fastchess
// gives none for Chess960; selfplay plays only standard chess.
func fastchessOpening(g *record.Game) (eco.Opening, bool, error) {
	moves := make([]string, len(g.Moves))
	for i, m := range g.Moves {
		moves[i] = m.UCI
	}
	return eco.Classify(g.StartFEN, moves)
}

// writeFastchessMoves writes the movetext: "N. move {comment}" for
// White, "move {comment}" for Black but "N... move {comment}" for a first
// move by Black (pgn_gen.hpp:94-117), each such unit kept whole on a line
// of at most 80 characters, then the result (pgn_gen.hpp:122-123).
func writeFastchessMoves(sb *strings.Builder, g *record.Game, fg fastchessGame) {
	line := lineFiller{sb: sb, width: fastchessLineLength} // pgn_gen.hpp:71-86
	appendText := line.put
	fields := strings.Fields(g.StartFEN)
	blackFirst := len(fields) > 1 && fields[1] == "b"
	moveNo := 1
	if len(fields) > 5 {
		if n, err := strconv.Atoi(fields[5]); err == nil && n > 0 {
			moveNo = n
		}
	}
	reason := fastchessReason(g)
	if move, field, ok := fastchessIllegal(g); ok {
		reason = field + ": " + move
		if len(g.Moves) == 0 { // pgn_builder.cpp:86-91: the comment alone
			appendText("{" + sanitizeComment(reason) + "}")
		}
	}
	for i, m := range g.Moves {
		white := (i%2 == 0) != blackFirst
		var unit string
		switch {
		case white:
			unit = fmt.Sprintf("%d. ", moveNo)
		case i == 0:
			unit = fmt.Sprintf("%d... ", moveNo)
		}
		if !white {
			moveNo++
		}
		unit += moveText(m, fg.notation)
		if !fg.min { // createComment gives "" (pgn_builder.cpp:173), and no braces follow (pgn_gen.hpp:113-116)
			unit += " {" + fastchessComment(m, fg.fields, i == len(g.Moves)-1, reason) + "}"
		}
		appendText(unit)
	}
	appendText(g.Result.String())
}

// fastchessComment is a move's comment (pgn_builder.cpp:162-196): "book"
// for a book move, else "score/depth time" (the score as types/score.hpp:
// 43-55 writes it, the time as formatTime, pgn_builder.hpp:52-56), the
// fields asked for, and on the last move the game's reason, each after
// ", ".
func fastchessComment(m record.Move, fields config.PGNFields, last bool, reason string) string {
	if m.Book {
		return "book"
	}
	s := fmt.Sprintf("%s/%d %s", engines.Score(m.Score).Pawns(), m.Depth, fastchessSeconds(m.Time)) + moveFields(m, fields)
	if last && reason != "" {
		s += ", " + sanitizeComment(reason)
	}
	return s
}

// fastchessReason is a game's reason as fastchess words it (its
// match_.reason, matchmaking/match/match.hpp:233-246): for an engine's
// fault, the text before selfplay's detail ("White loses on time (100ms
// overrun)", "White disconnects", "White's connection stalls", "White
// makes an illegal move"); the stored reason keeps the detail. Other
// reasons are as stored.
func fastchessReason(g *record.Game) string {
	switch g.Termination {
	case record.TimeForfeit, record.IllegalMove, record.EngineCrash, record.EngineTimeout:
		field, _, _ := strings.Cut(g.Reason, ": ")
		return field
	}
	return g.Reason
}

// fastchessIllegal is the move of a game lost by an illegal one and the
// reason's words before it ("White makes an illegal move"), read from the
// stored reason (faultReason's `White makes an illegal move: NAME plays
// "e2e5"`); ok false for another game, or one whose reason holds no move.
// fastchess keeps the illegal move with the game's moves
// (matchmaking/match/match.cpp:523-549): PlyCount counts it, and the last
// comment reads "White makes an illegal move: e2e5" (pgn_builder.cpp:
// 176-178; the comment alone when the first move is illegal, :86-91).
func fastchessIllegal(g *record.Game) (move, field string, ok bool) {
	if g.Termination != record.IllegalMove {
		return "", "", false
	}
	field, rest, ok := strings.Cut(g.Reason, ": ")
	i := strings.LastIndex(rest, ` plays "`)
	if !ok || !strings.HasSuffix(field, " makes an illegal move") || i < 0 {
		return "", "", false
	}
	move, err := strconv.Unquote(rest[i+len(" plays "):])
	if err != nil || move == "" {
		return "", "", false
	}
	return move, field, true
}

// fastchessPlyCount is the PlyCount tag: the moves, and an illegal move
// that ended the game (pgn_builder.cpp:68 counts match_.moves, which
// holds it).
func fastchessPlyCount(g *record.Game) int {
	if _, _, ok := fastchessIllegal(g); ok {
		return len(g.Moves) + 1
	}
	return len(g.Moves)
}
