#!/usr/bin/env bash
# perf-pair.sh: paired `clconv bench --all` runs of two clconv binaries, an
# old and a new one (e.g. main and a branch), on one pinned core, taking
# turns, so that both see the same machine; then each binary's runs merged
# (per variant the median over its runs: `clconv bench --median --markdown`)
# and the variants compared. It needs only bash, taskset and the two
# binaries (no Go), so it runs on the GPU machine as well (issue 32).
#
#   scripts/perf-pair.sh OLD NEW
#
# Each round runs OLD then NEW, the next NEW then OLD, and so on. It writes
# into OUT: old.md / new.md (each binary's runs merged: the summary and tables
# as in docs/PERFORMANCE.md), compare.txt (both summaries, then every variant
# below CUT in either binary or whose ratio to copy moved by more than 10%,
# worst new first; also printed) and runs.tar.gz, the JSON of every run
# (old-N.json, new-N.json): four files, as the GPU machine returns at most 8.
#
# Environment (default in brackets):
#   ROUNDS  rounds (each runs both binaries once) [2]
#   SIZE    l2 or mem [mem]
#   TIER    --tier of both [the best of this machine]
#   REPEAT  --repeat of each run [3, bench's default with --all]
#   PAIRS   --pairs, e.g. float-e4m3,float-e5m2 (the small formats need it)
#           [every pair of the eleven types]
#   ARGS    more flags, e.g. "--elements 8388608" [none]
#   CPU     the core to pin to [the last one]
#   CUT     the ratio to copy below which compare.txt lists a variant [0.85]
#   OUT     where the files go [./perf-pair]; its old-*.json and new-*.json
#           are replaced
#
# Time: `clconv bench --all --size mem` measures 836 variants; on the GPU
# machine's Xeon one run took about 3.5 minutes at 8 Mi elements and
# --repeat 3 (so a round, both binaries, about 7), about twice that at 16 Mi
# elements; the 16 FP8 encoder variants (PAIRS=float-e4m3,float-e5m2) take
# seconds.
set -euo pipefail
if [ $# -ne 2 ]; then
	sed -n '2,/^set -e/p' "$0" | sed '$d; s/^# \{0,1\}//' >&2
	exit 2
fi
old=$1 new=$2
rounds=${ROUNDS:-2}
size=${SIZE:-mem}
repeat=${REPEAT:-3}
cpu=${CPU:-$(($(nproc) - 1))}
cut=${CUT:-0.85}
out=${OUT:-perf-pair}
mkdir -p "$out"
rm -f "$out"/old-*.json "$out"/new-*.json
tier=${TIER:-$("$new" bench --tier list | head -1)}
args=(bench --all --json --size "$size" --tier "$tier" --repeat "$repeat")
if [ -n "${PAIRS:-}" ]; then args+=(--pairs "$PAIRS"); fi
# shellcheck disable=SC2206
if [ -n "${ARGS:-}" ]; then args+=($ARGS); fi

{
	echo "perf-pair: $(date -u +%FT%TZ), $(nproc) CPUs, pinned to CPU $cpu, tier $tier, size $size, $rounds rounds"
	echo "  old: $old"
	echo "  new: $new"
	echo "  each run: clconv ${args[*]}"
	echo "  load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
} | tee "$out/compare.txt"
run() { # name binary round
	local start=$SECONDS
	taskset -c "$cpu" "$2" "${args[@]}" >"$out/$1-$3.json"
	echo "  round $3: $1 in $((SECONDS - start))s, load average $(cut -d' ' -f1-3 /proc/loadavg)" | tee -a "$out/compare.txt"
}
for ((r = 1; r <= rounds; r++)); do
	if ((r % 2)); then
		run old "$old" "$r"
		run new "$new" "$r"
	else
		run new "$new" "$r"
		run old "$old" "$r"
	fi
done

files() { # name: its JSON files, comma-separated
	local f=("$out/$1"-*.json)
	local IFS=,
	echo "${f[*]}"
}
"$new" bench --median --markdown "$(files old)" >"$out/old.md"
"$new" bench --median --markdown "$(files new)" >"$out/new.md"

# The rows of a merged table: "pair conversion ratio G-elem/s", one per line.
rows() {
	awk -F' *\\| *' '/^\| [0-9]+ \| / { gsub(/`/, "", $4); print $3, $4, $8, $5 }' "$1"
}
{
	echo
	echo "old: $(grep -m1 '^| [a-z0-9]* | '"$size"' |' "$out/old.md")"
	echo "new: $(grep -m1 '^| [a-z0-9]* | '"$size"' |' "$out/new.md")"
	echo
	echo "variants below $cut x copy in either, or moved by more than 10% (new/old), worst new first:"
	printf '%-18s %-26s %8s %8s %7s %9s %9s\n' pair conversion "old x" "new x" "new/old" "old G/s" "new G/s"
	awk -v cut="$cut" '
		NR == FNR { old[$1 " " $2] = $3; oldg[$1 " " $2] = $4; next }
		{
			k = $1 " " $2; o = old[k]; n = $3
			if (o == "") next
			if (o < cut || n < cut || n / o > 1.1 || n / o < 0.9)
				printf "%-18s %-26s %8.3f %8.3f %7.2f %9s %9s\n", $1, $2, o, n, n / o, oldg[k], $4
		}' <(rows "$out/old.md") <(rows "$out/new.md") | sort -k4,4g
} | tee -a "$out/compare.txt"
(cd "$out" && tar -czf runs.tar.gz old-*.json new-*.json && rm -f old-*.json new-*.json)
