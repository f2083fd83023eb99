#!/bin/sh
# workloads.sh NAME TREE: run one named workload over TREE (made by mktree.sh).
# Wrap it in whatever containment is measured, e.g.
#   LD_PRELOAD=$PWD/.libs/libcontain.so CONTAIN_ROOT=/tmp/b sh workloads.sh find /tmp/b/tree
# Names:
#   find      find TREE -type f -name '*.c' | wc -l    directory walk
#   findL     the same with find -L                    walk, following links
#   rg        rg -c NEEDLE_ TREE | wc -l               parallel walk, open+read
#   rgfollow  the same with rg --follow
#   tar       tar -cf - -C TREE . | wc -c              walk, open+read all
#   cpr       cp -r TREE/pkg00 TREE.copy, rm -rf it    create, write, unlink
#             (TREE.copy is next to TREE: TREE's parent must be writable)
#   du        du -s TREE                               walk, fstatat
#   gitstatus git -C TREE status --porcelain | wc -l   stat of every tracked file
#   spawn     500 x /bin/true from sh                  fork+exec, start-up
#   make      make -j2 clean all in TREE.mk            compiler processes
#   configure ./configure in TREE.ac                   many short processes
# Each prints one short line, the same on every run over the same tree (a
# count or "ok"), and exits non-zero if any step fails (rg: or finds nothing).
set -eu
W=${1:?usage: workloads.sh NAME TREE}; T=${2:?usage: workloads.sh NAME TREE}
export LC_ALL=C

# counted WC_FLAG CMD...: run CMD with its output piped to wc WC_FLAG, and fail
# if CMD fails. sh has no pipefail, so CMD's status comes back on fd 3; without
# this a denied find or rg would pass for a fast one.
counted() {
  flag=$1; shift
  exec 4>&1
  st=$( { { rc=0; "$@" 3>&- 4>&- || rc=$?; echo "$rc" >&3; } | wc "$flag" >&4; } 3>&1 )
  exec 4>&-
  if [ "$st" -ne 0 ]; then echo "workloads.sh: $W: $1 exited with status $st" >&2; exit 1; fi
}

case $W in
  find)     counted -l find "$T" -type f -name '*.c' ;;
  findL)    counted -l find -L "$T" -type f -name '*.c' ;;
  rg)       counted -l rg -c NEEDLE_ "$T" ;;
  rgfollow) counted -l rg --follow -c NEEDLE_ "$T" ;;
  tar)      counted -c tar -cf - -C "$T" . ;;
  cpr)      rm -rf "$T.copy"; cp -r "$T/pkg00" "$T.copy"; rm -rf "$T.copy"; echo ok ;;
  du)       du -s "$T" >/dev/null; echo ok ;;
  gitstatus) counted -l git -C "$T" status --porcelain ;;
  spawn)    i=0; while [ "$i" -lt 500 ]; do /bin/true; i=$((i+1)); done; echo ok ;;
  make)     make -s -C "$T.mk" clean >/dev/null; make -s -C "$T.mk" -j2 prog >/dev/null; test -x "$T.mk/prog"; echo ok ;;
  configure) (cd "$T.ac" && ./configure -q >/dev/null); echo ok ;;
  *) echo "workloads.sh: unknown workload '$W' (find findL rg rgfollow tar cpr du gitstatus spawn make configure)" >&2; exit 2 ;;
esac
