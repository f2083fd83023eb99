#!/bin/sh
# No existence oracle: an outside path is decided lexically, so an existing
# and a missing outside file give byte-identical results (probe output, exit
# status, the stderr line modulo the path, EACCES), whatever the spelling
# (absolute, ../, a symlink in the root pointing out, the ROOT-evil sibling)
# and whatever the call (open, stat, lstat, access, statx, fopen). strace
# shows that no syscall names the outside tree at all.
. "${SRCDIR:?}/tests/integration/lib.sh"
if ! command -v strace >/dev/null 2>&1; then
	echo "# strace missing: skipping"
	exit 77
fi
if ! strace -f -o /dev/null /bin/true >/dev/null 2>&1; then
	echo "# strace cannot trace here (ptrace not permitted?): skipping"
	exit 77
fi
make_fixture
CWD=	# run_probe's working directory (default /)
# extra shapes: an outward link to a missing dir, a sibling that does not exist
ln -s ../outside-gone "$ROOT/dirlink-gone"
ln -s "$OUT" "$ROOT/dirlink-abs-out"
ln -s nothing.txt "$ROOT/link-dangling-in"

# libc function named in the denial line for each probe op
fname() {
	case $1 in
	read) echo open ;;
	*) echo "$1" ;;
	esac
}

# sanitize PATH: replace every occurrence of PATH on stdin with the word PATH
sanitize() {
	awk -v p="$1" '{
		out = ""; s = $0
		while ((i = index(s, p)) > 0) { out = out substr(s, 1, i - 1) "PATH"; s = substr(s, i + length(p)) }
		print out s
	}'
}

# run_probe TAG OP PATH: contained probe; $T/o.TAG = stdout + status, $T/e.TAG
# = stderr with the path replaced by PATH
run_probe() {
	(cd "${CWD:-/}" && contained "$HELPERS/probe" "$2" "$3") >"$T/o.$1" 2>"$T/e.raw"
	echo "status $?" >>"$T/o.$1"
	sanitize "$3" <"$T/e.raw" >"$T/e.$1"
}

# identical NAME OP EXISTING MISSING: both denied the same way, byte for byte
identical() {
	run_probe a "$2" "$3"
	run_probe b "$2" "$4"
	check "$1: $2 of existing outside path is EACCES" "$(cat "$T/o.a")" "EACCES
status 0"
	check "$1: $2 of existing outside path logs the outside denial" "$(cat "$T/e.a")" \
		"libcontain: denied $(fname "$2") \"PATH\": outside the allowed trees"
	if cmp -s "$T/o.a" "$T/o.b"; then
		ok "$1: $2 stdout+status identical for existing and missing"
	else
		not_ok "$1: $2 stdout+status differ: [$(cat "$T/o.a")] vs [$(cat "$T/o.b")]"
	fi
	if cmp -s "$T/e.a" "$T/e.b"; then
		ok "$1: $2 stderr identical (modulo path) for existing and missing"
	else
		not_ok "$1: $2 stderr differs: [$(cat "$T/e.a")] vs [$(cat "$T/e.b")]"
	fi
}

# allowed TWIN: the same op on an inside path succeeds silently, and a
# missing inside path is the plain ENOENT (the library only hides outside)
allowed() {
	run_probe c "$2" "$3"
	check_match "$1: $2 of inside path succeeds" "$(cat "$T/o.c")" "ok*
status 0"
	check "$1: $2 of inside path is silent" "$(cat "$T/e.c")" ""
	run_probe d "$2" "$4"
	check "$1: $2 of missing inside path is ENOENT, not EACCES" "$(cat "$T/o.d")" "ENOENT
status 0"
}

for op in read stat lstat access statx fopen; do
	identical "absolute" $op "$OUT/secret.txt" "$OUT/missing.txt"
	identical "absolute, missing dir" $op "$OUT/secret.txt" "$OUT/nodir/missing.txt"
	identical "absolute, file as dir" $op "$OUT/secret.txt" "$OUT/secret.txt/x"
	allowed "absolute" $op "$ROOT/file.txt" "$ROOT/missing.txt"

	identical "via ../" $op "$ROOT/../outside/secret.txt" "$ROOT/../outside/missing.txt"
	identical "via ../ from a subdir" $op "$ROOT/sub/../../outside/secret.txt" \
		"$ROOT/sub/../../outside/missing.txt"
	allowed "via ../" $op "$ROOT/sub/../file.txt" "$ROOT/sub/../missing.txt"

	identical "via outward dir link" $op "$ROOT/dirlink-out/secret.txt" \
		"$ROOT/dirlink-out/missing.txt"
	identical "via absolute outward dir link" $op "$ROOT/dirlink-abs-out/secret.txt" \
		"$ROOT/dirlink-gone/secret.txt"
	allowed "via inward dir link" $op "$ROOT/dirlink/a.txt" "$ROOT/dirlink/missing.txt"
	if [ $op != lstat ]; then
		# lstat of the link itself is the (inside) link, see below
		identical "via outward file link" $op "$ROOT/link-out" "$ROOT/link-missing-out"
		identical "via absolute outward file link" $op "$ROOT/link-abs-out" \
			"$ROOT/link-missing-out"
		allowed "via inward file link" $op "$ROOT/link-in" "$ROOT/link-dangling-in"
	fi

	identical "outside dir itself" $op "$OUT" "$T/outside-gone"

	# relative spellings from a cwd inside the root
	CWD=$ROOT
	identical "relative ../ from the root" $op ../outside/secret.txt ../outside/missing.txt
	identical "relative via outward dir link" $op dirlink-out/secret.txt dirlink-out/missing.txt
	CWD=$ROOT/sub
	identical "relative ../../ from a subdir" $op ../../outside/secret.txt ../../outside/missing.txt
	allowed "relative ../ staying inside" $op ../file.txt ../missing.txt
	CWD=

	identical "ROOT-evil sibling" $op "$T/root-evil/secret.txt" "$T/root-evil/missing.txt"
	identical "ROOT-evil sibling, missing dir" $op "$T/root-evil/secret.txt" \
		"$T/root-nope/secret.txt"
	allowed "root itself, not its sibling" $op "$ROOT/sub/a.txt" "$ROOT/sub/missing.txt"
done

# lstat does not follow the last link: an outward link is an inside object, and
# its target's existence does not show either
check "lstat of an outward link (existing target) sees the inside link" \
	"$(probe lstat "$ROOT/link-out")" "ok"
check "lstat of an outward link (missing target) sees the inside link" \
	"$(probe lstat "$ROOT/link-missing-out")" "ok"

# strace: no syscall of the contained process names the outside tree.
# -s 0 hides data buffers (argv, read/write/readlink contents) but not path
# arguments, which strace always prints in full.
trace() { # trace FILE [LD_PRELOAD-value] PROBE-ARGS...
	tf=$1 pre=$2
	shift 2
	strace -f -s 0 -e trace=%file,%desc -o "$tf" env LD_PRELOAD="$pre" CONTAIN_ROOT="$ROOT" \
		CONTAIN_READ="$HELPERS" CONTAIN_TMPDIR="$T/tmp" "$HELPERS/probe" "$@" >/dev/null 2>&1
}
names() { # names FILE WORD: the (first two) trace lines that contain WORD
	grep -F -e "$2" "$1" | head -n 2
}
# the twin proving strace/grep would see it: uncontained, the outside path is there
trace "$T/trace.bare" "" read "$OUT/secret.txt"
check_match "uncontained probe trace names the outside path (grep works)" \
	"$(grep -F "\"$OUT/secret.txt\"" "$T/trace.bare")" "*openat*"
n=0
for op in read stat lstat access statx fopen; do
	for p in "$OUT/secret.txt" "$OUT/missing.txt" "$ROOT/../outside/secret.txt" \
		"$ROOT/../outside/missing.txt" "$ROOT/sub/../../outside/secret.txt" \
		"$ROOT/link-out" "$ROOT/link-abs-out" "$ROOT/dirlink-out/secret.txt" \
		"$ROOT/dirlink-abs-out/secret.txt"; do
		n=$((n + 1))
		trace "$T/trace.$n" "$LIBCONTAIN_SO" $op "$p"
		check "strace: contained $op $p names no outside path" \
			"$(names "$T/trace.$n" outside)" ""
	done
	n=$((n + 1))
	trace "$T/trace.$n" "$LIBCONTAIN_SO" $op "$T/root-evil/secret.txt"
	check "strace: contained $op of the ROOT-evil sibling names it in no syscall" \
		"$(names "$T/trace.$n" root-evil)" ""
	n=$((n + 1))
	trace "$T/trace.$n" "$LIBCONTAIN_SO" $op "$ROOT/../root-evil/secret.txt"
	check "strace: contained $op of ROOT/../ROOT-evil names it in no syscall" \
		"$(names "$T/trace.$n" root-evil)" ""
	# twin: an inside path does show up (as given or relative to the root fd)
	n=$((n + 1))
	trace "$T/trace.$n" "$LIBCONTAIN_SO" $op "$ROOT/file.txt"
	check_match "strace: contained $op of an inside path shows the inside path" \
		"$(grep -e 'file\.txt"' "$T/trace.$n")" "*file.txt\"*"
	n=$((n + 1))
	trace "$T/trace.$n" "$LIBCONTAIN_SO" $op "$ROOT/sub/a.txt"
	check_match "strace: contained $op of an inside subdir path shows it" \
		"$(grep -e 'sub/a\.txt"' "$T/trace.$n")" "*sub/a.txt\"*"
done
finish
