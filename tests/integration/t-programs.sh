#!/bin/sh
# Real programs, contained in a root full of outward symlinks: they work on
# the inside, never see the outside content, children stay contained whatever
# environment the parent gives them, and static binaries are refused.
. "${SRCDIR:?}/tests/integration/lib.sh"
make_fixture
PY=/usr/bin/python3

# outward links (absolute and relative, to a file and to the dir) to a file
# saying "secret"; an inside file saying it too
echo "outside secret content" >"$OUT/notes.txt"
mkdir -p "$ROOT/docs"
echo "inside secret here" >"$ROOT/docs/inside.txt"
ln -s ../outside/notes.txt "$ROOT/notes-rel"
ln -s "$OUT/notes.txt" "$ROOT/notes-abs"
ln -s "$OUT" "$ROOT/dirlink-abs-out"
ln -s ../../outside "$ROOT/docs/up-out"

# --- rg --follow ---------------------------------------------------------------
if command -v rg >/dev/null 2>&1; then
	out=$(cd "$ROOT" && contained rg --follow secret "$ROOT" 2>"$T/err")
	check "rg --follow finds the inside match" "$(printf '%s\n' "$out" | grep -c -F "$ROOT/docs/inside.txt:inside secret here")" 1
	check "rg --follow never prints the outside content" "$(printf '%s\n%s\n' "$out" "$(cat "$T/err")" | grep -c 'outside secret')" 0
	check "rg --follow reports exactly one match (nothing via the outward links)" \
		"$(printf '%s\n' "$out" | grep -c .)" 1
	check_match "rg --follow: the outward links were denied" "$(cat "$T/err")" \
		"*libcontain: denied * \"$ROOT/notes-abs\": outside the allowed trees*"
	# twin: bare, the same rg does follow the links out (the test would see a leak)
	check_match "bare rg --follow does reach the outside content (twin)" \
		"$(rg --follow --no-messages secret "$ROOT")" "*outside secret content*"
else
	echo "# rg missing: skipping the rg checks"
fi

# --- find -L ------------------------------------------------------------------
(cd "$ROOT" && contained find -L "$ROOT" -type f) >"$T/find" 2>"$T/err"
st=$?
check "find -L exits non-zero (it met the denials)" "$([ $st -ne 0 ] && echo nonzero)" nonzero
check_match "find -L: the denial is noted on stderr" "$(cat "$T/err")" \
	"*libcontain: denied * \"$ROOT/dirlink-out\": outside the allowed trees*"
check_match "find -L: find itself reports the outward link" "$(cat "$T/err")" \
	"*find: *$ROOT/notes-rel*Permission denied*"
leak=
while IFS= read -r f; do
	real=$(realpath -e "$f" 2>/dev/null) || real=$f
	case $real in
	"$ROOT"/* | /usr/*) ;;
	*) leak="$leak $f->$real" ;;
	esac
done <"$T/find"
check "find -L lists no path whose content is outside" "$leak" ""
check "find -L lists nothing under the outward dir links" \
	"$(grep -c -e '/dirlink-out/' -e '/dirlink-abs-out/' -e '/up-out/' "$T/find")" 0
check "find -L twin: lists the inside files" \
	"$(grep -c -x -e "$ROOT/file.txt" -e "$ROOT/docs/inside.txt" -e "$ROOT/sub/a.txt" "$T/find")" 3
check "find -L twin: lists the files reached through inward links" \
	"$(grep -c -x -e "$ROOT/link-in" -e "$ROOT/dirlink/a.txt" -e "$ROOT/link-abs-in" "$T/find")" 3
check_match "bare find -L does list the outside file (twin)" \
	"$(find -L "$ROOT" -type f 2>/dev/null)" "*$ROOT/dirlink-out/notes.txt*"

# --- git --------------------------------------------------------------------------
mkdir -p "$ROOT/home" "$ROOT/repo/src"
echo "hello" >"$ROOT/repo/README"
echo "int x;" >"$ROOT/repo/src/x.c"
ln -s ../../outside/notes.txt "$ROOT/repo/out-link"	# git stores links, never follows
g() {
	(cd "$ROOT/repo" && HOME=$ROOT/home GIT_CONFIG_NOSYSTEM=1 GIT_AUTHOR_NAME=T \
		GIT_AUTHOR_EMAIL=t@example.org GIT_COMMITTER_NAME=T GIT_COMMITTER_EMAIL=t@example.org \
		contained git "$@")
}
g init -q >"$T/out" 2>&1
check "git init inside the root works" "$?|$(cat "$T/out")" "0|"
g add -A >"$T/out" 2>&1
check "git add inside the root works" "$?|$(cat "$T/out")" "0|"
g commit -q -m "first" >"$T/out" 2>&1
check "git commit inside the root works" "$?|$(cat "$T/out")" "0|"
check "git status --porcelain is clean after the commit" "$(g status --porcelain 2>&1)" ""
check "git ls-files lists the commit" "$(g ls-files 2>&1 | tr '\n' ' ')" "README out-link src/x.c "
check "git stored the outward link as a link" "$(g cat-file -p HEAD:out-link 2>&1)" "../../outside/notes.txt"
echo "more" >>"$ROOT/repo/README"
check "git twin: status sees a modification" "$(g status --porcelain 2>&1)" " M README"

# --- python ----------------------------------------------------------------------
if [ -x "$PY" ]; then
	check "python3 reads an inside file" \
		"$(contained "$PY" -c "print(open('$ROOT/file.txt').read().strip())" 2>/dev/null)" inside
	for l in link-out notes-rel notes-abs dirlink-out/notes.txt dirlink-abs-out/notes.txt; do
		out=$(contained "$PY" -c "
try:
    print(open('$ROOT/$l').read())
except PermissionError as e:
    print('PermissionError', e.errno)
" 2>/dev/null)
		check "python3 reading through the outward link $l raises PermissionError" "$out" "PermissionError 13"
	done
	check "python3 twin: reading through an inward link works" \
		"$(contained "$PY" -c "print(open('$ROOT/link-in').read().strip())" 2>/dev/null)" inside
else
	echo "# $PY missing: skipping the python checks"
fi

# --- a shell script exec'd by the contained probe -------------------------------
cat >"$ROOT/script.sh" <<EOF
#!/bin/sh
cat "$ROOT/file.txt"; echo "in=\$?"
cat "$OUT/secret.txt"; echo "out=\$?"
cat "$ROOT/dirlink-out/secret.txt"; echo "link=\$?"
EOF
chmod +x "$ROOT/script.sh"
out=$(contained "$HELPERS/probe" exec "$ROOT/script.sh" 2>"$T/err")
check "script via probe exec: inside cat works, outside cats fail" "$out" "inside
in=0
out=1
link=1"
check_match "script via probe exec: cat's outside read is denied by the library" "$(cat "$T/err")" \
	"*libcontain: denied open \"$OUT/secret.txt\": outside the allowed trees*"
check "script via probe exec: never prints the outside content" "$(printf '%s' "$out" | grep -c OUTSIDE)" 0

# --- scrubbed environments get the containment back --------------------------------
cat >"$ROOT/catout.sh" <<EOF
#!/bin/sh
cat "$OUT/secret.txt"; echo "out=\$?"
cat "$ROOT/file.txt"; echo "in=\$?"
EOF
chmod +x "$ROOT/catout.sh"
for mode in execle execve-null spawn-empty unsetenv system popen; do
	out=$(contained "$HELPERS/spawn" $mode /usr/bin/env 2>"$T/err")
	check "spawn $mode: child has LD_PRELOAD=<the lib>" \
		"$(printf '%s\n' "$out" | grep -x -c -F "LD_PRELOAD=$LIBCONTAIN_SO")" 1
	check "spawn $mode: child has CONTAIN_ROOT=<root>" \
		"$(printf '%s\n' "$out" | grep -x -c -F "CONTAIN_ROOT=$ROOT")" 1
	check "spawn $mode: no second LD_PRELOAD/CONTAIN_ROOT entry" \
		"$(printf '%s\n' "$out" | grep -c -e '^LD_PRELOAD=' -e '^CONTAIN_ROOT=')" 2
	check "spawn $mode: the parent's CONTAIN_OPTOUT does not reach the child" \
		"$(printf '%s\n' "$out" | grep -c '^CONTAIN_OPTOUT=')" 0
	# and the child really is contained: outside denied, inside allowed
	# (system/popen run it as the command string, the others exec it)
	out=$(contained "$HELPERS/spawn" $mode "$ROOT/catout.sh" 2>"$T/err")
	check "spawn $mode: the child cannot read outside, can read inside" "$out" "out=1
inside
in=0"
done

# --- static binaries are refused by the interposer alone ----------------------------
# (CONTAIN_LAYERS=none; with the kernel layers they run contained: t-kernel.sh)
CT_LAYERS=none
cp "$HELPERS/static_hello" "$ROOT/static_hello"
out=$(contained "$HELPERS/probe" exec "$ROOT/static_hello" 2>"$T/err")
check "static binary via probe exec is EACCES" "$out" EACCES
check_match "static binary: stderr says it cannot be contained" "$(cat "$T/err")" \
	"*static binary cannot be contained*"
check "static binary: it did not run" "$(printf '%s\n%s' "$out" "$(cat "$T/err")" | grep -c 'static binary ran')" 0
out=$(contained "$HELPERS/probe" exec /bin/true 2>"$T/err")
check "static twin: /bin/true via probe exec runs" "$?|$out|$(cat "$T/err")" "0||"
cp /bin/echo "$ROOT/echo-copy"
check "static twin: a dynamic binary copied into the root runs" \
	"$(contained "$HELPERS/probe" exec "$ROOT/echo-copy" hi 2>&1)" "hi"
check "static twin: bare, the static binary does run" "$("$ROOT/static_hello")" "static binary ran"
finish
