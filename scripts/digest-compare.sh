#!/usr/bin/env bash
# Times digests of two clconv builds alternately, the way docs/PERFORMANCE.md's
# before/after tables were measured: REV (a commit) against the working tree,
# each conversion on chunks 0-31 (2^29 inputs), RUNS runs each (default 2),
# and the median wall time of each side. It fails if the two builds' digests
# differ. Run on a quiet machine.
#
# usage: scripts/digest-compare.sh REV ["CONVERSION SOURCE" ...]
#   scripts/digest-compare.sh db85278 "convert_int_sat_rtz double" "convert_float_rtz ulong"
set -euo pipefail
cd "$(dirname "$0")/.."
rev=${1:?usage: scripts/digest-compare.sh REV [\"CONVERSION SOURCE\" ...]}
shift
if [ $# -eq 0 ]; then
  set -- "convert_int_sat_rtz double" "convert_uint_sat_rtp double" "convert_int_rte double" \
         "convert_char double" "convert_short_rtn double" "convert_char_sat double" "convert_int_rtp float" \
         "convert_float_rtz ulong" "convert_double_rtp ulong" "convert_double_rtn long" "convert_float_rte long"
fi
runs=${RUNS:-2}
tmp=$(mktemp -d)
trap 'git worktree remove --force "$tmp/wt" >/dev/null 2>&1 || true; rm -rf "$tmp"' EXIT
git worktree add -q --detach "$tmp/wt" "$rev"
(cd "$tmp/wt" && go build -o "$tmp/before" ./cmd/clconv)
go build -o "$tmp/after" ./cmd/clconv
median() { sort -n | awk '{a[NR]=$1} END {print (NR%2 ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2)}'; }
printf "%-30s %10s %10s\n" "digest, chunks 0-31" "$rev" "tree"
for c in "$@"; do
  : > "$tmp/t.before"; : > "$tmp/t.after"
  for _ in $(seq "$runs"); do
    for side in before after; do
      s=$(date +%s.%N)
      # shellcheck disable=SC2086 # "CONVERSION SOURCE" is two arguments
      "$tmp/$side" digest -q --chunks 0-31 $c > "$tmp/d.$side"
      echo "$(date +%s.%N) - $s" | bc >> "$tmp/t.$side"
    done
    if ! cmp -s "$tmp/d.before" "$tmp/d.after"; then
      echo "digest-compare: $c: the two builds' digests differ" >&2
      exit 1
    fi
  done
  printf "%-30s %9.2fs %9.2fs\n" "$c" "$(median < "$tmp/t.before")" "$(median < "$tmp/t.after")"
done
