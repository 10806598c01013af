#!/bin/bash
# Runs a tournament's SPRT on a Slurm cluster in waves: shards cannot stop
# each other when the test decides, so each wave plays the first K pairs of
# every shard's share (selfplay run -shard slurm -pairs K), the shards are
# merged, and the merged database's report says whether the test decided;
# if not, the next wave resumes the same shards with a larger K.
#
#   deploy/slurm/sprt-waves.sh CONFIG RESULTS SHARDS [FIRST_PAIRS [GROWTH]]
#
# Wave w plays up to K_w = FIRST_PAIRS * GROWTH^(w-1) pairs per shard
# (defaults 4 and 2), so SHARDS * K_w pairs in all. The cost of waves: the
# games of the deciding wave after the decision are played for nothing, at
# most one wave, SHARDS * (K_w - K_(w-1)) pairs; a smaller GROWTH wastes
# less and waits for more waves. The decision is the one a single process
# with concurrency 1 takes (merge evaluates the test pair by pair in
# schedule order). Run the script again after a failure: the shards and the
# merge resume. SBATCH_ARGS adds sbatch options (e.g. "--partition=x
# --time=2:00:00"); SELFPLAY_ONLY picks the tournament of a config with
# several. Reads the report with jq, or python3 where jq is missing.
set -euo pipefail

config=${1:?usage: sprt-waves.sh CONFIG RESULTS SHARDS [FIRST_PAIRS [GROWTH]]}
results=${2:?usage: sprt-waves.sh CONFIG RESULTS SHARDS [FIRST_PAIRS [GROWTH]]}
shards=${3:?usage: sprt-waves.sh CONFIG RESULTS SHARDS [FIRST_PAIRS [GROWTH]]}
pairs=${4:-4}
growth=${5:-2}
here=$(cd "$(dirname "$0")" && pwd)
case $pairs$growth in
*[!0-9]*) echo "sprt-waves: FIRST_PAIRS and GROWTH must be whole numbers" >&2; exit 2 ;;
esac
if [ "$pairs" -lt 1 ] || [ "$growth" -lt 2 ]; then
  echo "sprt-waves: want FIRST_PAIRS >= 1 and GROWTH >= 2" >&2
  exit 2
fi
read -r -a extra <<< "${SBATCH_ARGS:-}"

# field FILTER: the first tournament's field of report.json (jq syntax for
# the two supported fields only).
field() {
  if command -v jq >/dev/null; then
    jq -r "$1" "$results/report.json"
  elif command -v python3 >/dev/null; then
    python3 - "$1" "$results/report.json" <<'PY'
import json, sys
t = json.load(open(sys.argv[2]))["tournaments"][0]
if "sprt" in sys.argv[1]:
    s = [p["sprt"] for p in t["pairings"] if p.get("sprt")]
    print(s[0]["state"] if s else "none")
else:
    print(t["status"])
PY
  else
    echo "sprt-waves: needs jq or python3 to read the report" >&2
    exit 2
  fi
}

wave=1
while :; do
  echo "sprt-waves: wave $wave: $shards shards, the first $pairs pairs of each share"
  if ! sbatch --wait "${extra[@]}" --array=0-$((shards - 1)) "$here/shard.sbatch" "$config" "$results" "$pairs"; then
    echo "sprt-waves: wave $wave: a shard failed (see selfplay-*.out); run the same command again to resume" >&2
    exit 1
  fi
  if ! sbatch --wait "${extra[@]}" "$here/merge.sbatch" "$results"; then
    echo "sprt-waves: wave $wave: the merge failed (see selfplay-merge-*.out)" >&2
    exit 1
  fi
  state=$(field '[.tournaments[0].pairings[] | .sprt | select(. != null) | .state] | first // "none"')
  status=$(field '.tournaments[0].status')
  echo "sprt-waves: wave $wave: SPRT $state, tournament $status"
  case $state in
  H0 | H1)
    echo "sprt-waves: decided ($state) after $wave waves: $results/report.txt"
    exit 0
    ;;
  continue) ;;
  *)
    echo "sprt-waves: the tournament has no SPRT (state $state)" >&2
    exit 2
    ;;
  esac
  if [ "$status" = complete ]; then
    echo "sprt-waves: every game played without a decision: $results/report.txt"
    exit 0
  fi
  pairs=$((pairs * growth))
  wave=$((wave + 1))
done
