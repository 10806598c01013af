#!/bin/sh
# rejudge.sh GAMES.pgn.gz NODES OUT.pgn [SELFPLAY]
#
# Judges again, with a referee of NODES nodes, the games of a selfplay PGN
# that the referee adjudicated at the move limit: the same search the
# runner makes (`plain`, a fresh 16 MiB table, the game's start position
# and every move played), so NODES = 200000 gives back the stored results
# of a tournament with the default referee. Prints one line per such game
# (round, stored result, the referee's score for White in centipawns or
# M and the moves to mate, new result, with a win from 200 centipawns as the tournaments' margin) and
# writes the games to OUT.pgn with the new results. SELFPLAY is the
# command to run (default: selfplay). Needs pgn-extract.
set -eu
in=$1 nodes=$2 out=$3 sp=${4:-selfplay}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
gzip -dc "$in" > "$tmp/in.pgn"
# One line per game: its tags, then its moves in UCI notation.
pgn-extract -s -Wuci -C -N -V --nomovenumbers -w100000 -o "$tmp/uci.pgn" "$tmp/in.pgn"
awk -v RS= -v FS='\n' '
	/^\[/ {
		pending = /\[Termination "adjudication"\]/
		fen = "startpos"
		for (i = 1; i <= NF; i++) {
			if ($i ~ /^\[Round "/) { round = $i; sub(/^\[Round "/, "", round); sub(/"\]$/, "", round) }
			else if ($i ~ /^\[FEN "/) { fen = $i; sub(/^\[FEN "/, "", fen); sub(/"\]$/, "", fen) }
			else if ($i ~ /^\[Result "/) { res = $i; sub(/^\[Result "/, "", res); sub(/"\]$/, "", res) }
		}
		next
	}
	pending {
		moves = $0
		gsub(/\n/, " ", moves)
		sub(/ *(1-0|0-1|1\/2-1\/2|\*) *$/, "", moves)
		print round "\t" res "\t" fen "\t" tolower(moves)
		pending = 0
	}' "$tmp/uci.pgn" > "$tmp/adjudicated.tsv"
printf 'round\tstored\tscore\tnew\n'
while IFS="$(printf '\t')" read -r round stored fen moves; do
	# The last info line is the referee's result; its score is the side to
	# move's, and the side to move follows from the number of moves played
	# (a FEN with black to move flips it once more). A mate is M and the
	# moves to it, as in selfplay's PGN.
	set -- $("$sp" search -fen "$fen" -moves "$moves" -variant plain -nodes "$nodes" -hash 16 |
		awk '/^info depth/ { last = $0 } END {
			n = split(last, f, " ")
			for (i = 1; i < n; i++) if (f[i] == "score") print f[i+1], f[i+2] }')
	kind=$1 value=$2
	plies=$(echo "$moves" | wc -w)
	case "$fen" in *" b "*) plies=$((plies + 1)) ;; esac
	[ $((plies % 2)) -eq 1 ] && value=$((-value))
	if [ "$kind" = mate ]; then
		score=$(echo "$value" | sed 's/^-/-M/; s/^\([0-9]\)/M\1/')
		[ "$value" -gt 0 ] && new=1-0 || new=0-1
	else
		score=$value
		if [ "$value" -ge 200 ]; then new=1-0; elif [ "$value" -le -200 ]; then new=0-1; else new=1/2-1/2; fi
	fi
	printf '%s\t%s\t%s\t%s\n' "$round" "$stored" "$score" "$new"
done < "$tmp/adjudicated.tsv" | tee "$tmp/new.tsv"
# The games again, each adjudicated one with its new result in its Result
# tag, its termination marker and its closing comment.
awk -v nodes="$nodes" '
	function shown(s) { return s ~ /M/ ? (s ~ /^-/ ? s : "+" s) : sprintf("%+.2f", s / 100) }
	FNR == NR { result[$1] = $4; score[$1] = $3; next }
	/^\[/ {
		hit = 0
		if (match($0, /\[Round "[^"]*"\]/)) {
			round = substr($0, RSTART + 8, RLENGTH - 10)
			hit = (round in result)
		}
		if (hit) sub(/\[Result "[^"]*"\]/, "[Result \"" result[round] "\"]")
		print; next
	}
	hit {
		n = sub(/(1-0|0-1|1\/2-1\/2)[ \n]+\{Adjudicated[ \n]+at[ \n]+move[ \n]+[0-9]+:[^}]*\}[ \n]*$/,
			result[round] " {Adjudicated at move 100: rejudged by referee plain at " nodes " nodes, " shown(score[round]) " for White}")
		if (n != 1) { print "rejudge.sh: round " round ": no adjudication comment at the end of its moves" > "/dev/stderr"; exit 1 }
	}
	{ print }' FS='\t' "$tmp/new.tsv" RS= ORS='\n\n' "$tmp/in.pgn" > "$out"
