#!/bin/sh
# quickstart.sh: install what is missing (Debian/Ubuntu, as root or with
# sudo), build libcontain, and run a real containment demonstration.
set -eu
cd "$(dirname "$0")/.."
top=$(pwd -P)

SUDO=
[ "$(id -u)" -eq 0 ] || SUDO=sudo
pkgs="build-essential autoconf automake libtool pkg-config libseccomp-dev check strace ripgrep git python3"
missing=
for p in $pkgs; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing="$missing $p"
done
if [ -n "$missing" ]; then
	echo "== installing:$missing"
	$SUDO apt-get update -qq
	DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq $missing >/dev/null
fi

echo "== building"
[ -x configure ] || ./autogen.sh >/dev/null 2>&1
[ -f Makefile ] || ./configure -q
make -s -j"$(nproc)" >/dev/null
LIB=$top/.libs/libcontain.so

demo=$(mktemp -d /tmp/libcontain-demo.XXXXXX)
trap 'rm -rf "$demo"' EXIT
mkdir -p "$demo/repo" "$demo/outside"
echo "hello from inside the root" > "$demo/repo/hello.txt"
echo "the secret outside" > "$demo/outside/secret.txt"
ln -s ../outside "$demo/repo/escape"
cd "$demo/repo"

echo "== the tree: root $demo/repo, with escape -> ../outside"
echo "== allowed read: cat hello.txt"
LD_PRELOAD=$LIB CONTAIN_ROOT=$demo/repo cat hello.txt
echo "== denied read: cat escape/secret.txt"
LD_PRELOAD=$LIB CONTAIN_ROOT=$demo/repo cat escape/secret.txt || echo "(cat exited $?)"
echo "== rg --follow --no-ignore-parent secret . (the outside match is not found)"
mkdir -p "$demo/repo/.home"
HOME=$demo/repo/.home LD_PRELOAD=$LIB CONTAIN_ROOT=$demo/repo rg --follow --no-ignore-parent secret . ||
	echo "(rg exited $?: no match inside the root)"
echo "== a child with a scrubbed environment is contained too: env -i sh -c 'cat escape/secret.txt'"
LD_PRELOAD=$LIB CONTAIN_ROOT=$demo/repo env -i /bin/sh -c 'cat escape/secret.txt' || echo "(sh exited $?)"
echo "== the contain launcher: a program making raw system calls is held by Landlock and seccomp"
cc -x c -o "$demo/repo/raw" - <<'C'
#include <fcntl.h>
#include <stdio.h>
#include <sys/syscall.h>
#include <unistd.h>
int main(int c, char **v) { long fd = syscall(SYS_openat, AT_FDCWD, v[1], O_RDONLY);
	printf(fd < 0 ? "raw openat of %s: refused by the kernel\n" : "raw openat of %s: READ\n", v[1]); return 0; }
C
"$top/contain" ./raw "$demo/outside/secret.txt"
"$top/contain" --version | sed -n 2,5p
echo "== done. Run the tests with: scripts/test.sh"
