#!/bin/bash
# End-to-end test of deploy/slurm on a real one-node Slurm cluster
# (ci-cluster.sh): a small tournament submitted as docs/cluster.md says (4 array
# tasks), merged, and compared with one process playing it all; then an
# SPRT run in waves (sprt-waves.sh) to its decision, compared with one
# process with concurrency 1. The daemons it starts are stopped by their
# PIDs at the end. Needs root; installs slurm-wlm and munge if missing.
set -euo pipefail

repo=$(cd "$(dirname "$0")/../.." && pwd)
work=$(mktemp -d "${TMPDIR:-/tmp}/selfplay-slurm-ci.XXXXXX")
chmod 0755 "$work" # the daemons and jobs are not all root
state=$work/cluster
cleanup() {
  "$repo/deploy/slurm/ci-cluster.sh" stop "$state" || true
  if [ "${KEEP:-}" != 1 ]; then rm -rf "$work"; else echo "slurm-ci: kept $work"; fi
}
trap cleanup EXIT
if ! command -v jq >/dev/null; then
  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq jq >/dev/null
fi
"$repo/deploy/slurm/ci-cluster.sh" start "$state"
export SLURM_CONF=$state/slurm.conf

cd "$work"
# The binary, built as docs/cluster.md builds it.
(cd "$repo" && CGO_ENABLED=0 go build -trimpath -o "$work/selfplay" ./cmd/selfplay)

cat > match.toml <<'TOML'
database = "selfplay.db"
[engines.plain]
preset = "plain"
hash = 1
[engines.fhr]
preset = "fhr"
hash = 1
[[tournament]]
name = "ci-match"
engines = ["fhr", "plain"]
[tournament.openings]
set = "fhr25"
[tournament.limits]
nodes = 300
[tournament.adjudication]
move = 30
referee_nodes = 1000
TOML
sed -e 's/ci-match/ci-sprt/' -e 's/^\[tournament.openings\]/rounds = 40\n[tournament.openings]/' match.toml > sprt.toml
printf '[tournament.sprt]\nelo0 = 0\nelo1 = 100\nalpha = 0.1\nbeta = 0.1\n' >> sprt.toml

# timeless PGN: without dates and the time of each move.
timeless() {
  ./selfplay export -db "$1" 2>/dev/null | grep -v '^\[Date ' | tr -s ' \n' '\n\n' | sed -E 's/^[0-9.]+s\}$/Ts}/'
}
# the report without times (when played, time per move, nodes per second).
numbers() {
  ./selfplay report -db "$1" -format json | jq -S 'del(.. | .played?, .time_ms?, .nps?)'
}
fail() { echo "slurm-ci: FAIL: $*" >&2; exit 1; }

echo "slurm-ci: 4 shards as a job array"
start=$(date +%s)
sbatch --wait --array=0-3 "$repo/deploy/slurm/shard.sbatch" match.toml results
sbatch --wait "$repo/deploy/slurm/merge.sbatch" results
ls results
[ "$(ls results/selfplay.shard-*-of-04.db | wc -l)" = 4 ] || fail "not 4 shard databases in results/"
echo "slurm-ci: cluster run took $(($(date +%s) - start)) s"
./selfplay run -config match.toml -db single.db -concurrency 2 >/dev/null
# Databases are compared on the local disk, as docs/cluster.md says.
cp results/merged.db merged.db
timeless single.db > single.pgn
timeless merged.db > merged.pgn
cmp -s single.pgn merged.pgn || { diff single.pgn merged.pgn | head -20; fail "the merged PGN differs from one process's"; }
numbers single.db > single.json
numbers merged.db > merged.json
cmp -s single.json merged.json || { diff single.json merged.json | head -20; fail "the merged report differs from one process's"; }
[ "$(jq -r '.tournaments[0].status' merged.json)" = complete ] || fail "the merged tournament is not complete"
echo "slurm-ci: merged shards = one process: $(jq -r '.tournaments[0] | "\(.games_stored) games, \(.status)"' merged.json)"

echo "slurm-ci: SPRT in waves"
"$repo/deploy/slurm/sprt-waves.sh" sprt.toml sprt-results 4 1 2
./selfplay run -config sprt.toml -db sprt-single.db -concurrency 1 >/dev/null
want=$(./selfplay report -db sprt-single.db -format json | jq -r '.tournaments[0].pairings[0].sprt | "\(.state) \(.llr)"')
got=$(jq -r '.tournaments[0].pairings[0].sprt | "\(.state) \(.llr)"' sprt-results/report.json)
[ "$want" = "$got" ] || fail "waves decided '$got', one process '$want'"
case $got in H0* | H1*) ;; *) fail "no SPRT decision: $got" ;; esac
echo "slurm-ci: waves decided as one process: $got"
echo "slurm-ci: ok"
