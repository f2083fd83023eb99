#!/bin/sh
# The attack matrix: one row per function the built library exports, one
# column per attack shape (absolute outside path, `..` climb, symlink out,
# chain out, absolute symlink out, /proc/self/root, the ROOT-evil sibling,
# a missing outside target). Every cell: EACCES (chroot: EPERM, refused)
# and a "libcontain: denied" line; the row's allowed twin succeeds.
. "${SRCDIR:?}/tests/integration/lib.sh"
# the interposer alone: each wrapper must deny by itself (t-kernel.sh tests
# the kernel layers, alone and together)
CT_LAYERS=none
make_fixture
cd "$ROOT" || exit 99
M=$HELPERS/matrix
PY=/usr/bin/python3
cp /bin/true "$ROOT/true-in"
cp /lib/x86_64-linux-gnu/libm.so.6 "$ROOT/libm-copy.so"
ln -s ../outside "$ROOT/dirlink-out2"
ln -s dchain2 "$ROOT/dchain1"
ln -s dirlink-out2 "$ROOT/dchain2"
ln -s "$OUT" "$ROOT/dirlink-abs-out"
echo scratch > "$ROOT/scratch"
printf '$set 1\n1 hello\n' > "$T/msgs.msg"
gencat "$ROOT/msgs.cat" "$T/msgs.msg" || exit 99	# a message catalog (libc-bin)
# sockets for the twins, served bare
$PY -c "
import socket, sys, os
st = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM); st.bind(sys.argv[1]); st.listen(64)
dg = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM); dg.bind(sys.argv[2])
open(sys.argv[3], 'w').close()
while True:
    c, _ = st.accept(); c.close()
" "$ROOT/st.sock" "$ROOT/dg.sock" "$T/ready" & srv=$!
trap 'kill $srv 2>/dev/null; rm -rf "$T"' EXIT
i=0; while [ $i -lt 50 ] && [ ! -e "$T/ready" ]; do sleep 0.1; i=$((i + 1)); done

run() { # run SYM PATH [DEST]: the harness's answer, stderr in $T/err
	MATRIX_DEST=${3:-} contained "$M" call "$1" "$2" 2>"$T/err"
}

twin_path() { # an allowed path for SYM
	case $1 in
	exec* | fexecve | posix_spawn* | system | popen) echo "$ROOT/true-in" ;;
	opendir | chdir | fchdir | scandir* | nftw* | ftw* | bindtextdomain) echo "$ROOT/sub" ;;
	catopen) echo "$ROOT/msgs.cat" ;;
	rmdir) mkdir -p "$ROOT/rm-$1" && echo "$ROOT/rm-$1" ;;
	unlink* | remove | rename* | link | linkat) echo x > "$ROOT/f-$1" && echo "$ROOT/f-$1" ;;
	*readlink*) echo "$ROOT/link-in" ;;
	*removexattr) setfattr -n user.m -v 1 "$ROOT/scratch" 2>/dev/null; echo "$ROOT/scratch" ;;
	connect | __connect) echo "$ROOT/st.sock" ;;
	sendto | sendmsg | sendmmsg) echo "$ROOT/dg.sock" ;;
	dlopen | dlmopen) echo "$ROOT/libm-copy.so" ;;
	glob) echo "$ROOT/file.t*" ;;
	chroot) echo "$ROOT" ;;
	mkstemp* | mkostemp* | mkdtemp | mktemp) echo "$ROOT/tmpl-$1-" ;;
	*) echo "$ROOT/scratch" ;;
	esac
}

syms=$(nm -D --defined-only "$LIBCONTAIN_SO" | awk '$2 ~ /^[TWiV]$/ {print $3}' | sed 's/@.*//' |
	grep -v '^libcontain_version$' | sort -u)
# calls that act on a final symlink itself (not following it): for them
# the link shapes name an object inside the root, which is allowed
nofollow=" lstat lstat64 __lxstat __lxstat64 readlink readlinkat __readlink_chk __readlinkat_chk "
nofollow="$nofollow lchown lgetxattr llistxattr lsetxattr lremovexattr lutimes name_to_handle_at "
nofollow="$nofollow glob glob64 remove unlink unlinkat rename renameat renameat2 link linkat rmdir lchmod "
shapes_links() { # (re)make the link shapes: some rows remove or rename them
	for l in link-out chain1 chain2 link-abs-out; do rm -f "$ROOT/$l"; done
	ln -s ../outside/secret.txt "$ROOT/link-out"
	ln -s chain2 "$ROOT/chain1"
	ln -s link-abs-out "$ROOT/chain2"
	ln -s "$OUT/secret.txt" "$ROOT/link-abs-out"
}
rows=0 cells=0 skipped=""
for s in $syms; do
	shapes_links
	kind=$("$M" kind "$s")
	if [ "$kind" = none ]; then
		skipped="$skipped $s"
		continue
	fi
	rows=$((rows + 1))
	want=EACCES
	[ "$s" = chroot ] && want=EPERM
	# the allowed twin
	if [ "$kind" = new ]; then tw="$ROOT/new-$s"; [ "$s" = bind ] && tw="$ROOT/b.sock"; else tw=$(twin_path "$s"); fi
	got=$(run "$s" "$tw" "$ROOT/dest-$s")
	if [ "$s" = chroot ]; then
		check "$s: refused even inside (twin)" "$got" "EPERM"
	else
		check "$s: allowed twin" "$got" "ok"
	fi
	if [ "$kind" = new ]; then
		set -- "$OUT/new" "$ROOT/../outside/new" "$ROOT/dirlink-out2/new" "$ROOT/dchain1/new" \
			"$ROOT/dirlink-abs-out/new" "/proc/self/root$OUT/new" "$T/root-evil/new" "$OUT/nodir/new"
	elif [ "$s" = fchdir ]; then	# it takes an fd: directories, opened unchecked
		set -- "$OUT" "$ROOT/../outside" "$ROOT/dirlink-out2" "$ROOT/dchain1" \
			"$ROOT/dirlink-abs-out" "/proc/self/root$OUT" "$T/root-evil" "$OUT/nodir"
	else
		set -- "$OUT/secret.txt" "$ROOT/../outside/secret.txt" "$ROOT/link-out" "$ROOT/chain1" \
			"$ROOT/link-abs-out" "/proc/self/root$OUT/secret.txt" "$T/root-evil/secret.txt" "$OUT/missing.txt"
	fi
	bad=""
	for shape in abs dotdot link chain abslink procroot evil missing; do
		p=$1
		shift
		case $nofollow in *" $s "*) case $shape in link | chain | abslink) continue ;; esac ;; esac
		got=$(run "$s" "$p" "$ROOT/dest-$s-$shape")
		cells=$((cells + 1))
		# fchdir and fexecve take an fd: a missing file has none to give
		if [ "$shape" = missing ] && { [ "$s" = fchdir ] || [ "$s" = fexecve ]; } &&
			[ "$got" = "No such file or directory" ]; then
			continue
		fi
		if [ "$got" != "$want" ] || ! grep -q '^libcontain: denied ' "$T/err"; then
			bad="$bad $shape=$got"
		fi
	done
	check "$s: every attack shape denied" "$bad" ""
done
check "outside files untouched" "$(cat "$OUT/secret.txt"; ls "$OUT" | tr '\n' ' ')" "OUTSIDE
secret.txt "
printf '# %d rows x 8 shapes = %d cells; no path argument:%s\n' "$rows" "$cells" "$skipped"
finish
