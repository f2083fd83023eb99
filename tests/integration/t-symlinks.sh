#!/bin/sh
# Every symlink shape resolves as the kernel would; only the final object's
# place decides. Each outward shape is paired with an inward twin.
. "${SRCDIR:?}/tests/integration/lib.sh"
make_fixture
cd "$ROOT" || exit 99

check "relative link in" "$(probe read link-in)" "ok inside"
check "absolute link in" "$(probe read link-abs-in)" "ok inside"
check "relative link out" "$(probe read link-out)" "EACCES"
check "absolute link out" "$(probe read link-abs-out)" "EACCES"
check "dangling link out" "$(probe read link-missing-out)" "EACCES"
check "chain out" "$(probe read chain1)" "EACCES"
check "loop" "$(probe read loop1)" "EACCES"
check "dir link in" "$(probe read dirlink/a.txt)" "ok a"
check "dir link out" "$(probe read dirlink-out/secret.txt)" "EACCES"
check "dot-dot after a dir link is physical" "$(probe read dirlink/../file.txt)" "ok inside"
check "ROOT-evil sibling by link" "$(probe read evil-link)" "EACCES"
check "ROOT-evil sibling by path" "$(probe read "$T/root-evil/secret.txt")" "EACCES"
check "absolute link into a read tree" "$(CT_READ="$HELPERS:$T/ro" probe read ro-link)" "ok ro"
check "absolute link into /usr" "$(probe read usr-link | cut -c1-2)" "ok"
check "double slashes and dots" "$(probe read "$ROOT//./sub///a.txt")" "ok a"
check "%2e%2e is a name" "$(probe read "$ROOT/%2e%2e/outside/secret.txt")" "ENOENT"
check "trailing slash on a file" "$(probe read "file.txt/")" "ENOTDIR"
check "climb out with .." "$(probe read ../outside/secret.txt)" "EACCES"
check "climb out and back in" "$(probe read ../root/file.txt)" "ok inside"
# 41 links in a chain: more than the kernel's 40 is "could not be verified"
i=0
while [ $i -lt 41 ]; do ln -s "c$((i + 1))" "$ROOT/c$i"; i=$((i + 1)); done
echo end > "$ROOT/c41"
check "41 links fail closed" "$(probe read c0)" "EACCES"
check "40 links are fine" "$(probe read c1)" "ok end"
# cwd outside the root: relative paths resolve from there
check "cwd outside, relative into the root" \
	"$(cd "$OUT" && probe read ../root/file.txt)" "ok inside"
check "cwd outside, relative outside" "$(cd "$OUT" && probe read secret.txt)" "EACCES"
# the root given through a symlink
ln -s root "$T/root-alias"
check "root given as a symlink" \
	"$(cd "$ROOT" && CT_READ=$HELPERS env ROOT="$T/root-alias" sh -c '
	  env LD_PRELOAD="$LIBCONTAIN_SO" CONTAIN_ROOT="$ROOT" CONTAIN_READ="$HELPERS" \
	    CONTAIN_TMPDIR="'"$T"'/tmp" "$HELPERS/probe" read "$ROOT/file.txt"' 2>/dev/null)" "ok inside"
finish
