#!/usr/bin/env bash
# bench/sweeps.sh: full DKR sweeps (`elcheck verify -algo=dkr -n=N`, every
# placement up to rotation, every initiator set, every check on), side by
# side in one run: on 2 workers and on 1, and on 2 workers without the
# comparison-only check. Interleaved, REPEAT rounds (default 3), medians;
# peak RSS the largest seen.
#
#   bash bench/sweeps.sh                    # n = 6 7 8: about 2 minutes
#   NS=9 REPEAT=1 RUNS=2 bash bench/sweeps.sh   # the n = 9 sweep alone, about 4 minutes
#
# Environment: NS (default "6 7 8"), REPEAT (3), RUNS: which runs, out of
# "2 1 skip" (default all three). Not part of CI.
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
NS=${NS-"6 7 8"}
REPEAT=${REPEAT-3}
RUNS=${RUNS-"2 1 skip"}
out=$root/bench/out/sweeps
mkdir -p "$out"
die() { echo "sweeps.sh: $*" >&2; exit 2; }
[[ $REPEAT =~ ^[1-9][0-9]*$ ]] || die "REPEAT=$REPEAT: a positive integer"
go build -o "$root/bench/bin/elcheck" "$root/cmd/elcheck" || die "go build failed"
elcheck=$root/bench/bin/elcheck
rows=$out/runs.tsv
printf 'n\trun\tround\tconfigs\tstates\ttime_s\trss_kb\n' >"$rows"

for n in $NS; do
	[[ $n =~ ^[0-9]+$ ]] && ((n >= 3 && n <= 10)) || die "NS=\"$NS\": sizes from 3 to 10"
	for ((r = 1; r <= REPEAT; r++)); do
		for run in $RUNS; do
			case $run in
			2) flags=(-workers=2) ;;
			1) flags=(-workers=1) ;;
			skip) flags=(-workers=2 -skip-comparison-only) ;;
			*) die "RUNS=\"$RUNS\": use 2, 1 and skip" ;;
			esac
			echo "sweeps.sh: n=$n round $r: ${flags[*]}" >&2
			/usr/bin/time -f %M -o "$out/rss" "$elcheck" verify -algo=dkr -n="$n" "${flags[@]}" -format=json >"$out/run.json" 2>/dev/null ||
				die "elcheck failed at n=$n"
			python3 - "$out/run.json" "$out/rss" "$n" "$run" "$r" >>"$rows" <<'PY'
import json, sys
j = json.load(open(sys.argv[1]))
assert j["verdict"] == "VERIFIED", j["verdict"]
print(f"{sys.argv[3]}\t{sys.argv[4]}\t{sys.argv[5]}\t{j['configurations_total']}\t{j['states']}\t{j['elapsed_ms'] / 1000}\t{open(sys.argv[2]).read().split()[-1]}")
PY
		done
	done
done

python3 - "$rows" <<'PY' | tee "$out/report.md"
import csv, statistics, sys
rows = list(csv.DictReader(open(sys.argv[1]), delimiter="\t"))
print("| n | configurations | states | 2 workers | 1 worker | 2 workers / 1 | 2 workers, -skip-comparison-only | comparison-only's share | peak RSS |")
print("| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
for n in sorted({r["n"] for r in rows}, key=int):
    med, rss = {}, 0
    for run in ("2", "1", "skip"):
        rs = [r for r in rows if r["n"] == n and r["run"] == run]
        if rs:
            med[run] = statistics.median(float(r["time_s"]) for r in rs)
            rss = max([rss] + [int(r["rss_kb"]) for r in rs])
    first = next(r for r in rows if r["n"] == n)
    t = lambda k: f"{med[k]:.2f} s" if k in med else "-"
    speed = f"x{med['1'] / med['2']:.2f}" if "1" in med and "2" in med else "-"
    share = f"{max(0.0, 1 - med['skip'] / med['2']) * 100:.0f} %" if "skip" in med and "2" in med else "-"
    print(f"| {n} | {int(first['configs']):,} | {int(first['states']):,} | {t('2')} | {t('1')} | {speed} | {t('skip')} | {share} | {rss / 1024:.1f} MiB |")
PY
echo "sweeps.sh: runs in $rows, report in $out/report.md" >&2
