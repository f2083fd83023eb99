#!/bin/sh
# /proc magic links are ordinary links to their text: they cannot step out.
. "${SRCDIR:?}/tests/integration/lib.sh"
make_fixture
cd "$ROOT" || exit 99

check "/proc/self/root to an outside file" "$(probe read "/proc/self/root$OUT/secret.txt")" "EACCES"
check "/proc/self/root to an inside file" "$(probe read "/proc/self/root$ROOT/file.txt")" "ok inside"
check "/proc/self/cwd inside" "$(probe read /proc/self/cwd/file.txt)" "ok inside"
check "/proc/self/cwd climbing out" "$(probe read /proc/self/cwd/../outside/secret.txt)" "EACCES"
check "/proc/thread-self/root out" "$(probe read "/proc/thread-self/root$OUT/secret.txt")" "EACCES"
check "/proc/1/root (another process)" "$(probe read "/proc/1/root$ROOT/file.txt")" "EACCES"
check "/proc/1/environ" "$(probe read /proc/1/environ)" "EACCES"
check "/proc/self/status" "$(probe read /proc/self/status | cut -c1-8)" "ok Name:"
check "/proc/cpuinfo" "$(probe stat /proc/cpuinfo)" "ok"
# /proc/self/fd/N on an fd opened outside before the program ran
out=$(contained "$HELPERS/probe" read /proc/self/fd/5 5<"$OUT/secret.txt" 2>/dev/null)
check "/proc/self/fd/N on an outside file" "$out" "EACCES"
out=$(contained "$HELPERS/probe" read /dev/fd/5 5<"$ROOT/file.txt" 2>/dev/null)
check "/dev/fd/N on an inside file" "$out" "ok inside"
out=$(echo piped | contained "$HELPERS/probe" read /dev/stdin 2>/dev/null)
check "/dev/stdin on a pipe" "$out" "ok piped"
out=$(contained "$HELPERS/probe" read /dev/fd/5 5<"$OUT/secret.txt" 2>/dev/null)
check "/dev/fd/N on an outside file" "$out" "EACCES"
# a deny entry under /proc/self follows each process, forked ones included
out=$(CONTAIN_DENY=/proc/self/environ contained /bin/sh -c \
	'cat /proc/self/environ >/dev/null 2>&1 && echo read || echo denied; cat /proc/self/status >/dev/null && echo status' 2>/dev/null)
check "CONTAIN_DENY=/proc/self/environ holds in a forked child" "$out" "denied
status"
out=$(contained /bin/sh -c 'echo to-pipe > /dev/stdout' 2>&1 | cat)
check "/dev/stdout on a pipe is writable" "$out" "to-pipe"
finish
