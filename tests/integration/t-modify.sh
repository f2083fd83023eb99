#!/bin/sh
# Create, remove, rename, link, chmod, chown, truncate, opendir and chdir
# through real programs (coreutils, python): each denial with its allowed
# twin, and the outside tree checked untouched afterwards.
. "${SRCDIR:?}/tests/integration/lib.sh"
make_fixture
cd "$ROOT" || exit 99
mkdir -p "$OUT/dir" && echo keep > "$OUT/dir/keep.txt"
c() { contained "$@" 2>/dev/null && echo ok || echo failed; }
ro() { CT_READ="$HELPERS:$T/ro" contained "$@" 2>/dev/null && echo ok || echo failed; }

check "mkdir inside" "$(c mkdir "$ROOT/newdir")" "ok"
check "mkdir outside" "$(c mkdir "$OUT/newdir")" "failed"
check "mkdir through an outward dir link" "$(c mkdir dirlink-out/newdir)" "failed"
check "mkdir in a read tree" "$(ro mkdir "$T/ro/newdir")" "failed"
test -d "$OUT/newdir" && not_ok "an outside dir was made" || ok "no outside dir was made"

echo x > "$ROOT/gone.txt"
check "rm inside" "$(c rm "$ROOT/gone.txt")" "ok"
check "rm outside" "$(c rm "$OUT/secret.txt")" "failed"
check "rm through an outward dir link" "$(c rm dirlink-out/secret.txt)" "failed"
check "rm -rf an outside tree" "$(c rm -rf "$OUT/dir")" "failed"
check "rm in a read tree" "$(ro rm "$T/ro/data.txt")" "failed"
check "the outside tree is intact" "$(cat "$OUT/secret.txt" "$OUT/dir/keep.txt")" "OUTSIDE
keep"
check "rmdir inside" "$(c rmdir "$ROOT/newdir")" "ok"
check "rmdir outside" "$(c rmdir "$OUT/dir")" "failed"

echo m > "$ROOT/move.txt"
check "mv inside to inside" "$(c mv "$ROOT/move.txt" "$ROOT/sub/moved.txt")" "ok"
check "mv inside to outside" "$(c mv "$ROOT/sub/moved.txt" "$OUT/moved.txt")" "failed"
check "mv outside to inside" "$(c mv "$OUT/secret.txt" "$ROOT/stolen.txt")" "failed"
check "python os.rename out" \
	"$(c /usr/bin/python3 -c "import os; os.rename('$ROOT/sub/moved.txt', '$OUT/m.txt')")" "failed"
test -e "$ROOT/sub/moved.txt" && ok "the moved file stayed inside" || not_ok "the file left"

check "hard link inside to inside" "$(c ln "$ROOT/file.txt" "$ROOT/hard.txt")" "ok"
check "hard link of an outside file into the root" "$(c ln "$OUT/secret.txt" "$ROOT/hard-out.txt")" "failed"
check "hard link of a read-tree file into the root" "$(ro ln "$T/ro/data.txt" "$ROOT/hard-ro.txt")" "failed"
check "symlink in the root to an outside path (text only)" "$(c ln -s "$OUT/secret.txt" "$ROOT/new-link")" "ok"
check "reading through it is denied" "$(c cat "$ROOT/new-link")" "failed"
check "symlink made outside" "$(c ln -s x "$OUT/new-link")" "failed"

check "chmod inside" "$(c chmod 600 "$ROOT/file.txt")" "ok"
check "chmod outside" "$(c chmod 600 "$OUT/secret.txt")" "failed"
check "chmod through an outward link" "$(c chmod 600 link-out)" "failed"
check "chmod in a read tree" "$(ro chmod 600 "$T/ro/data.txt")" "failed"
check "outside mode unchanged" "$(stat -c %a "$OUT/secret.txt")" "644"
check "chown inside" "$(c chown "$(id -u)" "$ROOT/file.txt")" "ok"
check "chown outside" "$(c chown "$(id -u)" "$OUT/secret.txt")" "failed"
check "python os.truncate inside" "$(c /usr/bin/python3 -c "import os; os.truncate('$ROOT/sub/a.txt', 0)")" "ok"
check "python os.truncate outside" \
	"$(c /usr/bin/python3 -c "import os; os.truncate('$OUT/secret.txt', 0)")" "failed"
check "outside content unchanged" "$(cat "$OUT/secret.txt")" "OUTSIDE"

# read-side and metadata calls
check "readlink of a link inside" "$(contained readlink "$ROOT/link-out" 2>/dev/null)" "../outside/secret.txt"
ln -s "$ROOT/file.txt" "$OUT/link-in-outside"
check "readlink of a link outside" "$(c readlink "$OUT/link-in-outside")" "failed"
check "readlink -f inside" "$(contained readlink -f "$ROOT/link-in" 2>/dev/null)" "$ROOT/file.txt"
check "python realpath inside" \
	"$(contained /usr/bin/python3 -c "import os; print(os.path.realpath('$ROOT/dirlink/a.txt'))" 2>/dev/null)" \
	"$ROOT/sub/a.txt"
check "realpath(1) through an outward link" "$(c realpath -e "$ROOT/link-abs-out")" "failed"
check "touch inside" "$(c touch -d @0 "$ROOT/file.txt")" "ok"
check "touch outside" "$(c touch -d @0 "$OUT/secret.txt")" "failed"
check "outside mtime unchanged" "$([ "$(stat -c %Y "$OUT/secret.txt")" -gt 0 ] && echo later)" "later"
check "mkfifo inside" "$(c mkfifo "$ROOT/fifo")" "ok"
check "mkfifo outside" "$(c mkfifo "$OUT/fifo")" "failed"
check_match "df inside" "$(c df "$ROOT")" "*ok"
check "df of an outside path" "$(c df "$OUT/secret.txt")" "failed"

# temporary files: glibc would create them through its internal open
check "mktemp in the root" "$(c mktemp "$ROOT/tmp.XXXXXX")" "$(ls -d "$ROOT"/tmp.* 2>/dev/null)
ok"
check "mktemp outside" "$(c mktemp "$OUT/tmp.XXXXXX")" "failed"
check "mktemp -d outside" "$(c mktemp -d "$OUT/d.XXXXXX")" "failed"
check "no temp file was made outside" "$(ls "$OUT" | grep -c -e '^tmp\.' -e '^d\.')" "0"
check "python mkstemp in /tmp lands in the private TMPDIR" \
	"$(contained /usr/bin/python3 -c "import tempfile; f = tempfile.mkstemp(); print(f[1].startswith('$T/tmp/'))" 2>/dev/null)" "True"
check "python mkstemp outside" \
	"$(c /usr/bin/python3 -c "import tempfile; tempfile.mkstemp(dir='$OUT')")" "failed"
mk() { contained /usr/bin/python3 -c "import ctypes; l = ctypes.CDLL(None); b = ctypes.create_string_buffer(b'$1'); print('ok' if l.$2(b) not in (-1, 0) else 'failed')" 2>/dev/null; }
check "libc mkstemp in the root" "$(mk "$ROOT/c.XXXXXX" mkstemp)" "ok"
check "libc mkstemp outside" "$(mk "$OUT/c.XXXXXX" mkstemp)" "failed"
check "libc mkdtemp in the root" "$(mk "$ROOT/e.XXXXXX" mkdtemp)" "ok"
check "libc mkdtemp outside" "$(mk "$OUT/e.XXXXXX" mkdtemp)" "failed"
check "nothing made outside by libc's mkstemp/mkdtemp" "$(ls "$OUT" | grep -c -e '^c\.' -e '^e\.')" "0"
check "tmpfile() works (in the private TMPDIR)" \
	"$(contained /usr/bin/python3 -c "import ctypes; l = ctypes.CDLL(None); l.tmpfile.restype = ctypes.c_void_p; print(bool(l.tmpfile()))" 2>/dev/null)" "True"

# glibc's glob and scandir read directories with its internal opendir
check "glob inside" "$(probe glob "$ROOT/sub/a*.txt")" "$ROOT/sub/a.txt"
check "glob outside finds nothing" "$(probe glob "$OUT/s*")" "nomatch"
check "glob through an outward dir link finds nothing" "$(probe glob "$ROOT/dirlink-out/s*")" "nomatch"
check "the same glob bare does find it" "$("$HELPERS/probe" glob "$OUT/s*")" "$OUT/secret.txt"
check "scandir inside" "$(probe scandir "$ROOT/sub/deep")" ""
check "scandir outside" "$(probe scandir "$OUT")" "EACCES"

# extended attributes (user.* on the same file system as the fixture)
if setfattr -n user.t -v 1 "$ROOT/file.txt" 2>/dev/null; then
	setfattr -n user.t -v 1 "$OUT/secret.txt"
	check_match "getfattr inside" "$(c getfattr -n user.t "$ROOT/file.txt")" "*user.t=*ok"
	check "getfattr outside" "$(c getfattr -n user.t "$OUT/secret.txt")" "failed"
	check "setfattr inside" "$(c setfattr -n user.u -v 2 "$ROOT/file.txt")" "ok"
	check "setfattr outside" "$(c setfattr -n user.u -v 2 "$OUT/secret.txt")" "failed"
	check "setfattr in a read tree" "$(ro setfattr -n user.u -v 2 "$T/ro/data.txt")" "failed"
	check "removexattr outside" "$(c setfattr -x user.t "$OUT/secret.txt")" "failed"
	check "the outside attribute is intact" "$(getfattr --only-values -n user.t "$OUT/secret.txt" 2>/dev/null)" "1"
fi
check "python chroot is refused" \
	"$(c /usr/bin/python3 -c "import os; os.chroot('$ROOT')")" "failed"
check "python fchdir into the root" \
	"$(contained /usr/bin/python3 -c "import os; fd = os.open('$ROOT/sub', os.O_RDONLY); os.fchdir(fd); print(open('a.txt').read() == '')" 2>/dev/null)" "True"

# nftw: glibc would walk with its internal opendir and stat
out=$(probe nftw "$ROOT")
case $out in *OUTSIDE* | *"$OUT"* | *"dirlink-out/secret"*) not_ok "nftw listed outside entries: $out" ;;
*) ok "nftw lists nothing outside" ;; esac
check_match "nftw lists the inside" "$out" "*f $ROOT/sub/a.txt*"
check_match "nftw reports an outward link as unstat-able" "$out" "*? $ROOT/link-out*"
out=$(probe nftw-phys "$ROOT")
check_match "nftw FTW_PHYS reports the link itself" "$out" "*l $ROOT/dirlink-out*"
check "nftw of an outside tree" "$(probe nftw "$OUT")" "EACCES"
check "nftw through the outward dir link" "$(probe nftw "$ROOT/dirlink-out")" "EACCES"
out=$("$HELPERS/probe" nftw "$ROOT/dirlink-out")
check_match "the same nftw bare does list the outside" "$out" "*dirlink-out/secret.txt*"

out=$(contained ls "$ROOT/sub" 2>&1)
check_match "ls inside" "$out" "*deep*"
out=$(contained ls "$OUT" 2>&1)
check_match "ls outside is denied" "$out" "*libcontain: denied*"
case $out in *secret.txt*) not_ok "ls outside listed a name" ;; *) ok "ls outside listed no name" ;; esac
out=$(contained /bin/sh -c "cd '$OUT' && ls" 2>&1)
case $out in *secret.txt*) not_ok "cd out and ls: listed an outside name" ;; *) ok "cd out and ls: no outside name" ;; esac
check_match "cd outside is denied" "$out" "*denied chdir*"
check "cd inside works" "$(contained /bin/sh -c "cd '$ROOT/sub/deep' && ls -a" 2>/dev/null)" ".
.."
check "cd to a directory above the root, then a relative path in" \
	"$(contained /bin/sh -c "cd '$T' && cat root/file.txt" 2>/dev/null)" "inside"
out=$(contained /bin/sh -c "cd '$T' && ls" 2>&1)
case $out in *root-evil*) not_ok "ls of the directory above the root listed names" ;; *) ok "ls above the root lists nothing" ;; esac
check_match "ls above the root is denied" "$out" "*denied opendir*"
finish
