#!/usr/bin/env bash
# bench/engine.sh: elcheck's engine against SPIN's on the same state graph,
# each tool at its best for each guarantee.
#
# For each n in NS (default "12 13"), one configuration of Dolev-Klawe-Rodeh
# (every process an initiator, compare.sh's id placement, reduction off):
# SPIN's pan on bench/spin/dkr_steps.pml (DKR at elcheck's step granularity,
# so both tools explore the same graph, +3 states of Promela's init) in
# three settings, and elcheck in three, interleaved, REPEAT rounds each
# (default 3):
#
#   spin-default   gcc -DNOREDUCE, channels of 2n, ./pan (pan's defaults:
#                  every state stored whole, a 2^24-slot table)
#   spin-hc4       gcc -DNOREDUCE -DSAFETY -DHC4, channels of 3 (-DL=3: the
#                  bound cuts no state, docs/spin.md), ./pan -wW with 2^W
#                  the first power of two above twice the states (lossy:
#                  the report counts the states it lost against the
#                  default run's)
#   spin-collapse  gcc -DNOREDUCE -DSAFETY -DCOLLAPSE, -DL=3, ./pan -wW
#                  (lossless, compressed)
#   elcheck-1      elcheck -reduce=none, 1 worker (64-bit fingerprints, lossy)
#   elcheck-2      the same on 2 workers
#   elcheck-exact  elcheck -reduce=none -exact, 1 worker (lossless)
#
# Timings on a shared machine wander by 20 % or more from run to run, so the
# report gives each run's best and median, and ratios of the medians: lossy
# against spin-hc4, lossless against spin-collapse. Peak RSS is the largest
# seen.
#
#   bash bench/engine.sh                  # n = 12 and 13, 3 rounds: about 4 minutes
#   NS=14 REPEAT=1 bash bench/engine.sh   # about 3 minutes
#   NS=14 REPEAT=5 TOOLS="spin-hc4 elcheck-1 elcheck-2" bash bench/engine.sh
#                                         # only those runs: about 3 minutes
#
# Needs spin and gcc (compare.sh installs them). Not part of CI.
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
NS=${NS-"12 13"}
REPEAT=${REPEAT-3}
TOOLS=${TOOLS-"spin-default spin-hc4 spin-collapse elcheck-1 elcheck-2 elcheck-exact"}
out=$root/bench/out/engine
mkdir -p "$out"
die() { echo "engine.sh: $*" >&2; exit 2; }
command -v spin >/dev/null && command -v gcc >/dev/null ||
	die "spin and gcc are needed: run bench/compare.sh once, or apt-get install -y spin gcc"
[[ $REPEAT =~ ^[1-9][0-9]*$ ]] || die "REPEAT=$REPEAT: a positive integer"
for t in $TOOLS; do
	case $t in
	spin-default | spin-hc4 | spin-collapse | elcheck-1 | elcheck-2 | elcheck-exact) ;;
	*) die "TOOLS=\"$TOOLS\": use spin-default, spin-hc4, spin-collapse, elcheck-1, elcheck-2 and elcheck-exact" ;;
	esac
done
# want TOOL: whether TOOLS has it.
want() { [[ " $TOOLS " == *" $1 "* ]]; }

echo "engine.sh: building elcheck" >&2
go build -o "$root/bench/bin/elcheck" "$root/cmd/elcheck" || die "go build failed"
elcheck=$root/bench/bin/elcheck
rows=$out/runs.tsv
printf 'n\ttool\tround\tstates\ttime_s\trss_kb\tlost\n' >"$rows"

# pan_row DIR N ROUND TOOL: one pan run's row, from pan.out and pan.rss.
pan_row() {
	python3 - "$1/pan.out" "$1/pan.rss" "$2" "$3" "$4" >>"$rows" <<'PY'
import re, sys
t = open(sys.argv[1]).read()
if "errors: 0" not in t:
    sys.exit("pan found an error: " + sys.argv[1])
states = re.search(r"^\s*(\S+) states, stored", t, re.M).group(1)
secs = re.search(r"^pan: elapsed time (\S+) seconds", t, re.M).group(1)
print(f"{sys.argv[3]}\t{sys.argv[5]}\t{sys.argv[4]}\t{float(states):.0f}\t{secs}\t{open(sys.argv[2]).read().split()[-1]}\t")
PY
}

for n in $NS; do
	[[ $n =~ ^[0-9]+$ ]] && ((n >= 3 && n <= 16)) || die "NS=\"$NS\": sizes from 3 to 16"
	ids=$(python3 -c "n=$n; print(','.join(str(n - ((n + 2 - i) % n)) for i in range(n)))")
	dir=$out/n$n
	mkdir -p "$dir/default" "$dir/small"
	echo "engine.sh: n=$n: building pan (default; -DL=3 with -DHC4 and with -DCOLLAPSE)" >&2
	(cd "$dir/default" && spin -DN="$n" -a "$root/bench/spin/dkr_steps.pml" >spin-a.log 2>&1 &&
		gcc -O2 -DNOREDUCE -DVECTORSZ=4096 -o pan pan.c >gcc.log 2>&1) || die "building pan for n=$n failed: see $dir/default"
	(cd "$dir/small" && spin -DN="$n" -DL=3 -a "$root/bench/spin/dkr_steps.pml" >spin-a.log 2>&1 &&
		gcc -O2 -DNOREDUCE -DSAFETY -DHC4 -o pan_hc4 pan.c >gcc.log 2>&1 &&
		gcc -O2 -DNOREDUCE -DSAFETY -DCOLLAPSE -o pan_collapse pan.c >>gcc.log 2>&1) || die "building pan for n=$n failed: see $dir/small"
	# The table for twice elcheck's state count (pan has 3 more).
	states=$("$elcheck" verify -algo=dkr -n="$n" -ids="$ids" -initiators=all -reduce=none -skip-comparison-only -format=json |
		python3 -c 'import json,sys; print(json.load(sys.stdin)["states"])')
	w=$(python3 -c "import math; print(max(10, math.ceil(math.log2(2 * ($states + 3)))))")
	for ((r = 1; r <= REPEAT; r++)); do
		if want spin-default; then
			(cd "$dir/default" && /usr/bin/time -f %M -o pan.rss ./pan >pan.out 2>&1) || die "pan failed: see $dir/default/pan.out"
			pan_row "$dir/default" "$n" "$r" spin-default
		fi
		for s in hc4 collapse; do
			want "spin-$s" || continue
			mkdir -p "$dir/$s"
			(cd "$dir/$s" && /usr/bin/time -f %M -o pan.rss "$dir/small/pan_$s" -w"$w" >pan.out 2>&1) || die "pan failed: see $dir/$s/pan.out"
			pan_row "$dir/$s" "$n" "$r" "spin-$s"
		done
		for run in 1 2 exact; do
			want "elcheck-$run" || continue
			flags=(-workers=1)
			case $run in
			2) flags=(-workers=2) ;;
			exact) flags=(-workers=1 -exact) ;;
			esac
			/usr/bin/time -f %M -o "$dir/elcheck.rss" "$elcheck" verify -algo=dkr -n="$n" -ids="$ids" -initiators=all \
				-reduce=none -skip-comparison-only "${flags[@]}" -format=json >"$dir/elcheck.json" || die "elcheck failed at n=$n"
			python3 - "$dir/elcheck.json" "$dir/elcheck.rss" "$n" "$r" "$run" >>"$rows" <<'PY'
import json, sys
j = json.load(open(sys.argv[1]))
assert j["verdict"] == "VERIFIED", j["verdict"]
print(f"{sys.argv[3]}\telcheck-{sys.argv[5]}\t{sys.argv[4]}\t{j['states']}\t{j['elapsed_ms'] / 1000}\t{open(sys.argv[2]).read().split()[-1]}\t")
PY
		done
	done
done

python3 - "$rows" <<'PY' | tee "$out/report.md"
import csv, statistics, sys
rows = list(csv.DictReader(open(sys.argv[1]), delimiter="\t"))
names = {
    "spin-default": ("SPIN, pan's defaults (exact, whole vectors)", None),
    "spin-hc4": ("SPIN -DHC4, -DL=3, -w sized (lossy)", None),
    "spin-collapse": ("SPIN -DCOLLAPSE, -DL=3, -w sized (exact)", None),
    "elcheck-1": ("elcheck, 1 worker (fingerprints, lossy)", "spin-hc4"),
    "elcheck-2": ("elcheck, 2 workers (fingerprints, lossy)", "spin-hc4"),
    "elcheck-exact": ("elcheck -exact, 1 worker (exact)", "spin-collapse"),
}
print("| n | run | states | best time | median time | states/s (median) | peak RSS | against | speed | memory |")
print("| ---: | --- | ---: | ---: | ---: | ---: | ---: | --- | ---: | ---: |")
for n in sorted({r["n"] for r in rows}, key=int):
    fig = {}
    for tool in names:
        rs = [r for r in rows if r["n"] == n and r["tool"] == tool]
        if not rs:
            continue
        times = [float(r["time_s"]) for r in rs]
        fig[tool] = (int(rs[0]["states"]), min(times), statistics.median(times),
                     max(int(r["rss_kb"]) for r in rs) * 1024, rs[0]["lost"])
    for tool, (name, peer) in names.items():
        if tool not in fig:
            continue
        states, best, med, rss, lost = fig[tool]
        note = ""
        if tool == "spin-hc4" and "spin-default" in fig:
            note = f" ({fig['spin-default'][0] - states:,} lost to hash compaction)"
        vs = "| | |"
        if peer in fig:
            p = fig[peer]
            vs = f"{peer} | x{(p[2] / med):.2f} | x{(rss / p[3]):.2f}"
        else:
            vs = "- | - | -"
        print(f"| {n} | {name} | {states:,}{note} | {best:.2f} s | {med:.2f} s | {states / med:,.0f} | {rss / 2**20:,.1f} MiB | {vs} |")
PY
echo "engine.sh: runs in $rows, report in $out/report.md" >&2
