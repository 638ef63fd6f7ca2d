#!/usr/bin/env bash
# bench/compare.sh: SPIN against elcheck on one configuration of
# Dolev-Klawe-Rodeh (fixed ids, every process an initiator, FIFO channels).
# Not part of CI: it installs SPIN, compiles C and can take minutes and
# gigabytes. docs/spin.md explains the models and the figures.
#
#   bash bench/compare.sh                    # n = 5 7 8
#   NS="5 7" bash bench/compare.sh           # other sizes
#   ALGOS="dkr cr" bash bench/compare.sh     # Chang-Roberts as well
#
# Environment:
#   NS           ring sizes (default "5 7 8")
#   ALGOS        dkr and/or cr (default "dkr")
#   LEADER0=0    skip the reference rows from SPIN's own leader0.pml (the
#                model the issue measured); default 1
#   ELCHECK_NS   larger sizes run unreduced with elcheck and, for dkr, SPIN on
#                dkr_steps.pml only (the same state graph as elcheck's), so
#                that throughput can be read at SPIN's state counts (default
#                "11 12"; "" to skip)
#   CHECKS=0     skip the verdict cross-check (message bound on, buggy
#                dkr-nosecond); default 1
#   SPIN_CFLAGS  gcc flags for pan (default "-O2")
#
# For each n: spin -DN=n -a bench/spin/<algo>.pml (for dkr also
# dkr_steps.pml, DKR at elcheck's step granularity); gcc $SPIN_CFLAGS
# [-DNOREDUCE] -o pan pan.c; ./pan (pan's defaults, as in the issue), and
# elcheck verify -algo=<algo> -n=n -ids=<the model's ids> -initiators=0,..,n-1
# -skip-comparison-only -format=json, every run under /usr/bin/time -f %M.
# If elcheck verify has a -reduce flag, elcheck runs twice: -reduce=none
# (against SPIN without partial-order reduction) and -reduce=all (against
# SPIN with it). Without the flag (elcheck before it), elcheck runs once
# with its defaults, compared with SPIN with POR.
# Raw outputs go to bench/out/<algo>-n<n>/; the report is printed and saved
# to bench/out/report.md. Exit status 0 when every run
# agrees that nothing is violated (and, with CHECKS, both tools catch the
# bug), 1 otherwise.
set -euo pipefail

NS=${NS:-"5 7 8"}
ALGOS=${ALGOS:-dkr}
LEADER0=${LEADER0:-1}
CHECKS=${CHECKS:-1}
ELCHECK_NS=${ELCHECK_NS-"11 12"}
SPIN_CFLAGS=${SPIN_CFLAGS:--O2}
LEADER0_SRC=/usr/share/doc/spin/examples/Examples/leader0.pml

die() { echo "compare.sh: error: $*" >&2; exit 2; }
say() { echo "compare.sh: $*" >&2; }

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$root"
[[ -f go.mod && -d cmd/elcheck && -d bench/spin ]] ||
	die "$root does not look like the elcheck repository (go.mod, cmd/elcheck, bench/spin)"
for n in $NS $ELCHECK_NS; do
	[[ $n =~ ^[0-9]+$ ]] && ((n >= 2 && n <= 16)) || die "NS=\"$NS\" ELCHECK_NS=\"$ELCHECK_NS\": sizes must be integers from 2 to 16"
done
for a in $ALGOS; do
	[[ $a == dkr || $a == cr ]] || die "ALGOS=\"$ALGOS\": use dkr and/or cr"
done

# --- (a) tools --------------------------------------------------------------
missing=()
command -v spin >/dev/null || missing+=(spin)
command -v gcc >/dev/null || missing+=(gcc)
[[ -x /usr/bin/time ]] || missing+=(time)
if ((${#missing[@]})); then
	command -v apt-get >/dev/null || die "missing ${missing[*]} and no apt-get here: install them by hand"
	sudo=()
	if [[ $(id -u) -ne 0 ]]; then
		command -v sudo >/dev/null || die "missing ${missing[*]}: run as root, or install them by hand"
		sudo=(sudo)
	fi
	say "installing ${missing[*]} with apt-get"
	"${sudo[@]}" apt-get update -qq || die "apt-get update failed"
	"${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null ||
		die "apt-get install ${missing[*]} failed"
fi
command -v go >/dev/null || die "go is not on PATH (elcheck needs Go 1.26)"
command -v python3 >/dev/null || die "python3 is not on PATH (it parses the outputs)"
spin_version=$(spin -V 2>&1 | head -1)

# --- (b) elcheck --------------------------------------------------------------
say "building elcheck: go build -o bench/bin/elcheck ./cmd/elcheck"
go build -o bench/bin/elcheck ./cmd/elcheck || die "go build failed (the tree may be mid-edit)"
elcheck=$root/bench/bin/elcheck
if "$elcheck" verify -h 2>&1 | grep -q -- '-reduce'; then
	reduce=1
	elcheck_runs=(none all)
	say "elcheck has -reduce: running it with -reduce=none and -reduce=all"
else
	# An elcheck from before the flag: its defaults, whatever they reduce.
	reduce=0
	elcheck_runs=(default)
	say "elcheck has no -reduce flag: one elcheck run per n, with its defaults (no unreduced elcheck figures)"
fi

out=$root/bench/out
mkdir -p "$out"
results=$out/results.tsv
printf 'algo\tn\trun\tstates\ttransitions\ttime_s\trss_kb\tpan_mb\tverdict\tbuild_s\n' >"$results"
failed=0

now() { date +%s.%N; }

# ids_for ALGO N: the ids by position, the formulas of the .pml files.
ids_for() {
	local algo=$1 n=$2 i ids=()
	for ((i = 0; i < n; i++)); do
		case $algo in
		dkr) ids+=($((n - ((n + 2 - i) % n)))) ;; # leader0's placement mirrored
		cr) ids+=($(((n + 2 - i) % n + 1))) ;;    # leader0's placement
		esac
	done
	local IFS=,
	echo "${ids[*]}"
}

# parse_pan FILE: "states transitions time_s pan_mb verdict" from pan's output.
parse_pan() {
	python3 - "$1" <<'PY'
import re, sys
t = open(sys.argv[1], errors="replace").read()
def num(pat, default="nan"):
    m = re.search(pat, t, re.M)
    return m.group(1) if m else default
states = num(r"^\s*(\S+) states, stored")
trans = num(r"^\s*(\S+) transitions \(=")
secs = num(r"^pan: elapsed time (\S+) seconds")
mem = num(r"^\s*(\S+)\s+total actual memory usage")
if mem == "nan":
    mem = num(r"^\s*(\S+)\s+memory usage \(Mbyte\)")
errors = num(r"errors: (\d+)", "?")
if errors == "?":
    verdict = "NO-OUTPUT"
elif errors != "0":
    why = re.search(r"^pan:\d+: (.*?)(?: \(at depth \d+\))?$", t, re.M)
    verdict = "VIOLATED: " + (why.group(1) if why else "errors: " + errors)
elif "Search not completed" in t or "depth too small" in t:
    verdict = "INCOMPLETE"
else:
    verdict = "no-violation"
print(float(states), float(trans), float(secs), float(mem), verdict.replace(" ", "_"), sep="\t")
PY
}

# parse_elcheck FILE: "states transitions time_s verdict" from -format=json.
parse_elcheck() {
	python3 - "$1" <<'PY'
import json, sys
try:
    r = json.load(open(sys.argv[1]))
except Exception as e:
    print("nan", "nan", "nan", "NO-OUTPUT", sep="\t"); sys.exit()
v = r.get("verdict", "?")
if r.get("violation"):
    v = "VIOLATED: " + r["violation"].get("property", "?")
print(r["states"], r["transitions"], r["elapsed_ms"] / 1000, v.replace(" ", "_"), sep="\t")
PY
}

# spin_build DIR MODEL [spin -D flags...]: spin -a, then pan_por and pan_nopor.
# Prints the seconds taken.
spin_build() {
	local dir=$1 model=$2
	shift 2
	local t0
	t0=$(now)
	(cd "$dir" && rm -f pan.[bchmpt] pan_* && spin "$@" -a "$model") >"$dir/spin-a.log" 2>&1 ||
		die "spin -a $model failed: see $dir/spin-a.log"
	(cd "$dir" && gcc $SPIN_CFLAGS -o pan_por pan.c && gcc $SPIN_CFLAGS -DNOREDUCE -o pan_nopor pan.c) \
		>"$dir/gcc.log" 2>&1 || die "gcc pan.c failed: see $dir/gcc.log"
	python3 -c "print(f'{$(now) - $t0:.2f}')"
}

# run_pan DIR BIN LABEL ALGO N BUILD_S: one pan run, one results row.
run_pan() {
	local dir=$1 bin=$2 label=$3 algo=$4 n=$5 build=$6 rc=0
	say "  $label: ./$bin"
	(cd "$dir" && /usr/bin/time -f %M -o "$label.rss" "./$bin" >"$label.out" 2>&1) || rc=$?
	local parsed
	parsed=$(parse_pan "$dir/$label.out")
	local states trans secs mem verdict
	IFS=$'\t' read -r states trans secs mem verdict <<<"$parsed"
	[[ $rc -eq 0 || $verdict == VIOLATED* ]] || verdict="pan-exit-$rc"
	printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$algo" "$n" "$label" "$states" "$trans" "$secs" \
		"$(tail -1 "$dir/$label.rss")" "$mem" "$verdict" "$build" >>"$results"
	echo "$verdict"
}

# run_elcheck DIR LABEL ALGO N IDS INITS [extra flags...]: one results row.
run_elcheck() {
	local dir=$1 label=$2 algo=$3 n=$4 ids=$5 inits=$6 rc=0
	shift 6
	local cmd=("$elcheck" verify -algo="$algo" -n="$n" -ids="$ids" -initiators="$inits" -skip-comparison-only -format=json "$@")
	say "  $label: ${cmd[*]#"$root/"}"
	echo "${cmd[*]}" >"$dir/$label.cmd"
	/usr/bin/time -f %M -o "$dir/$label.rss" "${cmd[@]}" >"$dir/$label.json" 2>"$dir/$label.err" || rc=$?
	local parsed states trans secs verdict
	parsed=$(parse_elcheck "$dir/$label.json")
	IFS=$'\t' read -r states trans secs verdict <<<"$parsed"
	[[ $rc -eq 0 || $rc -eq 1 ]] || verdict="elcheck-exit-$rc"
	printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$algo" "$n" "$label" "$states" "$trans" "$secs" \
		"$(tail -1 "$dir/$label.rss")" "nan" "$verdict" "0" >>"$results"
	echo "$verdict"
}

# report ALGO N IDS: the table for one size, from results.tsv.
report() {
	python3 - "$results" "$1" "$2" "$3" "$reduce" <<'PY'
import csv, math, sys
path, algo, n, ids, reduce = sys.argv[1:]
rows = {r["run"]: r for r in csv.DictReader(open(path), delimiter="\t")
        if r["algo"] == algo and r["n"] == n}
f = lambda r, k: float(r[k])
def fmt_int(x):
    return "-" if math.isnan(x) else f"{x:,.0f}"
def fmt_time(x):
    if math.isnan(x): return "-"
    return "<0.01 s" if x < 0.005 else f"{x:.2f} s"
def rate(r, k="states"):
    s, t = f(r, k), f(r, "time_s")
    return float("nan") if math.isnan(s) or math.isnan(t) or t < 0.005 else s / t
def bps(r):
    return f(r, "rss_kb") * 1024 / f(r, "states")
def mib(kb):
    return f"{kb / 1024:,.1f} MiB"
names = {
    "spin-nopor": f"SPIN {algo}.pml, POR off (-DNOREDUCE)",
    "elcheck-none": "elcheck -reduce=none",
    "elcheck-none-1": "elcheck -reduce=none -workers=1 (one core)",
    "steps-nopor": "SPIN dkr_steps.pml (elcheck's steps), POR off",
    "spin-por": f"SPIN {algo}.pml, POR on",
    "elcheck-all": "elcheck -reduce=all",
    "elcheck-default": "elcheck, default options",
    "leader0-nopor": "SPIN leader0.pml, POR off (the issue's model)",
    "leader0-por": "SPIN leader0.pml, POR on (the issue's model)",
}
title = {"dkr": "Dolev-Klawe-Rodeh", "cr": "Chang-Roberts"}[algo]
print(f"\n### {title}, n = {n}: ids {ids} by position, every process an initiator\n")
print("| run | states | transitions | time | states/s | transitions/s | peak RSS | bytes/state | pan's memory | verdict |")
print("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- |")
for key, name in names.items():
    r = rows.get(key)
    if not r: continue
    pan = "" if math.isnan(f(r, "pan_mb")) else f"{f(r, 'pan_mb'):,.1f} MiB"
    print(f"| {name} | {fmt_int(f(r,'states'))} | {fmt_int(f(r,'transitions'))} | {fmt_time(f(r,'time_s'))} "
          f"| {fmt_int(rate(r))} | {fmt_int(rate(r, 'transitions'))} | {mib(f(r,'rss_kb'))} | {fmt_int(bps(r))} | {pan} | {r['verdict'].replace('_', ' ')} |")
def ratio(a, b):
    return "-" if math.isnan(a) or math.isnan(b) or b == 0 else f"{a / b:.3g}"
off, on = rows.get("spin-nopor"), rows.get("spin-por")
pairs = [("elcheck-none", names["elcheck-none"]), ("elcheck-all", names["elcheck-all"]),
         ("elcheck-default", names["elcheck-default"])]
print()
for key, name in pairs:
    e = rows.get(key)
    if not e: continue
    base, bname = (off, "SPIN POR off") if key == "elcheck-none" else (on, "SPIN POR on")
    print(f"- {name} / {bname}: states/s x{ratio(rate(e), rate(base))}, "
          f"bytes/state x{ratio(bps(e), bps(base))}, states x{ratio(f(e,'states'), f(base,'states'))}, "
          f"time x{ratio(*(x if x >= 0.005 else float('nan') for x in (f(e,'time_s'), f(base,'time_s'))))}")
e, st = rows.get("elcheck-none"), rows.get("steps-nopor")
if e and st:
    print(f"- {names['elcheck-none']} / SPIN dkr_steps.pml (the same state graph): states/s x{ratio(rate(e), rate(st))}, "
          f"bytes/state x{ratio(bps(e), bps(st))}")
    e1 = rows.get("elcheck-none-1")
    if e1:
        print(f"- {names['elcheck-none-1']} / SPIN dkr_steps.pml: states/s x{ratio(rate(e1), rate(st))}, "
              f"bytes/state x{ratio(bps(e1), bps(st))}")
    d = f(st, "states") - f(e, "states")
    print(f"- state graphs: SPIN dkr_steps.pml has {d:+.0f} states, {f(st, 'transitions') - f(e, 'transitions'):+.0f} transitions "
          f"against elcheck ({'as expected: init adds 3 states and 4 transitions' if d == 3 else 'EXPECTED +3: the models differ'})")
if on:
    print(f"- SPIN build (spin -a, then gcc pan.c with and without -DNOREDUCE): {float(on['build_s']):.2f} s, not in the times above")
PY
}

# --- (c, d, e) the runs -------------------------------------------------------
{
	echo "# SPIN vs elcheck"
	echo
	echo "$(date -u '+%Y-%m-%d %H:%M UTC'), $(nproc) cores, $(awk '/MemTotal/ {printf "%.0f GiB", $2/1048576}' /proc/meminfo)," \
		"$(sed -n 's/^model name\s*: //p' /proc/cpuinfo | head -1); $spin_version; gcc $(gcc -dumpfullversion)" \
		"$SPIN_CFLAGS; $(go version | cut -d' ' -f3); elcheck $(git -C "$root" rev-parse --short HEAD 2>/dev/null || echo '?')" \
		"$(git -C "$root" diff --quiet HEAD 2>/dev/null || echo '(with uncommitted changes)');" \
		"load average at start $(cut -d' ' -f1-3 /proc/loadavg) (times are only comparable on an idle machine)"
} | tee "$out/report.md"

for algo in $ALGOS; do
	for n in $NS; do
		dir=$out/$algo-n$n
		rm -rf "$dir"
		mkdir -p "$dir" "$dir/steps"
		ids=$(ids_for "$algo" "$n")
		inits=$(seq -s, 0 $((n - 1)))
		say "$algo n=$n: ids $ids, initiators $inits (work files in ${dir#"$root/"})"
		build=$(spin_build "$dir" "$root/bench/spin/$algo.pml" -DN="$n")
		verdicts=()
		verdicts+=("$(run_pan "$dir" pan_por spin-por "$algo" "$n" "$build")")
		verdicts+=("$(run_pan "$dir" pan_nopor spin-nopor "$algo" "$n" "$build")")
		for r in "${elcheck_runs[@]}"; do
			if ((reduce)); then
				verdicts+=("$(run_elcheck "$dir" "elcheck-$r" "$algo" "$n" "$ids" "$inits" -reduce="$r")")
			else
				verdicts+=("$(run_elcheck "$dir" "elcheck-$r" "$algo" "$n" "$ids" "$inits")")
			fi
		done
		if [[ $algo == dkr ]]; then
			bs=$(spin_build "$dir/steps" "$root/bench/spin/dkr_steps.pml" -DN="$n")
			verdicts+=("$(run_pan "$dir/steps" pan_nopor steps-nopor dkr "$n" "$bs")")
		fi
		if [[ $algo == dkr && $LEADER0 == 1 ]]; then
			if [[ -f $LEADER0_SRC ]]; then
				ref=$dir/leader0
				mkdir -p "$ref"
				sed -e "s/^#define N\b.*/#define N $n/" -e "s/^#define L\b.*/#define L $((2 * n))/" \
					"$LEADER0_SRC" >"$ref/leader0.pml"
				b0=$(spin_build "$ref" leader0.pml)
				verdicts+=("$(run_pan "$ref" pan_por leader0-por dkr "$n" "$b0")")
				verdicts+=("$(run_pan "$ref" pan_nopor leader0-nopor dkr "$n" "$b0")")
			else
				say "  no $LEADER0_SRC: skipping the leader0.pml reference rows"
			fi
		fi
		report "$algo" "$n" "$ids" | tee -a "$out/report.md"
		for v in "${verdicts[@]}"; do
			if [[ $v != no-violation && $v != VERIFIED ]]; then
				echo "**VERDICTS DISAGREE**: a run ended in $v (expected no violation; see ${dir#"$root/"})" |
					tee -a "$out/report.md"
				failed=1
			fi
		done
	done
done

# --- larger rings, unreduced: elcheck and dkr_steps.pml, throughput ----------
if [[ -n $ELCHECK_NS && " ${elcheck_runs[*]} " == *" none "* ]]; then
	for algo in $ALGOS; do
		for n in $ELCHECK_NS; do
			dir=$out/$algo-n$n-elcheck
			rm -rf "$dir"
			mkdir -p "$dir"
			ids=$(ids_for "$algo" "$n")
			inits=$(seq -s, 0 $((n - 1)))
			say "$algo n=$n, unreduced only: ids $ids"
			v=$(run_elcheck "$dir" elcheck-none "$algo" "$n" "$ids" "$inits" -reduce=none)
			v1=$(run_elcheck "$dir" elcheck-none-1 "$algo" "$n" "$ids" "$inits" -reduce=none -workers=1)
			[[ $v1 == "$v" ]] || v="one worker: $v1"
			if [[ $algo == dkr ]]; then
				mkdir -p "$dir/steps"
				bs=$(spin_build "$dir/steps" "$root/bench/spin/dkr_steps.pml" -DN="$n")
				sv=$(run_pan "$dir/steps" pan_nopor steps-nopor dkr "$n" "$bs")
				[[ $sv == no-violation ]] || v="SPIN: $sv"
			fi
			if [[ $v != VERIFIED ]]; then
				echo "**VERDICTS DISAGREE**: $algo n=$n ended in $v" | tee -a "$out/report.md"
				failed=1
			fi
		done
		python3 - "$results" "$algo" <<'PY' | tee -a "$out/report.md"
import csv, math, sys
path, algo = sys.argv[1:]
rows = [r for r in csv.DictReader(open(path), delimiter="\t")
        if r["algo"] == algo and r["run"] in ("spin-nopor", "elcheck-none", "leader0-nopor", "steps-nopor")]
rows.sort(key=lambda r: float(r["states"]))
name = {"spin-nopor": f"SPIN {algo}.pml, POR off", "elcheck-none": "elcheck, unreduced",
        "leader0-nopor": "SPIN leader0.pml, POR off", "steps-nopor": "SPIN dkr_steps.pml (elcheck's steps), POR off"}
print(f"\n### Unreduced runs of {algo} by state count (throughput at comparable sizes)\n")
print("| run | n | states | transitions | time | states/s | transitions/s | peak RSS | bytes/state |")
print("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
for r in rows:
    st, tr, t, kb = (float(r[k]) for k in ("states", "transitions", "time_s", "rss_kb"))
    rate = lambda x: "-" if t < 0.005 else f"{x / t:,.0f}"
    print(f"| {name[r['run']]} | {r['n']} | {st:,.0f} | {tr:,.0f} | {'<0.01 s' if t < 0.005 else f'{t:.2f} s'} "
          f"| {rate(st)} | {rate(tr)} | {kb / 1024:,.1f} MiB | {kb * 1024 / st:,.0f} |")
PY
	done
fi

# --- verdict cross-check: the message bound, and a bug both must catch --------
if [[ $CHECKS == 1 ]]; then
	{
		echo
		echo "### Verdicts with the message bound compiled in (-DMSGBOUND, POR on)"
		echo
		echo "| model | n | SPIN | elcheck |"
		echo "| --- | ---: | --- | --- |"
	} | tee -a "$out/report.md"
	checks=()
	for algo in $ALGOS; do
		checks+=("$algo:$algo")
		if [[ $algo == dkr ]]; then
			checks+=("dkr_nosecond:dkr-nosecond")
		fi
	done
	for c in "${checks[@]}"; do
		model=${c%%:*} ealgo=${c#*:}
		for n in $NS; do
			dir=$out/check-$model-n$n
			rm -rf "$dir"
			mkdir -p "$dir"
			base=${ealgo%%-*}
			ids=$(ids_for "$base" "$n")
			inits=$(seq -s, 0 $((n - 1)))
			b=$(spin_build "$dir" "$root/bench/spin/$model.pml" -DN="$n" -DMSGBOUND)
			sv=$(run_pan "$dir" pan_por "check-$model" "$model" "$n" "$b")
			if ((reduce)); then
				ev=$(run_elcheck "$dir" "check-elcheck" "$ealgo" "$n" "$ids" "$inits" -reduce=all)
			else
				ev=$(run_elcheck "$dir" "check-elcheck" "$ealgo" "$n" "$ids" "$inits")
			fi
			echo "| $model.pml / elcheck -algo=$ealgo | $n | ${sv//_/ } | ${ev//_/ } |" | tee -a "$out/report.md"
			expect=no got_s=no got_e=no
			if [[ $ealgo == *-* ]]; then expect=yes; fi # the buggy variant
			if [[ $sv == VIOLATED* ]]; then got_s=yes; fi
			if [[ $ev == VIOLATED* ]]; then got_e=yes; fi
			if [[ $got_s != "$expect" || $got_e != "$expect" ]]; then
				echo "**VERDICTS DISAGREE** on $model, n=$n (expected violation: $expect)" | tee -a "$out/report.md"
				failed=1
			fi
		done
	done
fi

echo "
Load average at the end: $(cut -d' ' -f1-3 /proc/loadavg)." | tee -a "$out/report.md"
say "report saved to ${out#"$root/"}/report.md, raw outputs under ${out#"$root/"}/"
if ((failed)); then
	say "some verdicts were not as expected (see above)"
	exit 1
fi
