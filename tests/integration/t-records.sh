#!/bin/sh
# The anchor records: a dirfd or cwd call costs no statx once its directory
# is known, and every libc route that closes, replaces or moves what a
# number (or the cwd) names forgets it, so an outside directory put at the
# same number is judged afresh. Run with the interposer alone
# (CONTAIN_LAYERS=none): what is asserted is the interposer's own decision,
# not Landlock's backstop.
. "${SRCDIR:?}/tests/integration/lib.sh"
make_fixture
echo "inside, same name" > "$ROOT/sub/secret.txt"
CT_LAYERS=none
export CT_LAYERS
R="$HELPERS/records"

# the record pays: 300 fstatat(dirfd, name) make no statx after the first
if command -v strace >/dev/null 2>&1; then
	strace -f -qq -e trace=statx -o "$T/st" env LD_PRELOAD="$LIBCONTAIN_SO" CONTAIN_ROOT="$ROOT" \
		CONTAIN_LAYERS=none CONTAIN_READ="$HELPERS" CONTAIN_TMPDIR="$T/tmp" \
		"$R" count "$ROOT/sub" a.txt 300 >/dev/null 2>&1
	n=$(grep -c 'statx(' "$T/st")
	check_match "300 fstatat(dirfd) calls under the library make at most 2 statx ($n)" "$n" "[0-2]"
	strace -f -qq -e trace=statx -o "$T/st0" "$R" count "$ROOT/sub" a.txt 300 >/dev/null 2>&1
	check "bare, the same loop makes no statx either (the count is the library's)" \
		"$(grep -c 'statx(' "$T/st0")" 0
else
	echo "# strace missing: the statx count is not checked"
fi
check "the counting loop is right under the library" \
	"$(contained "$R" count "$ROOT/sub" a.txt 300 2>&1)" "ok"

# each way a number goes, then an outside directory at that number: the
# twin (inside, before) works, the outside one is refused with the line
for how in close __close dup2 __dup2 dup3 close_range closefrom closedir fclose _IO_fclose endmntent \
	pclose _IO_proc_close; do
	got=$(contained "$R" swap "$how" "$ROOT/sub" secret.txt 7 7<"$OUT" 2>"$T/err")
	check "$how, then an outside directory at the number: stat and open refused" \
		"$got" "stat=Permission denied open=Permission denied"
	check_match "$how: the refusal is the library's (denial line)" "$(cat "$T/err")" "*libcontain: denied*"
	got=$(contained "$R" swap "$how" "$ROOT/sub" a.txt 7 7<"$ROOT/sub" 2>"$T/err")
	check "$how, then an inside directory at the number: allowed (twin)" "$got" "stat=ok open=ok"
done

# freopen: glibc closes the number and puts the new file at it, inside
rm -f "$T/ro/made-by-freopen" "$ROOT/sub/made-by-freopen"
got=$(CT_READ="$HELPERS:$T/ro" contained "$R" freopen "$ROOT/sub" "$T/ro" made-by-freopen 2>"$T/err")
check "freopen of a writable dir's stream onto a read-only dir: a create through the number is refused" \
	"$got" "create=Permission denied"
check "... nothing was created in the read-only tree, and the twin (before) was" \
	"$(ls "$T/ro"; ls "$ROOT/sub" | grep made-by)" "data.txt
made-by-freopen"

# a vfork child's records live in the parent's memory: none survives it
cp /bin/true "$ROOT/sub/true"
for how in _exit exit exec execat; do
	got=$(contained "$R" vfork "$how" "$ROOT/sub" secret.txt 7 7<"$OUT" 2>"$T/err")
	check "vfork child opened an inside dir at the parent's outside number, then $how: parent refused" \
		"$got" "stat=Permission denied open=Permission denied"
	got=$(contained "$R" vfork "$how" "$ROOT/sub" a.txt 7 7<"$ROOT/sub" 2>"$T/err")
	check "vfork child, then $how, parent's number inside: allowed (twin)" "$got" "stat=ok open=ok"
done
# (raw, rawexec: a vfork system call no wrapper sees; its child shares the
# memory but is not the owner, so it fills no record there)
for how in _exit exit exec execrel raw rawexec; do
	rm -f "$T/ro/new-$how" "$ROOT/new-$how"
	got=$(CT_READ="$HELPERS:$T/ro" contained "$R" vforkcwd "$how" "$T/ro" "$ROOT" "new-$how" 2>"$T/err")
	if [ "$got" = create=skipped ]; then
		echo "# $how: x86-64 only, not checked"
		continue
	fi
	check "vfork child chdir'd into the writable root, then $how: parent's read-only cwd refuses a create" \
		"$got" "create=Permission denied"
	check "... and nothing was created in the read-only tree" "$(ls "$T/ro")" "data.txt"
	got=$(CT_READ="$HELPERS:$T/ro" contained "$R" vforkcwd "$how" "$ROOT" "$ROOT/sub" "new-$how" 2>"$T/err")
	check "vfork child chdir'd, then $how: parent's writable cwd allows the create (twin)" "$got" "create=ok"
done

# nftw(FTW_CHDIR) holds a descriptor of its own while the callback runs:
# a record the callback made of its number must not outlive it
got=$(cd "$ROOT" && contained "$R" ftwcb sub secret.txt 7 7<"$OUT" 2>"$T/err")
check "nftw(FTW_CHDIR)'s own descriptor, used by the callback, then an outside dir at its number: refused" \
	"$got" "stat=Permission denied open=Permission denied"
got=$(cd "$ROOT" && contained "$R" ftwcb sub a.txt 7 7<"$ROOT/sub" 2>"$T/err")
check "nftw(FTW_CHDIR), then an inside dir at the number: allowed (twin)" "$got" "stat=ok open=ok"

# a vfork child that happens to get the loading process's old pid (the
# owner the records trust) fills nothing: fills stop while a vfork child
# lives. Cycles pids (pid_max $(cat /proc/sys/kernel/pid_max 2>/dev/null)) until one is reused.
pm=$(cat /proc/sys/kernel/pid_max 2>/dev/null || echo 0)
if [ "$pm" -gt 0 ] && [ "$pm" -le 65536 ]; then
	got=$(contained timeout 120 "$R" reuse "$ROOT/sub" secret.txt 7 7<"$OUT" 2>"$T/err")
	case $got in
	"pid not reused") echo "# the owner's pid did not come back: not checked" ;;
	*) check "vfork child with the owner's recycled pid filled nothing: the parent's outside fd is refused" \
		"$got" "pid reused, child killed: stat=Permission denied open=Permission denied" ;;
	esac
else
	echo "# pid_max $pm: cycling pids would take too long, not checked"
fi

# a clone() child with memory of its own but the parent's fd table (or
# cwd) moves what the parent's record describes: records go off
for how in clonefiles clonefs; do
	rm -f "$T/ro/made-by-$how" "$ROOT/sub/made-by-$how"
	got=$(CT_READ="$HELPERS:$T/ro" contained "$R" "$how" "$ROOT/sub" "$T/ro" "made-by-$how" 2>"$T/err")
	check "$how: a clone child moved the parent's recorded directory to a read-only one: the create is refused" \
		"$got" "create=Permission denied"
	check "$how: nothing was created in the read-only tree" "$(ls "$T/ro" | grep -c "made-by-$how")" 0
done

# The identity of a number and its path are two lookups another thread can
# switch the number between (dup2): a read-only directory must never be
# remembered as lying in the writable tree, whichever process remembers it
# (a fork child caches directories by identity; the owner keeps records)
for where in fork owner; do
	rm -rf "$ROOT/race-rw" "$T/race-ro"
	for i in 0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19; do
		mkdir -p "$ROOT/race-rw/d$i" "$T/race-ro/d$i"
	done
	got=$(CT_READ="$HELPERS:$T/race-ro" contained "$R" identrace "$ROOT/race-rw" "$T/race-ro" "$where" 2>/dev/null)
	check "$where: after dup2 races between a writable and a read-only directory, a create in the read-only one is refused; the twin in the writable one is allowed" \
		"$got" "create=Permission denied twin=ok"
	check "$where: nothing was created in the read-only tree" "$(find "$T/race-ro" -name probe | wc -l)" 0
done

# A fork child's table is what it was at the fork, whatever another thread
# was doing then (a record being filled or taken back, a dup2 between the
# kernel's call and its bookkeeping): no record may come along
rm -rf "$T/race-ro" && mkdir -p "$T/race-ro" "$ROOT/race-rw"
got=$(CT_READ="$HELPERS:$T/race-ro" contained "$R" forkrace "$ROOT/race-rw" "$T/race-ro" 2000 2>/dev/null)
check "2000 fork children taken while threads race dup2 against fills: none may create in the read-only directory at its number; those with the writable one may" \
	"$got" "forks=2000 stale-creates=0 twins=ok"
check "... and nothing was created there" "$(ls "$T/race-ro" | wc -l)" 0

# setns into a mount namespace moves the cwd to /: the cwd's record goes
# (needs CAP_SYS_ADMIN; this very namespace, so nothing else changes)
rel=${OUT#/}/secret.txt
got=$(cd "$ROOT" && contained "$R" setns "$ROOT/sub" "$rel" 2>"$T/err")
case $got in
"setns=Operation not permitted"*) echo "# setns needs CAP_SYS_ADMIN: not checked" ;;
*) check "setns(CLONE_NEWNS) moved the cwd to /: a relative open of an outside file is refused" \
	"$got" "setns=ok open=Permission denied" ;;
esac
got=$(cd "$ROOT" && contained "$R" setns "$ROOT/sub" "${ROOT#/}/sub/a.txt" 2>"$T/err")
case $got in
"setns=Operation not permitted"*) ;;
*) check "setns: the same relative open of a file in the root, from /, is allowed (twin)" \
	"$got" "setns=ok open=ok" ;;
esac
finish
