#!/bin/sh
# A signal handler that opens files while the interrupted code is itself in
# open() (fast path and the symlink walk) neither deadlocks nor fails.
. "${SRCDIR:?}/tests/integration/lib.sh"
make_fixture
command -v timeout >/dev/null 2>&1 || { echo "# timeout missing"; exit 77; }

# LINK -> absolute path inside the root: not the fast path, the walk
check "link-abs-in is an absolute link into the root" "$(readlink "$ROOT/link-abs-in")" "$ROOT/file.txt"

run() { # run FILE LINK N: "status|output" of sigopen, contained, 60 s limit
	out=$(contained timeout -k 5 60 "$HELPERS/sigopen" "$@" 2>"$T/err")
	printf '%s|%s' "$?" "$out"
}

r=$(run "$ROOT/file.txt" "$ROOT/link-abs-in" 20000)
echo "# absolute link: $r"
case $r in 124* | 137*) not_ok "sigopen through an absolute link: deadlock (timed out): $r" ;; esac
check_match "sigopen through an absolute link exits 0 (no deadlock, all opens ok)" "$r" \
	"0|opens=20000 handler_runs=* failed=0"
check_match "sigopen through an absolute link: the handler really ran" "$r" \
	"*handler_runs=[1-9]*"
check "sigopen through an absolute link: no denials" "$(cat "$T/err")" ""

# the walk through a chain: relative link to a dir link inside the root
ln -s dirlink/a.txt "$ROOT/chain-in"
r=$(run "$ROOT/sub/a.txt" "$ROOT/chain-in" 20000)
echo "# link chain: $r"
check_match "sigopen through a relative link chain exits 0" "$r" \
	"0|opens=20000 handler_runs=[1-9]* failed=0"

# relative paths from the root as cwd (anchor path)
r=$(cd "$ROOT" && run file.txt link-abs-in 20000)
echo "# relative paths: $r"
check_match "sigopen with relative paths exits 0" "$r" \
	"0|opens=20000 handler_runs=[1-9]* failed=0"

# denial twin: an outward link is refused (exit 1, open fails) - promptly,
# not by the timeout; the denial path is signal-safe too
r=$(run "$ROOT/file.txt" "$ROOT/link-abs-out" 20000)
check_match "sigopen through an outward link is denied promptly" "$r" "1|"
check_match "sigopen through an outward link: denial reported" "$(cat "$T/err")" \
	"*libcontain: denied open*outside the allowed trees*open: Permission denied*"

# baseline: the helper itself works without the library
r=$(timeout -k 5 60 "$HELPERS/sigopen" "$ROOT/file.txt" "$ROOT/link-abs-in" 20000 2>&1)
check_match "bare sigopen exits 0 (the helper is sound)" "0|$r" \
	"0|opens=20000 handler_runs=[1-9]* failed=0"
finish
