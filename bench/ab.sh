#!/usr/bin/env bash
# bench/ab.sh: two builds of elcheck side by side, in one run, as ratios.
#
# Builds the CLI and the explorer's test binary at revision OLD (default
# HEAD~1) and of the working tree, then runs each measurement ROUNDS times
# (default 5), alternating the two builds so that both see the machine in
# the same state, and prints the medians and the ratio new/old:
#
#   - full sweeps: `verify -algo=dkr -n=N` for N in SWEEPS (default 6 7);
#   - one large configuration, unreduced (bench/engine.sh's DKR graph, the
#     one SPIN also explores): n in CONFIGS (default 12 13), 1 and 2 workers;
#     the same with -exact for n in EXACTS (default none), with 2 workers,
#     and with a memory bound for each n:SIZE in MEMCONFIGS (default none;
#     e.g. "14:64MB"), with 2 workers;
#   - `bounds -algo=A -n=N` for each A:N in BOUNDS (default tree:5 cr:3..7
#     hs:3..4), with causal clocks and costs;
#   - sweeps with a violation, `verify -algo=A -n=N` for each A:N in
#     VIOLATED (default none; e.g. "cr-flip:7 echo-joinhigher:4"), each cut
#     at VTIMEOUT (default 300s): a run cut there shows that time;
#   - unless GOBENCH=0, the Go benchmarks `make bench` runs: Sweep, Config
#     (n = 10, 12), PerCore, VisitedSetInsert.
#
#   bash bench/ab.sh                 # HEAD~1 against the working tree: ~10 minutes
#   OLD=dde277a ROUNDS=3 bash bench/ab.sh
#   OLD=64b831b SWEEPS= CONFIGS= GOBENCH=0 bash bench/ab.sh   # bounds only
#
# Timings on a shared machine wander by 20 % or more; ratios of medians of
# interleaved runs are what to read. Not part of CI.
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
OLD=${OLD-HEAD~1}
ROUNDS=${ROUNDS-5}
SWEEPS=${SWEEPS-"6 7"}
CONFIGS=${CONFIGS-"12 13"}
BOUNDS=${BOUNDS-"tree:5 cr:3..7 hs:3..4"}
GOBENCH=${GOBENCH-1}
VIOLATED=${VIOLATED-}
EXACTS=${EXACTS-}
MEMCONFIGS=${MEMCONFIGS-}
VTIMEOUT=${VTIMEOUT-300s}
out=$root/bench/out/ab
mkdir -p "$out"
die() { echo "ab.sh: $*" >&2; exit 2; }
[[ $ROUNDS =~ ^[1-9][0-9]*$ ]] || die "ROUNDS=$ROUNDS: a positive integer"

old=$out/old-src
rm -rf "$old"
git -C "$root" worktree add -f --detach "$old" "$OLD" >/dev/null 2>&1 || die "no revision $OLD"
trap 'git -C "$root" worktree remove -f "$old" >/dev/null 2>&1 || true' EXIT
echo "ab.sh: building $OLD and the working tree" >&2
for side in old new; do
	src=$old
	[[ $side == new ]] && src=$root
	(cd "$src" && go build -o "$out/$side-elcheck" ./cmd/elcheck && go test -c -o "$out/$side-explore.test" ./explore/) ||
		die "building $side failed"
done

rows=$out/runs.tsv
: >"$rows"
# run NAME SIDE CMD...: time CMD, append "name side seconds" to rows.
run() {
	local name=$1 side=$2
	shift 2
	local t0 t1
	t0=$(date +%s.%N)
	"$@" >/dev/null || true # a violation exits 1, a run cut short 3
	t1=$(date +%s.%N)
	printf '%s\t%s\t%s\n' "$name" "$side" "$(echo "$t1 - $t0" | bc)" >>"$rows"
}
# ids N: bench/engine.sh's id placement of DKR's graph on N processes.
ids() { python3 -c "n=$1; print(','.join(str(n - ((n + 2 - i) % n)) for i in range(n)))"; }
# bench NAME SIDE PATTERN BENCHTIME: a Go benchmark's ns/op, in seconds.
bench() {
	local name=$1 side=$2 pat=$3 bt=$4 ns
	ns=$("$out/$side-explore.test" -test.run '^$' -test.bench "$pat" -test.benchtime "$bt" | awk '/^Benchmark/ {print $3; exit}')
	printf '%s\t%s\t%s\n' "$name" "$side" "$(echo "$ns / 1000000000" | bc -l)" >>"$rows"
}

for ((r = 1; r <= ROUNDS; r++)); do
	echo "ab.sh: round $r of $ROUNDS" >&2
	for side in old new; do
		for n in $SWEEPS; do
			run "verify dkr -n=$n" $side "$out/$side-elcheck" verify -algo=dkr -n="$n"
		done
		for n in $CONFIGS; do
			for w in 1 2; do
				run "config dkr n=$n, $w worker(s)" $side "$out/$side-elcheck" verify -algo=dkr -n="$n" -ids="$(ids "$n")" \
					-initiators=all -reduce=none -skip-comparison-only -workers="$w"
			done
		done
		for n in $EXACTS; do
			run "config dkr n=$n, -exact, 2 workers" $side "$out/$side-elcheck" verify -algo=dkr -n="$n" -ids="$(ids "$n")" \
				-initiators=all -reduce=none -skip-comparison-only -workers=2 -exact
		done
		for m in $MEMCONFIGS; do
			run "config dkr n=${m%%:*}, -memory=${m#*:}, 2 workers" $side "$out/$side-elcheck" verify -algo=dkr -n="${m%%:*}" \
				-ids="$(ids "${m%%:*}")" -initiators=all -reduce=none -skip-comparison-only -workers=2 -memory="${m#*:}"
		done
		for v in $VIOLATED; do
			run "verify ${v%%:*} -n=${v#*:} (violated)" $side "$out/$side-elcheck" verify -algo="${v%%:*}" -n="${v#*:}" -timeout="$VTIMEOUT"
		done
		for b in $BOUNDS; do
			run "bounds ${b%%:*} -n=${b#*:}" $side "$out/$side-elcheck" bounds -algo="${b%%:*}" -n="${b#*:}"
		done
		[[ $GOBENCH == 0 ]] && continue
		bench "BenchmarkSweep (dkr n=6, 1 worker)" $side '^BenchmarkSweep$' 3x
		bench "BenchmarkConfig dkr n=10, 1 worker" $side '^BenchmarkConfig$/dkr/n=10/workers=1$' 5x
		bench "BenchmarkConfig dkr n=12, 1 worker" $side '^BenchmarkConfig$/dkr/n=12/workers=1$' 3x
		bench "BenchmarkVisitedSetInsert" $side '^BenchmarkVisitedSetInsert$' 3x
	done
done

python3 - "$rows" "$OLD" <<'PY' | tee "$out/report.md"
import csv, statistics, sys
rows = list(csv.reader(open(sys.argv[1]), delimiter="\t"))
names = list(dict.fromkeys(r[0] for r in rows))
print(f"| measurement | {sys.argv[2]} (median) | working tree (median) | new / old |")
print("| --- | ---: | ---: | ---: |")
for n in names:
    med = {s: statistics.median(float(r[2]) for r in rows if r[0] == n and r[1] == s) for s in ("old", "new")}
    print(f"| {n} | {med['old']:.3f} s | {med['new']:.3f} s | ×{med['new'] / med['old']:.2f} |")
PY
echo "ab.sh: runs in $rows, report in $out/report.md" >&2
