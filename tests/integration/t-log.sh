#!/bin/sh
# CONTAIN_LOG: FILE gets one valid JSON line per denial (and nothing goes to
# stderr), off is silent but still denies, a log inside the root is denied to
# the contained program, and the default stderr line has the spec's format.
. "${SRCDIR:?}/tests/integration/lib.sh"
make_fixture
PY=/usr/bin/python3
[ -x "$PY" ] || { echo "# $PY missing"; exit 77; }
echo KEY=1 >"$ROOT/.env"

# jsonl FILE: validate every line with json.loads; print one summary per line
#   ok|op|reason|pid|exe|path|resolved|extra-keys   or   bad|N|error
jsonl() {
	"$PY" - "$1" <<'EOF'
import json, sys
need = ["op", "path", "resolved", "reason", "pid", "exe"]
with open(sys.argv[1], "rb") as f:
    data = f.read()
if data and not data.endswith(b"\n"):
    print("bad|eof|last line not newline-terminated")
for n, line in enumerate(data.splitlines(), 1):
    try:
        r = json.loads(line)
    except Exception as e:
        print("bad|%d|json: %s" % (n, e)); continue
    if not isinstance(r, dict):
        print("bad|%d|not an object" % n); continue
    miss = [k for k in need if k not in r]
    if miss:
        print("bad|%d|missing %s" % (n, ",".join(miss))); continue
    if not isinstance(r["pid"], int) or r["pid"] <= 0:
        print("bad|%d|pid not a positive integer" % n); continue
    extra = sorted(k for k in r if k not in need)
    esc = lambda s: "null" if s is None else s.encode("unicode_escape").decode()
    print("ok|%s|%s|%d|%s|%s|%s|%s" % (r["op"], r["reason"], r["pid"], esc(r["exe"]),
          esc(r["path"]), esc(r["resolved"]), ",".join(extra)))
EOF
}
lines() { if [ -f "$1" ]; then wc -l <"$1" | tr -d ' '; else echo 0; fi; }

L=$T/log/contain.jsonl
mkdir -p "$T/log"
logged() { # logged CMD...: contained, JSON log to $L, deny .env; stdout only
	CONTAIN_LOG=$L CONTAIN_DENY=.env contained "$@" 2>"$T/err"
}

# --- one line per denial, right reason, nothing on stderr ------------------
check "log: outside read is EACCES" "$(logged "$HELPERS/probe" read "$OUT/secret.txt")" EACCES
check "log mode: nothing on stderr for an outside read" "$(cat "$T/err")" ""
check "log: outside read appends one line" "$(lines "$L")" 1
check_match "log: outside read line is valid JSON with reason outside" "$(jsonl "$L" | sed -n 1p)" \
	"ok|open|outside|*|$HELPERS/probe|$OUT/secret.txt|*|"
res=$(jsonl "$L" | sed -n 1p | cut -d'|' -f7)
case $res in
"$ROOT" | "$ROOT"/*) not_ok "log: resolved of an outside read lies outside the root: [$res]" ;;
"$T"/outside*) ok "log: resolved of an outside read is the outside path [$res]" ;;
*) not_ok "log: resolved of an outside read: got [$res], want $OUT..." ;;
esac

check "log twin: inside read is allowed" "$(logged "$HELPERS/probe" read "$ROOT/file.txt")" "ok inside"
check "log twin: allowed read adds no line" "$(lines "$L")" 1

check "log: CONTAIN_DENY=.env read is EACCES" "$(logged "$HELPERS/probe" read "$ROOT/.env")" EACCES
check "log mode: nothing on stderr for a denied read" "$(cat "$T/err")" ""
check "log: denied read appends one line" "$(lines "$L")" 2
check_match "log: denied read line is valid JSON with reason denied" "$(jsonl "$L" | sed -n 2p)" \
	"ok|open|denied|*|$HELPERS/probe|$ROOT/.env|$ROOT/.env|"
check "log twin: a sibling of the denied file is readable" \
	"$(logged "$HELPERS/probe" read "$ROOT/sub/a.txt")" "ok a"

check "log: symlink loop is EACCES" "$(logged "$HELPERS/probe" read "$ROOT/loop1")" EACCES
check "log mode: nothing on stderr for a loop" "$(cat "$T/err")" ""
check "log: loop appends one line" "$(lines "$L")" 3
check_match "log: loop line is valid JSON with reason unverifiable" "$(jsonl "$L" | sed -n 3p)" \
	"ok|open|unverifiable|*|$HELPERS/probe|$ROOT/loop1|*"
check "log twin: a symlink chain that ends inside is readable" \
	"$(logged "$HELPERS/probe" read "$ROOT/link-in")" "ok inside"

check "log: stat through an outward link is EACCES" "$(logged "$HELPERS/probe" stat "$ROOT/link-out")" EACCES
check_match "log: stat denial names op stat" "$(jsonl "$L" | sed -n 4p)" \
	"ok|stat|outside|*|$HELPERS/probe|$ROOT/link-out|*"
check "log: lines so far" "$(lines "$L")" 4

# every line is valid JSON with all keys
check "log: every line parses (json.loads) with op,path,resolved,reason,pid,exe" \
	"$(jsonl "$L" | grep -c -v '^ok|')" 0

# the pid is the denying process's
sh -c 'echo $$ >"$1"; shift; exec "$@"' sh "$T/pid" env LD_PRELOAD="$LIBCONTAIN_SO" \
	CONTAIN_ROOT="$ROOT" CONTAIN_READ="$HELPERS" CONTAIN_TMPDIR="$T/tmp" CONTAIN_LOG="$L" \
	"$HELPERS/probe" read "$OUT/missing.txt" >/dev/null 2>&1
check "log: pid is the denying process's pid" "$(jsonl "$L" | sed -n 5p | cut -d'|' -f4)" "$(cat "$T/pid")"

# the log (unlike stderr) records every denial, even a repeated one; one process
before=$(lines "$L")
logged /bin/sh -c "{ :; } <'$OUT/secret.txt' || echo denied1; { :; } <'$OUT/secret.txt' || echo denied2
	read x <'$ROOT/file.txt' && echo \$x" >"$T/out"
check "log twin: the shell's inside read works, both outside redirects fail" "$(cat "$T/out")" "denied1
denied2
inside"
check "log: a repeated denial is logged each time" "$(($(lines "$L") - before))" 2
check "log: both repeated lines come from the same shell" \
	"$(jsonl "$L" | tail -n 2 | cut -d'|' -f4,5 | sort -u | wc -l | tr -d ' ')" 1
check_match "log: exe of the shell is its real binary" "$(jsonl "$L" | tail -n 1 | cut -d'|' -f5)" "/usr/bin/*sh"

# JSON escaping: quote, backslash and newline in the path round-trip
weird=$(printf '%s/we"ird\\x\nnl' "$OUT")
before=$(lines "$L")
check "log: odd path (quote, backslash, newline) is EACCES" "$(logged "$HELPERS/probe" read "$weird")" EACCES
check "log: odd path is one line" "$(($(lines "$L") - before))" 1
check "log: odd path round-trips through json.loads" "$(tail -n 1 "$L" | "$PY" -c '
import json, os, sys
r = json.loads(sys.stdin.buffer.read())
print("same" if os.fsencode(r["path"]) == os.fsencode(sys.argv[1]) else "differs: %r" % r["path"])' "$weird")" same
# a byte that is not UTF-8: the line must still be JSON (escaped somehow)
bad=$(printf '%s/bad\377byte' "$OUT")
before=$(lines "$L")
check "log: non-UTF-8 path is EACCES" "$(logged "$HELPERS/probe" read "$bad")" EACCES
check "log: non-UTF-8 path is one line" "$(($(lines "$L") - before))" 1
check_match "log: a non-UTF-8 path still gives a valid JSON line" "$(tail -n 1 "$L" >"$T/last"; jsonl "$T/last")" "ok|open|outside|*"

# --- CONTAIN_LOG=off: silent, still denies -----------------------------------
off() { CONTAIN_LOG=off CONTAIN_DENY=.env contained "$@" 2>"$T/err"; }
check "off: outside read still EACCES" "$(off "$HELPERS/probe" read "$OUT/secret.txt")" EACCES
check "off: nothing on stderr" "$(cat "$T/err")" ""
check "off: denied read still EACCES" "$(off "$HELPERS/probe" read "$ROOT/.env")" EACCES
check "off: nothing on stderr for CONTAIN_DENY" "$(cat "$T/err")" ""
check "off: loop still EACCES" "$(off "$HELPERS/probe" read "$ROOT/loop1")" EACCES
check "off: nothing on stderr for a loop" "$(cat "$T/err")" ""
check "off twin: inside read works" "$(off "$HELPERS/probe" read "$ROOT/file.txt")" "ok inside"
check "off: no file named off appears" \
	"$(for d in "$ROOT" "$T" "$ROOT/sub"; do [ -e "$d/off" ] && echo "$d/off"; done)" ""

# --- a log inside the root is denied to the contained program ---------------
IL=$ROOT/contain.log
inlog() { CONTAIN_LOG=$IL contained "$@" 2>"$T/err"; }
check "inside log: outside read is EACCES" "$(inlog "$HELPERS/probe" read "$OUT/secret.txt")" EACCES
check "inside log: outside read appends one line" "$(lines "$IL")" 1
first=$(sed -n 1p "$IL")
check "inside log: cannot be read" "$(inlog "$HELPERS/probe" read "$IL")" EACCES
check "inside log: cannot be read with fopen" "$(inlog "$HELPERS/probe" fopen "$IL")" EACCES
check "inside log: cannot be opened for write/truncate" "$(inlog "$HELPERS/probe" write "$IL")" EACCES
check "inside log: cannot be truncated with fopen w" "$(inlog "$HELPERS/probe" fopen "$IL" w)" EACCES
ln -s contain.log "$ROOT/log-link"
check "inside log: cannot be read through a symlink" "$(inlog "$HELPERS/probe" read "$ROOT/log-link")" EACCES
check "inside log: cannot be truncated through a symlink" "$(inlog "$HELPERS/probe" write "$ROOT/log-link")" EACCES
check "inside log: cannot be truncated via ../" "$(inlog "$HELPERS/probe" write "$ROOT/sub/../contain.log")" EACCES
check "inside log: cannot be read by a relative name" "$(cd "$ROOT" && inlog "$HELPERS/probe" read contain.log)" EACCES
inlog /bin/sh -c "echo overwritten >'$IL'" >/dev/null
check "inside log: a shell redirect cannot overwrite it" "$(grep -c overwritten "$IL")" 0
check "inside log: still starts with its first line" "$(sed -n 1p "$IL")" "$first"
check "inside log: every attempt was logged, nothing was lost" "$(lines "$IL")" 10
check "inside log: all lines valid JSON" "$(jsonl "$IL" | grep -c -v '^ok|')" 0
check "inside log: the attempts are logged as denied" \
	"$(jsonl "$IL" | sed -n '2,$p' | cut -d'|' -f3 | sort -u)" denied
echo data >"$ROOT/other.txt"
check "inside log twin: another file in the root is readable" "$(inlog "$HELPERS/probe" read "$ROOT/other.txt")" "ok data"
check "inside log twin: another file in the root is writable" "$(inlog "$HELPERS/probe" write "$ROOT/other.txt")" "ok"
check "inside log twin: allowed calls log nothing" "$(lines "$IL")" 10

# --- default mode: the exact stderr line --------------------------------------
before=$(lines "$L")
out=$(contained "$HELPERS/probe" read "$OUT/secret.txt" 2>"$T/err")
check "stderr: outside read is EACCES" "$out" EACCES
check "stderr: exact denial line for probe read (open)" "$(cat "$T/err")" \
	"libcontain: denied open \"$OUT/secret.txt\": outside the allowed trees"
out=$(CONTAIN_DENY=.env contained "$HELPERS/probe" read "$ROOT/.env" 2>"$T/err")
check "stderr: exact denial line for CONTAIN_DENY" "$out|$(cat "$T/err")" \
	"EACCES|libcontain: denied open \"$ROOT/.env\": denied by policy (CONTAIN_DENY or a default secret)"
out=$(contained "$HELPERS/probe" read "$ROOT/loop1" 2>"$T/err")
check_match "stderr: denial line for a loop says could not be verified" "$out|$(cat "$T/err")" \
	"EACCES|libcontain: denied open \"$ROOT/loop1\": could not be verified (*)"
out=$(contained "$HELPERS/probe" read "$ROOT/file.txt" 2>"$T/err")
check "stderr twin: an allowed read prints nothing on stderr" "$out|$(cat "$T/err")" "ok inside|"
check "stderr mode appends nothing to an earlier log" "$(lines "$L")" "$before"
finish
