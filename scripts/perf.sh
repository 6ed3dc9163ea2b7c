#!/usr/bin/env bash
# perf.sh: regenerates the measured parts of docs/PERFORMANCE.md (issue 12):
# `clconv bench --all` for every tier and size, one core, then
# `clconv bench --markdown` of the results, which replaces two blocks of the
# document:
#   <!-- begin perf.sh summary --> ... <!-- end perf.sh summary -->
#       one row per tier and size (variants below 0.8x and 0.5x copy, the
#       median, the worst; median G elem/s and the slowest variant; the issue's
#       target), the settings of each run and the plots;
#   <!-- begin perf.sh tables --> ... <!-- end perf.sh tables -->
#       every variant, each tier and size worst first.
# The plots are docs/performance-TIER.png (every variant's ratio to copy, one
# line per size). Everything outside the two blocks stays as it is.
#
#   scripts/perf.sh
#
# Run it on a quiet machine: each tier measures 836 variants per size, and at
# REPEAT=5 one tier takes about 5 minutes for l2 and longer for mem on a
# 2-core AMD EPYC (see docs/PERFORMANCE.md); it prints each run's wall time.
#
# Environment (default in brackets):
#   TIERS    tiers to measure, in this order ["avx512 avx2 go"]; each must be
#            one of `clconv bench --tier list`
#   SIZES    sizes, comma-separated ["mem,l2"]
#   REPEAT   measurements per figure, the median is reported [5]
#   MINTIME  --min-time of one measurement [bench's default with --all, 10ms]
#   PUREGO   1: also measure every variant in pure Go in the SIMD tiers, for
#            the "x pure Go" column (more than doubles their time) [0]
#   ARGS     more flags for clconv bench, e.g. "--elements 4096" or
#            "--pairs float-uchar,char-half" for a quick check of the script
#   FROM     a directory of earlier runs' JSON (TIER.json, from `clconv bench
#            --all --json` with all of SIZES in one file, or TIER-SIZE.json,
#            one per size, merged here): measure nothing, only write the
#            tables (for runs made on another machine, e.g. the GPU machine,
#            which has no Go toolchain); a missing file leaves its tier
#            and size out [unset]
#   DOC      the markdown file to update [docs/PERFORMANCE.md]
#   PNGDIR   where the plots go [the directory of DOC]
#   OUT      keep the JSON of each run (TIER.json) and the generated markdown
#            (perf.md) here [a temporary directory, removed at the end]
#
# A quick check that leaves docs/ alone:
#   cp docs/PERFORMANCE.md /tmp/P.md
#   TIERS="avx2 go" SIZES=l2 REPEAT=1 ARGS="--elements 4096 --min-time 1ms" \
#     DOC=/tmp/P.md scripts/perf.sh
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
tiers=${TIERS:-avx512 avx2 go}
sizes=${SIZES:-mem,l2}
repeat=${REPEAT:-5}
doc=${DOC:-$root/docs/PERFORMANCE.md}
pngdir=${PNGDIR:-$(dirname "$doc")}
if [ -n "${OUT:-}" ]; then
	work=$OUT
	mkdir -p "$work"
else
	work=$(mktemp -d "${TMPDIR:-/tmp}/perf.XXXXXX")
	trap 'rm -rf "$work"' EXIT
fi
for m in summary tables; do
	if ! grep -q "^<!-- begin perf.sh $m -->\$" "$doc" || ! grep -q "^<!-- end perf.sh $m -->\$" "$doc"; then
		echo "perf.sh: $doc lacks the lines <!-- begin perf.sh $m --> and <!-- end perf.sh $m -->" >&2
		exit 1
	fi
done

(cd "$root" && go build -o "$work/clconv" ./cmd/clconv)
clconv=$work/clconv
have=$("$clconv" bench --tier list)
for t in $tiers; do
	if ! grep -qx "$t" <<<"$have"; then
		echo "perf.sh: tier $t is not available on this machine (have: $(echo $have))" >&2
		exit 1
	fi
done

purego=--purego=false
[ "${PUREGO:-0}" = 1 ] && purego=--purego
mkdir -p "$pngdir"
echo "# $(uname -srm), $(nproc) cores, $(go version | cut -d' ' -f3); load average $(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || echo unknown)" >&2
jsons=()
for t in $tiers; do
	if [ -n "${FROM:-}" ]; then
		if [ -f "$FROM/$t.json" ]; then
			jsons+=("$FROM/$t.json")
		else
			for s in ${sizes//,/ }; do
				if [ -f "$FROM/$t-$s.json" ]; then
					jsons+=("$FROM/$t-$s.json")
				else
					echo "perf.sh: no $FROM/$t-$s.json: tier $t, size $s left out" >&2
				fi
			done
		fi
		continue
	fi
	p=$purego
	[ "$t" = go ] && p=--purego=false # the same kernels
	echo "# $(date -u +%H:%M:%S) tier $t, sizes $sizes, repeat $repeat" >&2
	# shellcheck disable=SC2086 # ARGS holds several flags
	"$clconv" bench --all --tier "$t" --size "$sizes" --repeat "$repeat" ${MINTIME:+--min-time "$MINTIME"} \
		"$p" ${ARGS:-} --json --png "$pngdir/performance-$t.png" >"$work/$t.json"
	jsons+=("$work/$t.json")
done
"$clconv" bench --markdown "$(IFS=,; echo "${jsons[*]}")" >"$work/perf.md"

# Replace each block of $doc by the block of the same name in perf.md.
awk -v doc="$doc" '
	function blockname(line) { split(line, f, " "); return f[4] }
	FNR == NR {
		if ($0 ~ /^<!-- begin perf\.sh [a-z]+ -->$/) { name = blockname($0); inblock = 1 }
		if (inblock) block[name] = block[name] $0 "\n"
		if ($0 ~ /^<!-- end perf\.sh [a-z]+ -->$/) inblock = 0
		next
	}
	$0 ~ /^<!-- begin perf\.sh [a-z]+ -->$/ {
		name = blockname($0)
		if (!(name in block)) { print "perf.sh: no block " name " in the generated markdown" > "/dev/stderr"; exit 1 }
		printf "%s", block[name]
		skipping = 1
		next
	}
	skipping { if ($0 ~ /^<!-- end perf\.sh [a-z]+ -->$/) skipping = 0; next }
	{ print }
' "$work/perf.md" "$doc" >"$work/doc.md"
cp "$work/doc.md" "$doc"
plots="and $pngdir/performance-{$(echo $tiers | tr ' ' ,)}.png"
[ -n "${FROM:-}" ] && plots="(plots: the PNGs that the runs' --png wrote, copied by hand)"
echo "# $(date -u +%H:%M:%S) wrote $doc $plots; load average $(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || echo unknown)" >&2
