#!/bin/sh
# A policy that cannot be loaded stops the program (126, one line naming the
# variable and the reason); it never runs uncontained.
. "${SRCDIR:?}/tests/integration/lib.sh"
make_fixture

run() { # run VAR-ASSIGNMENTS...: status and stderr of /bin/echo ran under them
	out=$(env -u CONTAIN_ROOT LD_PRELOAD="$LIBCONTAIN_SO" "$@" /bin/echo RAN 2>"$T/err")
	printf '%s|%s|%s' "$?" "$out" "$(cat "$T/err")"
}
check "unset root refuses" "$(run)" \
	'126||libcontain: CONTAIN_ROOT="": not set (set CONTAIN_OPTOUT=1 to run uncontained on purpose); refusing to run uncontained'
check "relative root refuses" "$(run CONTAIN_ROOT=root)" \
	'126||libcontain: CONTAIN_ROOT="root": not an absolute path; refusing to run uncontained'
check "missing root refuses" "$(run CONTAIN_ROOT=$T/nope)" \
	"126||libcontain: CONTAIN_ROOT=\"$T/nope\": no such file or directory; refusing to run uncontained"
check "file root refuses" "$(run CONTAIN_ROOT=$ROOT/file.txt)" \
	"126||libcontain: CONTAIN_ROOT=\"$ROOT/file.txt\": not a directory; refusing to run uncontained"
check "relative CONTAIN_READ entry refuses" "$(run CONTAIN_ROOT=$ROOT CONTAIN_READ=rel)" \
	'126||libcontain: CONTAIN_READ="rel": not an absolute path; refusing to run uncontained'
check "relative CONTAIN_LOG refuses" "$(run CONTAIN_ROOT=$ROOT CONTAIN_LOG=log.json)" \
	'126||libcontain: CONTAIN_LOG="log.json": not an absolute path (or "off"); refusing to run uncontained'
check "opt-out runs uncontained only when the root is unset" "$(run CONTAIN_OPTOUT=1)" '0|RAN|'
check "opt-out is ignored when a root is given" \
	"$(run CONTAIN_ROOT=$ROOT CONTAIN_OPTOUT=1 CONTAIN_TMPDIR=$T/tmp)" '0|RAN|'
out=$(cd "$ROOT" && env LD_PRELOAD="$LIBCONTAIN_SO" CONTAIN_ROOT="$ROOT" CONTAIN_OPTOUT=1 \
	CONTAIN_TMPDIR="$T/tmp" /bin/cat "$OUT/secret.txt" 2>/dev/null)
check "opt-out with a root still contains" "$out" ""
# an unreadable root (as a non-root user, when we can switch to one)
if [ "$(id -u)" = 0 ] && command -v setpriv >/dev/null; then
	mkdir "$T/locked" && chmod 700 "$T/locked" && chmod 755 "$T"
	out=$(setpriv --reuid=65534 --regid=65534 --clear-groups env LD_PRELOAD="$LIBCONTAIN_SO" \
		CONTAIN_ROOT="$T/locked" /bin/echo RAN 2>&1; echo "|$?")
	check "unreadable root refuses" "$out" \
		"libcontain: CONTAIN_ROOT=\"$T/locked\": not readable; refusing to run uncontained
|126"
fi
finish
