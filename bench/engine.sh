#!/usr/bin/env bash
# bench/engine.sh: elcheck's engine against SPIN's on the same state graph.
#
# For each n in NS (default "12 13"), one configuration of Dolev-Klawe-Rodeh
# (every process an initiator, compare.sh's id placement, reduction off):
# SPIN's pan on bench/spin/dkr_steps.pml (DKR at elcheck's step granularity,
# so both tools explore the same graph, +3 states of Promela's init) and
# elcheck on 2 workers and on 1, interleaved, REPEAT times each (default 5).
# Timings on a shared machine wander by 20 % or more from run to run, so the
# report gives each tool's best and median run, and the ratios of the
# medians. Peak RSS is the largest seen.
#
#   bash bench/engine.sh                  # n = 12 and 13, 5 rounds: about 3 minutes
#   NS=12 REPEAT=3 bash bench/engine.sh
#
# Needs spin and gcc (compare.sh installs them). Not part of CI.
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
NS=${NS-"12 13"}
REPEAT=${REPEAT-5}
out=$root/bench/out/engine
mkdir -p "$out"
die() { echo "engine.sh: $*" >&2; exit 2; }
command -v spin >/dev/null && command -v gcc >/dev/null ||
	die "spin and gcc are needed: run bench/compare.sh once, or apt-get install -y spin gcc"
[[ $REPEAT =~ ^[1-9][0-9]*$ ]] || die "REPEAT=$REPEAT: a positive integer"

echo "engine.sh: building elcheck" >&2
go build -o "$root/bench/bin/elcheck" "$root/cmd/elcheck" || die "go build failed"
elcheck=$root/bench/bin/elcheck
rows=$out/runs.tsv
printf 'n\ttool\tround\tstates\ttime_s\trss_kb\n' >"$rows"

for n in $NS; do
	[[ $n =~ ^[0-9]+$ ]] && ((n >= 3 && n <= 16)) || die "NS=\"$NS\": sizes from 3 to 16"
	ids=$(python3 -c "n=$n; print(','.join(str(n - ((n + 2 - i) % n)) for i in range(n)))")
	dir=$out/n$n
	mkdir -p "$dir"
	echo "engine.sh: n=$n: spin -a dkr_steps.pml; gcc -O2 -DNOREDUCE -DVECTORSZ=4096 (state vectors pass 1 KB at n = 14)" >&2
	(cd "$dir" && spin -DN="$n" -a "$root/bench/spin/dkr_steps.pml" >spin-a.log 2>&1 &&
		gcc -O2 -DNOREDUCE -DVECTORSZ=4096 -o pan_nopor pan.c >gcc.log 2>&1) || die "building pan for n=$n failed: see $dir"
	for ((r = 1; r <= REPEAT; r++)); do
		(cd "$dir" && /usr/bin/time -f %M -o pan.rss ./pan_nopor >pan.out 2>&1) || die "pan failed: see $dir/pan.out"
		python3 - "$dir/pan.out" "$dir/pan.rss" "$n" "$r" >>"$rows" <<'PY'
import re, sys
t = open(sys.argv[1]).read()
states = re.search(r"^\s*(\S+) states, stored", t, re.M).group(1)
secs = re.search(r"^pan: elapsed time (\S+) seconds", t, re.M).group(1)
if "errors: 0" not in t:
    sys.exit("pan found an error: " + sys.argv[1])
print(f"{sys.argv[3]}\tspin\t{sys.argv[4]}\t{float(states):.0f}\t{secs}\t{open(sys.argv[2]).read().split()[-1]}")
PY
		for w in 2 1; do
			/usr/bin/time -f %M -o "$dir/elcheck.rss" "$elcheck" verify -algo=dkr -n="$n" -ids="$ids" -initiators=all \
				-reduce=none -skip-comparison-only -workers="$w" -format=json >"$dir/elcheck.json" || die "elcheck failed at n=$n"
			python3 - "$dir/elcheck.json" "$dir/elcheck.rss" "$n" "$r" "$w" >>"$rows" <<'PY'
import json, sys
j = json.load(open(sys.argv[1]))
assert j["verdict"] == "VERIFIED", j["verdict"]
print(f"{sys.argv[3]}\telcheck-{sys.argv[5]}\t{sys.argv[4]}\t{j['states']}\t{j['elapsed_ms'] / 1000}\t{open(sys.argv[2]).read().split()[-1]}")
PY
		done
	done
done

python3 - "$rows" <<'PY' | tee "$out/report.md"
import csv, statistics, sys
rows = list(csv.DictReader(open(sys.argv[1]), delimiter="\t"))
names = {"spin": "SPIN pan, dkr_steps.pml, -DNOREDUCE", "elcheck-2": "elcheck -reduce=none, 2 workers",
         "elcheck-1": "elcheck -reduce=none, 1 worker"}
print("| n | run | states | best time | median time | states/s (median) | peak RSS | bytes/state | vs SPIN: states/s | vs SPIN: bytes/state |")
print("| ---: | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
for n in sorted({r["n"] for r in rows}, key=int):
    fig = {}
    for tool in names:
        rs = [r for r in rows if r["n"] == n and r["tool"] == tool]
        times = [float(r["time_s"]) for r in rs]
        states = int(rs[0]["states"])
        rss = max(int(r["rss_kb"]) for r in rs) * 1024
        fig[tool] = (states, min(times), statistics.median(times), rss)
    spin = fig["spin"]
    for tool, name in names.items():
        states, best, med, rss = fig[tool]
        rate, bps = states / med, rss / states
        vs = "" if tool == "spin" else f"x{rate / (spin[0] / spin[2]):.2f} | x{bps / (spin[3] / spin[0]):.3f}"
        print(f"| {n} | {name} | {states:,} | {best:.2f} s | {med:.2f} s | {rate:,.0f} | {rss / 2**20:,.1f} MiB | {bps:,.0f} | {vs or '- | -'} |")
PY
echo "engine.sh: runs in $rows, report in $out/report.md" >&2
