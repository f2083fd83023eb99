#!/bin/sh
# The open and stat families through real calls: each denial has its allowed
# twin, and inside the root the kernel's own errors come back unchanged.
. "${SRCDIR:?}/tests/integration/lib.sh"
make_fixture
cd "$ROOT" || exit 99

for op in read fopen freopen; do
	check "$op inside" "$(probe $op "$ROOT/file.txt")" "ok inside"
	check "$op outside absolute" "$(probe $op "$OUT/secret.txt")" "EACCES"
done
check "openat relative to a dir fd inside" "$(probe openat "$ROOT/sub" a.txt)" "ok a"
check "openat climbing out of a dir fd" "$(probe openat "$ROOT/sub" ../../outside/secret.txt)" "EACCES"
for op in stat lstat statx access opath; do
	check "$op inside" "$(probe $op "$ROOT/file.txt")" "ok"
	check "$op outside" "$(probe $op "$OUT/secret.txt")" "EACCES"
	check "$op outside, missing" "$(probe $op "$OUT/nothing")" "EACCES"
	check "$op inside, missing (kernel's ENOENT)" "$(probe $op "$ROOT/nothing")" "ENOENT"
done
check "lstat of an outward link sees the link" "$(probe lstat link-out)" "ok"
check "stat through an outward link" "$(probe stat link-out)" "EACCES"
check "fstatat NOFOLLOW of an outward link" "$(probe fstatat-nofollow link-abs-out)" "ok"

# writes: root writable, read trees and default trees not
check "create inside" "$(probe write "$ROOT/new.txt")" "ok"
check "created file has its content" "$(cat "$ROOT/new.txt")" "written"
check "create outside" "$(probe write "$OUT/new.txt")" "EACCES"
test -e "$OUT/new.txt" && not_ok "outside file was created" || ok "outside file was not created"
check "write into a read tree" "$(CT_READ="$HELPERS:$T/ro" probe write "$T/ro/data.txt")" "EACCES"
check "read from a read tree" "$(CT_READ="$HELPERS:$T/ro" probe read "$T/ro/data.txt")" "ok ro"
mkdir -p "$T/ro/sub" && echo f > "$T/ro/sub/f" && echo g > "$T/ro/sub/g"
check "a read tree listed after a file inside it is still a directory" \
	"$(CT_READ="$HELPERS:$T/ro/sub/f:$T/ro/sub" probe read "$T/ro/sub/g")" "ok g"
check "write to /etc (default read-only)" "$(probe write /etc/libcontain-test)" "EACCES"
check "read /etc/hostname (default tree)" "$(probe read /etc/hostname | cut -c1-2)" "ok"
check "O_CREAT|O_EXCL on an existing file" "$(probe creat-excl "$ROOT/file.txt")" "EEXIST"
check "O_CREAT|O_EXCL through an outward link is not followed" "$(probe creat-excl link-missing-out)" "EEXIST"
test -e "$OUT/missing.txt" && not_ok "link target outside was created" || ok "link target outside was not created"
check "O_TMPFILE in the root" "$(probe tmpfile "$ROOT/sub")" "ok"
check "O_TMPFILE outside" "$(probe tmpfile "$OUT")" "EACCES"
check "O_NOFOLLOW on a link inside" "$(probe read-nofollow link-in)" "ELOOP"
check "O_DIRECTORY on a dir inside" "$(probe opendir sub)" "ok"
check "O_DIRECTORY on a dir outside" "$(probe opendir "$OUT")" "EACCES"
check "/dev/null writable" "$(probe write /dev/null)" "ok"
check "/dev/sda is not" "$(probe read /dev/sda)" "EACCES"
check "kernel's ENOTDIR inside" "$(probe read file.txt/x)" "ENOTDIR"
check "a single-file tree with a trailing slash" "$(probe read /dev/null/)" "ENOTDIR"
check "freopen(NULL, w) of a file in a read tree" \
	"$(CT_READ="$HELPERS:$T/ro" probe freopen-null-w "$T/ro/data.txt")" "EACCES"
check "the read tree file is unchanged" "$(cat "$T/ro/data.txt")" "ro"
check "freopen(NULL, w) of a file in the root" "$(probe freopen-null-w "$ROOT/sub/a.txt")" "ok"
check "the root file was rewritten" "$(cat "$ROOT/sub/a.txt")" "rewritten"
check "kernel's EISDIR inside" "$(probe write sub)" "EISDIR"

# CONTAIN_DENY inside the root, and default secrets
echo TOKEN > "$ROOT/.env"
mkdir -p "$ROOT/secrets" && echo k > "$ROOT/secrets/key"
d() { CONTAIN_DENY=".env:secrets" probe "$@"; }
check "denied file" "$(d read "$ROOT/.env")" "EACCES"
check "denied dir's content" "$(d read "$ROOT/secrets/key")" "EACCES"
check "denied via .." "$(d read "$ROOT/sub/../secrets/key")" "EACCES"
check "neighbour of a denied file" "$(d read "$ROOT/file.txt")" "ok inside"
check "/etc/shadow is denied by default" "$(probe read /etc/shadow)" "EACCES"

# the exact stderr line
err=$(contained "$HELPERS/probe" read "$OUT/secret.txt" 2>&1 >/dev/null)
check "denial line format" "$err" "libcontain: denied open \"$OUT/secret.txt\": outside the allowed trees"
err=$(contained "$HELPERS/probe" stat loop1 2>&1 >/dev/null)
check "unverifiable line format" "$err" \
	"libcontain: denied stat \"loop1\": could not be verified (too many levels of symbolic links)"
finish
