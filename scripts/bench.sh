#!/usr/bin/env bash
# scripts/bench.sh: what libcontain.so costs, bare vs contained, on the same
# machine in the same minute. Run it from anywhere; it works from the repo root.
#
# For every case it runs one warm-up of each variant, then N interleaved pairs
# (bare, contained, bare, contained, ...) and reports the medians and the
# median and range of the pairwise ratios contained/bare. Pairing the runs
# cancels most of the drift (frequency scaling, page cache, other load) that
# separate before/after runs would mistake for overhead.
#
# Timing is done by a small Python helper (run by /usr/bin/python3, bare, so
# neither pyenv shims nor the preload are measured): wall time around the
# child, and CPU time = user+sys of the child and everything it waited for
# (getrusage(RUSAGE_CHILDREN)). Only the measured command gets LD_PRELOAD.
set -euo pipefail

usage() {
	cat <<'EOF'
usage: scripts/bench.sh [--pairs N] [--lib PATH] [--tree DIR] [--quick] [--only LIST] [--out FILE]

Measures the overhead of libcontain.so: micro-benchmarks of single calls
(bench/micro.c), workloads over a 40,000-file tree (bench/workloads.sh) and
the start-up cost of a preloaded process, each as N interleaved pairs of
bare and contained runs. Prints a markdown report and writes it to FILE.

  --pairs N    measured pairs per case (default 7; 3 with --quick)
  --lib PATH   the preload to measure (default .libs/libcontain.so in the repo)
  --tree DIR   use (or create, then keep) the benchmark tree at DIR instead of
               a fresh one in the temporary work dir; DIR's parent becomes
               CONTAIN_ROOT and must be writable (cpr copies next to DIR)
  --quick      3 pairs, a tenth of the calls per micro case, and only the
               faster workloads (find, rg, cpr, spawn)
  --only LIST  run only these cases, comma-separated: micro calls (open openat
               stat lstat access fopen readlink opendir exec), workloads (find
               findL rg rgfollow tar cpr du gitstatus spawn make configure),
               startup, startchild, memory; e.g. --only exec,spawn,make --pairs 15
  --out FILE   where the report goes (default bench/RESULTS.md)
  --layers L   CONTAIN_LAYERS of the contained runs (default auto: the
               interposer, Landlock and seccomp; none: the interposer alone)
  --launcher C run the contained variant through the contain launcher C
               (contain --lib PATH --root ROOT --layers L -- CMD) instead of
               setting LD_PRELOAD: adds the launcher and its supervisor
  -h, --help   this text

Contained runs get LD_PRELOAD=PATH CONTAIN_ROOT=<work dir> CONTAIN_LOG=off
CONTAIN_LAYERS=L;
other CONTAIN_* variables and LD_PRELOAD are removed from both variants.
Needs: cc, python3, rg, find, tar, cp, du.

example: make && scripts/bench.sh --quick --out /tmp/bench.md
EOF
}

die() {
	printf 'bench.sh: %s\n' "$1" >&2
	[ $# -lt 2 ] || printf 'Hint: %s\n' "$2" >&2
	exit 1
}
note() { printf 'bench.sh: %s\n' "$*" >&2; }

orig_pwd=$PWD
abspath() { case $1 in /*) printf '%s\n' "$1" ;; *) printf '%s/%s\n' "$orig_pwd" "$1" ;; esac; }

pairs=7 pairs_set=0 lib="" tree="" quick=0 out="" layers=auto launcher="" only=""
while [ $# -gt 0 ]; do
	case $1 in
	--pairs | --lib | --tree | --out | --layers | --launcher | --only)
		[ $# -ge 2 ] || die "$1 needs an argument" "scripts/bench.sh --help"
		case $1 in
		--pairs) pairs=$2 pairs_set=1 ;;
		--lib) lib=$(abspath "$2") ;;
		--tree) tree=$(abspath "$2") ;;
		--out) out=$(abspath "$2") ;;
		--layers) layers=$2 ;;
		--launcher) launcher=$(abspath "$2") ;;
		--only) only=$2 ;;
		esac
		shift 2
		;;
	--quick) quick=1 && shift ;;
	-h | --help) usage && exit 0 ;;
	*) die "unknown argument '$1'" "scripts/bench.sh --help" ;;
	esac
done
case $pairs in '' | *[!0-9]* | 0) die "--pairs wants a positive integer, not '$pairs'" ;; esac
[ "$quick" = 0 ] || [ "$pairs_set" = 1 ] || pairs=3
all_cases="open openat stat lstat access fopen readlink opendir exec find findL rg rgfollow tar cpr du gitstatus spawn make configure startup startchild memory"
for c in $(printf '%s' "$only" | tr ',' ' '); do
	case " $all_cases " in
	*" $c "*) ;;
	*) die "--only: unknown case '$c'" "one of: $all_cases" ;;
	esac
done
# want NAME: is this case to be run?
want() {
	[ -z "$only" ] && return 0
	case ",$only," in *",$1,"*) return 0 ;; *) return 1 ;; esac
}

cd "$(dirname "$0")/.."
repo=$(pwd -P)
: "${lib:=$repo/.libs/libcontain.so}"
: "${out:=$repo/bench/RESULTS.md}"
unset LD_PRELOAD

# Calls per micro run, spawns per start-up run; --quick takes a tenth.
n_micro=200000 n_exec=2000 n_start=1000
if [ "$quick" = 1 ]; then
	n_micro=$((n_micro / 10)) n_exec=$((n_exec / 10)) n_start=$((n_start / 10))
	workloads="find rg cpr spawn"
else
	workloads="find findL rg rgfollow tar cpr du gitstatus spawn make configure"
fi

# Preconditions, each with what to do about it.
[ -f "$lib" ] || die "library not found: $lib" \
	"build it first: run make in $repo (./configure first on a fresh checkout), or pass --lib PATH"
case $lib in *[[:space:]:]*) die "LD_PRELOAD cannot carry a path with a space or colon: $lib" ;; esac
command -v rg >/dev/null 2>&1 || die "rg (ripgrep) not found; the rg and rgfollow workloads need it" \
	"install ripgrep (Debian/Ubuntu: apt-get install ripgrep)"
command -v cc >/dev/null 2>&1 || die "cc not found; it builds bench/micro.c"
if [ -x /usr/bin/python3 ]; then py=/usr/bin/python3; else py=$(command -v python3) || die "python3 not found; it times the runs"; fi

# The containment root: the work dir, or with --tree the tree's parent, which
# then holds the work dir. Everything a contained run touches besides system
# files (tree, tree.copy, micro, workloads.sh, the exec target) is inside it.
if [ -n "$tree" ]; then
	root=$(dirname "$tree")
	[ "$root" != / ] || die "--tree $tree: its parent would be CONTAIN_ROOT; use a deeper directory"
	if [ ! -d "$root" ] || [ ! -w "$root" ]; then
		die "--tree $tree: parent directory $root must exist and be writable"
	fi
	if [ -e "$tree" ] && { [ ! -f "$tree/pkg00/mod000/f000.c" ] || [ ! -L "$tree/link-to-pkg00" ]; }; then
		die "--tree $tree exists but is not a tree made by bench/mktree.sh"
	fi
	work=$(mktemp -d "$root/libcontain-bench.XXXXXX")
else
	work=$(mktemp -d "${TMPDIR:-/tmp}/libcontain-bench.XXXXXX")
	root=$work
	tree=$work/tree
fi
trap 'rm -rf -- "$work" "$tree.copy"' EXIT # .copy: a cpr run cut short
trap 'exit 130' INT
trap 'exit 143' TERM

cc -O2 -std=c11 -Wall -Wextra -o "$work/micro" "$repo/bench/micro.c" || die "cannot compile bench/micro.c"
cp "$repo/bench/workloads.sh" "$work/workloads.sh"
cp /bin/true "$work/true" # the micro exec target, inside the root

# The timing helper and the report, in one small Python file.
helper=$work/bench.py
cat >"$helper" <<'PY'
"""bench.py run VARIANT [--per N] [--ns-from-stdout] (--spawn N PATH | -- CMD...)
   bench.py report CASES DATA

run: time one run of CMD (or N posix_spawns of PATH) with the VARIANT's
environment and print "WALL_NS CPU_NS OUTPUT", both times divided by --per,
WALL_NS taken from CMD's "OP NS ns/call" line with --ns-from-stdout.
This process itself stays bare: only the child gets LD_PRELOAD.
report: the markdown table from the cases and the measurements."""
import os, re, resource, statistics, subprocess, sys, time


def child_env(variant):
    env = {k: v for k, v in os.environ.items()
           if k != "LD_PRELOAD" and not k.startswith(("CONTAIN_", "BENCH_"))}
    if variant == "contained" and os.environ.get("BENCH_CHILD_ENV"):
        # what a contained process hands its children (NUL-separated)
        with open(os.environ["BENCH_CHILD_ENV"], "rb") as f:
            pairs = [e.decode().partition("=") for e in f.read().split(b"\0") if e]
        return {k: v for k, _, v in pairs if not k.startswith("BENCH_")}
    if variant == "contained":
        env.update(LD_PRELOAD=os.environ["BENCH_LIB"],
                   CONTAIN_ROOT=os.environ["BENCH_ROOT"], CONTAIN_LOG="off",
                   CONTAIN_LAYERS=os.environ.get("BENCH_LAYERS", "auto"))
    return env


def children_cpu_ns():
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (r.ru_utime + r.ru_stime) * 1e9


def status_text(st):
    return "killed by signal %d" % -st if st < 0 else "exit status %d" % st


def run(args):
    variant, per, from_stdout, spawn = args.pop(0), 1, False, None
    while args and args[0] != "--":
        opt = args.pop(0)
        if opt == "--per":
            per = int(args.pop(0))
        elif opt == "--ns-from-stdout":
            from_stdout = True
        elif opt == "--spawn":
            spawn = (int(args.pop(0)), args.pop(0))
        else:
            sys.exit("bench.py: unknown option " + opt)
    cmd = args[1:]
    env = child_env(variant)
    launcher = os.environ.get("BENCH_LAUNCHER")
    if variant == "contained" and launcher:
        # the launcher sets the environment itself
        env = child_env("bare")
        pre = [launcher, "--lib", os.environ["BENCH_LIB"], "--root", os.environ["BENCH_ROOT"],
               "--layers", os.environ.get("BENCH_LAYERS", "auto"), "--log", "off", "--"]
        cmd = pre + cmd
        if spawn:
            spawn = (spawn[0], launcher, pre[1:] + [spawn[1]])
    cpu0 = children_cpu_ns()
    if spawn:
        n, path = spawn[0], spawn[1]
        null = [(os.POSIX_SPAWN_DUP2, os.open(os.devnull, os.O_WRONLY), 1)]  # our stdout is the result
        t0 = time.perf_counter_ns()
        argv = [path] + (spawn[2] if len(spawn) > 2 else [])
        for _ in range(n):
            _, st = os.waitpid(os.posix_spawn(path, argv, env, file_actions=null), 0)
            if st:
                sys.exit("bench.py: %s: %s" % (path, status_text(os.waitstatus_to_exitcode(st))))
        wall = time.perf_counter_ns() - t0
        out = "ok"
    else:
        t0 = time.perf_counter_ns()
        p = subprocess.run(cmd, env=env, stdout=subprocess.PIPE)
        wall = time.perf_counter_ns() - t0
        out = " ".join(p.stdout.decode(errors="replace").split())
        if p.returncode:
            sys.exit("bench.py: %s: %s" % (" ".join(cmd), status_text(p.returncode)))
    cpu = children_cpu_ns() - cpu0
    if from_stdout:
        m = re.search(r"(\S+) ([0-9.]+) ns/call$", out)
        if not m:
            sys.exit("bench.py: no 'OP NS ns/call' in the output: " + out[:100])
        wall = float(m.group(2)) * per
    print("%.1f %.1f %s" % (wall / per, cpu / per, out))


def fmt(x):
    return "%.0f" % x if x >= 100 else "%.1f" % x if x >= 10 else "%.2f" % x


def report(cases_file, data_file):
    data = {}
    with open(data_file) as f:
        for line in f:
            case, variant, pair, wall, cpu = line.rstrip("\n").split("\t")
            data.setdefault(case, {}).setdefault(variant, {})[int(pair)] = (float(wall), float(cpu))
    print("| case | unit | wall bare | wall contained | wall ratio | wall range "
          "| CPU bare | CPU contained | CPU ratio | CPU range |")
    print("|---|---|--:|--:|--:|--:|--:|--:|--:|--:|")
    with open(cases_file) as f:
        for line in f:
            case, unit, scale, status = line.rstrip("\n").split("\t")
            runs = data.get(case, {})
            b, c = runs.get("bare", {}), runs.get("contained", {})
            pairs = sorted(set(b) & set(c))
            if status != "ok" or not pairs:
                print("| %s | %s | %s |%s" % (case, unit, status if status != "ok" else "no data", " |" * 7))
                continue
            cells = []
            for i in (0, 1):  # 0: wall, 1: CPU
                bare = [b[p][i] for p in pairs]
                cont = [c[p][i] for p in pairs]
                ratios = [y / x for x, y in zip(bare, cont) if x > 0]
                cells += [fmt(statistics.median(bare) / float(scale)),
                          fmt(statistics.median(cont) / float(scale))]
                cells += (["%.2f" % statistics.median(ratios), "%.2f-%.2f" % (min(ratios), max(ratios))]
                          if ratios else ["n/a", "n/a"])
            print("| %s | %s | %s |" % (case, unit, " | ".join(cells)))


if __name__ == "__main__":
    if sys.argv[1:2] == ["run"]:
        run(sys.argv[2:])
    elif sys.argv[1:2] == ["report"]:
        report(*sys.argv[2:4])
    else:
        sys.exit(__doc__)
PY

export BENCH_LIB=$lib BENCH_ROOT=$root BENCH_LAYERS=$layers BENCH_LAUNCHER=$launcher # read by the helper, never by a child
cd "$work" # so that no measured process starts with its cwd outside the root
cases=$work/cases.tsv data=$work/data.tsv err=$work/stderr
: >"$cases"
: >"$data"
failed=0

# measure CASE VARIANT PAIR CHECK HELPER-ARGS...: one timed run, appended to
# the data (PAIR "warm" is not). CHECK "same" compares the run's output with
# the first bare run's, so a contained run that quietly sees less of the tree
# cannot pass for a fast one. Returns non-zero, with the reason, on failure.
measure() {
	local case=$1 variant=$2 pair=$3 check=$4 line wall cpu output
	shift 4
	if ! line=$("$py" "$helper" run "$variant" "$@" 2>"$err"); then
		reason="$variant run: $(head -n 1 "$err" | cut -c1-160)"
		tail -n 5 "$err" >&2
		return 1
	fi
	read -r wall cpu output <<<"$line"
	if ! [[ $wall =~ ^[0-9.]+$ && $cpu =~ ^[0-9.]+$ ]]; then
		reason="$variant run: unexpected timing line '${line:0:60}'"
		return 1
	fi
	if [ "$check" = same ]; then
		if [ -z "${expect+x}" ]; then
			expect=$output
		elif [ "$output" != "$expect" ]; then
			reason="$variant output '${output:0:60}' differs from bare '${expect:0:60}'"
			return 1
		fi
	fi
	[ "$pair" = warm ] || printf '%s\t%s\t%s\t%s\t%s\n' "$case" "$variant" "$pair" "$wall" "$cpu" >>"$data"
}

# run_case CASE UNIT SCALE CHECK HELPER-ARGS...: warm-up of each variant, then
# the pairs. SCALE divides the helper's nanoseconds into UNIT.
run_case() {
	local case=$1 unit=$2 scale=$3 check=$4 pair status=ok
	shift 4
	unset expect
	note "$case ($pairs pairs)"
	for pair in warm $(seq "$pairs"); do
		if ! measure "$case" bare "$pair" "$check" "$@" ||
			! measure "$case" contained "$pair" "$check" "$@"; then
			note "$case: FAILED: $reason"
			reason=${reason//$'\t'/ }
			status="FAILED: ${reason//|/\\|}"
			failed=1
			break
		fi
	done
	printf '%s\t%s\t%s\t%s\n' "$case" "$unit" "$scale" "$status" >>"$cases"
}

# Is the preload really loaded, and active? libcontain_version() says so.
cat >"$work/check.c" <<'EOF'
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdio.h>
int main(void)
{
	void *sym = dlsym(RTLD_DEFAULT, "libcontain_version");
	const char *(*version)(void) = (const char *(*)(void))sym;
	puts(version ? version() : "unknown (no libcontain_version symbol)");
	return 0;
}
EOF
cc -O2 -o "$work/check" "$work/check.c" -ldl || die "cannot compile the preload check"
if ! preload=$("$py" "$helper" run contained -- "$work/check" 2>"$err"); then
	cat "$err" >&2
	die "a contained process could not start with $lib" "run the check by hand: LD_PRELOAD=$lib CONTAIN_ROOT=$root /bin/true"
fi
if grep -q 'cannot be preloaded' "$err"; then
	cat "$err" >&2
	die "the dynamic loader could not preload $lib" "is it a shared object built for this machine?"
fi
preload=${preload#* * }
case $preload in
*"(active"*) ;;
*) note "warning: the preload does not report itself active: $preload" ;;
esac

if [ -e "$tree" ]; then
	note "using the existing tree $tree"
else
	note "creating a 40,000-file tree in $tree"
	PYTHON=$py sh "$repo/bench/mktree.sh" "$tree" >&2 || die "bench/mktree.sh failed"
fi
nfiles=$(find "$tree" -type f -not -path '*/.git/*' | wc -l)

# a git repository of the tree (packed: the other walks barely see it), a
# small C project for make -j2 and a small autotools project's configure,
# next to the tree (its parent is the root)
if [ ! -d "$tree/.git" ] && command -v git >/dev/null 2>&1; then
	note "making the tree a git repository"
	(cd "$tree" && git init -q && git add -A && git -c gc.auto=0 -c user.name=bench -c user.email=bench@localhost \
		commit -qm tree && git gc -q) >&2 || die "git init of the tree failed"
fi
if [ ! -d "$tree.mk" ]; then
	mkdir -p "$tree.mk"
	i=0
	while [ $i -lt 24 ]; do
		printf 'int f%d(int x) { int s = 0; for (int i = 0; i < x; i++) s += i * %d; return s; }\n' $i $i \
			>"$tree.mk/f$i.c"
		i=$((i + 1))
	done
	printf 'int main(void) { return 0; }\n' >"$tree.mk/main.c"
	printf 'SRC := $(wildcard *.c)\nprog: $(SRC:.c=.o)\n\t$(CC) -o $@ $^\nclean:\n\trm -f *.o prog\n' \
		>"$tree.mk/Makefile"
fi
if [ ! -x "$tree.ac/configure" ] && command -v autoconf >/dev/null 2>&1; then
	mkdir -p "$tree.ac"
	cat >"$tree.ac/configure.ac" <<'AC'
AC_INIT([benchproj], [1.0])
AC_PROG_CC
AC_CHECK_HEADERS([stdio.h stdlib.h string.h unistd.h fcntl.h sys/stat.h])
AC_CHECK_FUNCS([open stat mkdir rename strdup])
AC_OUTPUT
AC
	(cd "$tree.ac" && autoconf) >&2 || die "autoconf of the configure project failed"
fi

file=$tree/pkg00/mod000/f000.c
for op in open openat stat lstat access fopen readlink opendir exec; do
	want "$op" || continue
	n=$n_micro target=$file
	case $op in
	readlink) target=$tree/pkg01/rel-link.c ;;
	opendir) target=$tree/pkg00 ;;
	exec) n=$n_exec target=$work/true ;;
	esac
	run_case "micro $op" "ns/call" 1 any --per "$n" --ns-from-stdout -- "$work/micro" "$op" "$target" "$n"
done
for w in $workloads; do
	want "$w" || continue
	run_case "$w" "ms/run" 1000000 same -- /bin/sh "$work/workloads.sh" "$w" "$tree"
done
if want startup; then
	run_case "startup, first process" "us/spawn" 1000 any --per "$n_start" --spawn "$n_start" /bin/true
fi
# A child's start: /bin/true spawned with the environment a contained process
# gives its children (the policy resolved, in CONTAIN_POLICY), so that it
# pays the library's load and the snapshot's parse, as every process a
# contained shell or make starts does. The snapshot is taken without the
# kernel layers: this bare parent does not run under them, and a child told
# they hold it (CONTAIN_KERNEL) that finds the filter missing would repair
# its environment, which no real child does. (Inheriting them costs a child
# one probe system call.)
if want startchild && [ -n "$launcher" ]; then
	note "startup, a child: not with --launcher (the launcher starts first processes)"
elif want startchild; then
	if LD_PRELOAD=$lib CONTAIN_ROOT=$root CONTAIN_LOG=off CONTAIN_LAYERS=none /usr/bin/env -0 >"$work/child.env" 2>"$err" &&
		grep -qa CONTAIN_POLICY= "$work/child.env"; then
		BENCH_CHILD_ENV=$work/child.env run_case "startup, a child" "us/spawn" 1000 any --per "$n_start" \
			--spawn "$n_start" /bin/true
	else
		note "startup, a child: no snapshot from a contained env: $(head -c 200 "$err")"
		printf '%s\t%s\t%s\t%s\n' "startup, a child" "us/spawn" 1000 "FAILED: no snapshot" >>"$cases"
		failed=1
	fi
fi

# Memory: what a process holds at its peak, bare and contained, interleaved:
# cat's own VmHWM (every resident page, shared library text included) and
# RssAnon (its private memory), from /proc/self/status
rss=""
if want memory; then
rss=$("$py" - "$lib" "$root" "$pairs" <<'PY'
import os, statistics, subprocess, sys
lib, root, pairs = sys.argv[1], sys.argv[2], int(sys.argv[3])
def one(contained):
    env = {k: v for k, v in os.environ.items() if k != "LD_PRELOAD" and not k.startswith(("CONTAIN_", "BENCH_"))}
    if contained:
        env.update(LD_PRELOAD=lib, CONTAIN_ROOT=root, CONTAIN_LOG="off",
                   CONTAIN_LAYERS=os.environ.get("BENCH_LAYERS", "auto"))
    out = subprocess.run(["/bin/cat", "/proc/self/status"], capture_output=True, text=True, env=env).stdout
    f = dict(l.split(":", 1) for l in out.splitlines() if ":" in l)
    return int(f["VmHWM"].split()[0]), int(f["RssAnon"].split()[0])
b, c = [], []
for _ in range(pairs):
    b.append(one(False)); c.append(one(True))
hb = statistics.median(x[0] for x in b); hc = statistics.median(x[0] for x in c)
ab = statistics.median(x[1] for x in b); ac = statistics.median(x[1] for x in c)
print("%d %d %d %d %d %d" % (hb, hc, hc - hb, ab, ac, ac - ab))
PY
) || rss="? ? ? ? ? ?"
fi

# The report: a header that says where the numbers come from, then the table.
cpu_model=$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo 2>/dev/null | head -n 1)
cmd="cd $(printf '%q' "$repo") && scripts/bench.sh --pairs $pairs --lib $(printf '%q' "$lib")"
[ "$tree" = "$work/tree" ] || cmd+=" --tree $(printf '%q' "$tree")"
[ "$quick" = 0 ] || cmd+=" --quick"
[ -z "$launcher" ] || cmd+=" --launcher $(printf '%q' "$launcher")"
[ "$layers" = auto ] || cmd+=" --layers $layers"
[ -z "$only" ] || cmd+=" --only $only"
cmd+=" --out $(printf '%q' "$out")"
report=$work/report.md
{
	echo "# libcontain benchmark"
	echo
	echo "- date: $(date -u '+%Y-%m-%d %H:%M:%S UTC')"
	echo "- kernel: $(uname -r)"
	echo "- CPU: ${cpu_model:-unknown} ($(nproc) online)"
	echo "- library: $lib (sha256 $(sha256sum "$lib" | cut -c1-12)); reports: $preload"
	echo "- pairs: $pairs per case, after one warm-up of each variant; micro N=$n_micro (exec N=$n_exec), startup N=$n_start$([ "$quick" = 0 ] || echo ', --quick')"
	if [ -n "$launcher" ]; then
		echo "- contained: $launcher --lib <library> --root $root --layers $layers --log off -- CMD"
	else
		echo "- contained: LD_PRELOAD=<library> CONTAIN_ROOT=$root CONTAIN_LOG=off CONTAIN_LAYERS=$layers"
	fi
	echo "- tree: $tree, $nfiles files (bench/mktree.sh); micro targets: pkg00/mod000/f000.c in it, readlink pkg01/rel-link.c, opendir pkg00 (20 entries), exec a copy of /bin/true in the root"
	echo "- reproduce: \`$cmd\`"
	echo
	"$py" "$helper" report "$cases" "$data"
	echo
	echo "bare and contained: medians over the pairs. ratio: median of the pairwise ratios contained/bare;"
	echo "range: their min-max. micro: wall is the ns/call micro prints; CPU is user+sys of the process"
	echo "divided by N (start-up included). ms/run: one workload run (bench/workloads.sh). startup, first"
	echo "process: /bin/true posix_spawned N times from a bare parent, so each is the first contained process"
	echo "of its run and resolves the policy itself; children of a contained process take it resolved from"
	echo "CONTAIN_POLICY, and the spawn row (a contained shell starting /bin/true 500 times) shows their cost."
	echo "gitstatus: git status --porcelain in the tree (a git repository); make: make -j2 clean all of"
	echo "25 small C files; configure: ./configure of a small autoconf project."
	echo
	if [ -n "$rss" ]; then
		set -- $rss
		echo "Memory of cat (median of $pairs interleaved runs, /proc/self/status): peak resident (VmHWM) bare $1 KiB, contained $2 KiB, extra $3 KiB; private anonymous (RssAnon) bare $4 KiB, contained $5 KiB, extra $6 KiB."
	fi
} >"$report"
mkdir -p "$(dirname "$out")"
cp "$report" "$out"
cat "$report"
note "report written to $out"
[ "$failed" = 0 ] || die "some cases failed; see FAILED in the table"
