#!/bin/sh
# The kernel layers: Landlock and the seccomp filter hold what the
# interposer cannot see (raw system calls, static binaries, io_uring, file
# handles, the mount API), each layer alone and together, inherited once per
# process tree, alongside a program's own seccomp filter. Each denial with
# its allowed twin.
. "${SRCDIR:?}/tests/integration/lib.sh"
make_fixture
cd "$ROOT" || exit 99
R=$HELPERS/rawio
S=$ROOT/rawio-static
cp "$HELPERS/rawio-static" "$S"
cp /bin/true "$OUT/true-out"

if [ "$(CT_LAYERS=landlock contained /bin/true 2>&1)" != "" ]; then
	echo "# this kernel has no Landlock: kernel layer checks skipped"
	CT_LAYERS=seccomp contained /bin/true || exit 1
	exit 77
fi

# a contained shell runs the static binary: the preload is not in it, the
# layers the shell's library applied are
sx() { contained sh -c '"$@"' sh "$@" 2>/dev/null; }
check "static: raw read of an outside file is EACCES (Landlock)" "$(sx "$S" read "$OUT/secret.txt")" EACCES
check "static: raw read through an outward link is EACCES" "$(sx "$S" read "$ROOT/link-out")" EACCES
check "static: raw read inside works (twin)" "$(sx "$S" read "$ROOT/file.txt")" inside
check "static: bare, the outside file is read" "$("$S" read "$OUT/secret.txt")" OUTSIDE
check "static: raw write outside is EACCES" "$(sx "$S" write "$OUT/new")" EACCES
check "static: raw write inside works" "$(sx "$S" write "$ROOT/new")" ok
check "static: listing an outside directory is EACCES" "$(sx "$S" list "$OUT")" EACCES
check "static: listing the root works" "$(sx "$S" list "$ROOT/sub")" 2
check "static: exec of an outside program is EACCES" "$(sx "$S" exec "$OUT/true-out")" EACCES
check "static: exec of /bin/true works" "$(sx "$S" exec /bin/true; echo "rc=$?")" "rc=0"
check "static: the outside file is untouched" "$(cat "$OUT/secret.txt"; ls "$OUT/new" 2>&1 | grep -c 'No such')" "OUTSIDE
1"
check "static: a contained exec of it runs it (the layers hold it)" \
	"$(contained "$HELPERS/probe" exec "$S" read "$ROOT/file.txt" 2>/dev/null)" inside

# a dynamic program whose raw syscalls skip the wrappers
check "dynamic raw syscall read outside is EACCES (Landlock under the preload)" \
	"$(contained "$R" read "$OUT/secret.txt" 2>/dev/null)" EACCES
check "dynamic raw syscall read inside works" "$(contained "$R" read "$ROOT/file.txt" 2>/dev/null)" inside

# seccomp: io_uring, handles, the mount API
check "io_uring is ENOSYS (programs fall back to plain calls)" \
	"$(contained "$R" uring "$OUT/secret.txt" 2>/dev/null)" ENOSYS
check "io_uring works bare (twin)" "$("$R" uring "$OUT/secret.txt")" ok
check "with Landlock alone, io_uring's IORING_OP_OPENAT outside is EACCES" \
	"$(CT_LAYERS=landlock contained "$R" uring "$OUT/secret.txt" 2>/dev/null)" EACCES
check "with Landlock alone, io_uring's openat inside works" \
	"$(CT_LAYERS=landlock contained "$R" uring "$ROOT/file.txt" 2>/dev/null)" ok
check "name_to_handle_at and open_by_handle_at are refused" \
	"$(contained "$R" handle "$ROOT/file.txt" 2>/dev/null)" "name_to_handle_at EOPNOTSUPP open_by_handle_at EPERM"
check "file handles work bare (twin)" "$("$R" handle "$OUT/secret.txt")" "open_by_handle_at ok"
mkdir -p "$ROOT/mnt"
check "mount is EPERM" "$(contained "$R" mount "$ROOT/mnt" 2>/dev/null)" EPERM

# one filter and one ruleset per process tree, however deep
cat > "$ROOT/nest.sh" <<'SH'
n=$1; shift
if [ "$n" -gt 0 ]; then sh "$0" $((n - 1)) "$@"; else "$@"; fi
SH
check "20 nested shells: one seccomp filter (not stacked)" \
	"$(contained sh "$ROOT/nest.sh" 20 "$R" filters 2>/dev/null)" 1
check "20 nested shells still run inside Landlock's 16-layer limit, contained" \
	"$(contained sh "$ROOT/nest.sh" 20 "$S" read "$OUT/secret.txt" 2>/dev/null)" EACCES
check "and the innermost still reads inside" \
	"$(contained sh "$ROOT/nest.sh" 20 "$S" read "$ROOT/file.txt" 2>/dev/null)" inside

# a program's own seccomp filter keeps working on top of ours
check "a program's own filter works, and it stays contained" \
	"$(contained "$R" ownfilter "$ROOT/file.txt" 2>/dev/null)" "getppid EPERM inside"
check "its own filter under the layers cannot read outside" \
	"$(contained "$R" ownfilter "$OUT/secret.txt" 2>/dev/null)" "getppid EPERM EACCES"

# each layer can be turned off; the others still hold what they claim
check "CONTAIN_LAYERS=seccomp: a static exec is refused by the interposer" \
	"$(CT_LAYERS=seccomp contained "$HELPERS/probe" exec "$S" read "$OUT/secret.txt" 2>/dev/null)" EACCES
check "CONTAIN_LAYERS=seccomp: io_uring is still ENOSYS" \
	"$(CT_LAYERS=seccomp contained "$R" uring "$ROOT/file.txt" 2>/dev/null)" ENOSYS
check "CONTAIN_LAYERS=none: io_uring works (no filter)" \
	"$(CT_LAYERS=none contained "$R" uring "$ROOT/file.txt" 2>/dev/null)" ok
check "CONTAIN_LAYERS=none: the interposer still denies libc opens" \
	"$(CT_LAYERS=none contained "$HELPERS/probe" stat "$OUT/secret.txt" 2>/dev/null)" EACCES
check "CONTAIN_LAYERS=landlock: raw reads outside are EACCES" \
	"$(CT_LAYERS=landlock contained "$R" read "$OUT/secret.txt" 2>/dev/null)" EACCES
check "CONTAIN_LAYERS=none: raw reads outside get through (what the layers add)" \
	"$(CT_LAYERS=none contained "$R" read "$OUT/secret.txt" 2>/dev/null)" OUTSIDE
out=$(CT_LAYERS=bogus contained /bin/true 2>&1); rc=$?
check "an unknown layer is refused: exit 126" "$rc" 126
check_match "with one clear line" "$out" 'libcontain: CONTAIN_LAYERS="bogus": unknown layer*'

v() { contained /usr/bin/python3 -c 'import ctypes; f=ctypes.CDLL(None).libcontain_version; f.restype=ctypes.c_char_p; print(f().decode())' 2>/dev/null; }
check_match "libcontain_version reports the layers in force" "$(v)" "* (active: interposer, landlock, seccomp)"
check_match "and what CONTAIN_LAYERS left on" "$(CT_LAYERS=seccomp v)" "* (active: interposer, seccomp)"

# denied paths inside a read-only tree are carved out of Landlock's rules
check "static: a CONTAIN_DENY file in /etc is EACCES to raw reads" \
	"$(sx "$S" read /etc/shadow)" EACCES
check "static: /etc/hostname next to it is readable" "$(sx "$S" read /etc/hostname | grep -c .)" 1
# all of / readable, named through a link: the secrets are still carved out
ln -s / "$OUT/to-slash"
check "CONTAIN_READ through a link to /: a raw read of /etc/shadow is EACCES" \
	"$(CT_READ="$OUT/to-slash" contained "$R" read /etc/shadow 2>&1)" EACCES
check "and a raw read of /etc/hostname works (twin)" \
	"$(CT_READ="$OUT/to-slash" contained "$R" read /etc/hostname 2>&1 | grep -c .)" 1
# the carve holds the descriptors of /etc's entries in batches: a process
# started with 6 descriptors to spare still builds the whole ruleset ($#:
# the file, the open descriptors and the one listing them)
lowfd() { (set -- "$1" /proc/self/fd/*; ulimit -n $(($# + 4)) && contained "$R" read "$1" 2>&1); }
check "6 spare descriptors: the ruleset is built and a raw read of /etc/shadow is EACCES" \
	"$(lowfd /etc/shadow)" EACCES
check "6 spare descriptors: a raw read of /etc/hostname next to it works" "$(lowfd /etc/hostname | grep -c .)" 1

# a program that loads the library after starting a thread: Landlock
# would not hold that thread, so the program does not run on
late() { env CONTAIN_ROOT="$ROOT" CONTAIN_TMPDIR="$T/tmp" CONTAIN_LAYERS=auto "$HELPERS/probe" "$1" "$LIBCONTAIN_SO" 2>&1; }
out=$(late dlopen-threaded)
rc=$?
check "the library loaded while a second thread runs: exit 126" "$rc" 126
check_match "with the reason" "$out" "*Landlock: the process already runs threads*"
check "the library loaded with one thread: it runs (twin)" "$(late dlopen)" loaded
finish
