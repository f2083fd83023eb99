#!/bin/sh
# mktree.sh DIR [DIRS] [FILES_PER_DIR]: a deterministic source-like tree
# (default 400 dirs x 100 files = 40,000 regular files) for the benchmarks.
#
# Layout: DIR/pkgNN/modMMM/fJJJ.{c,h,py,txt}, 20 pkg dirs of 20 mod dirs each
# (with the defaults), every file 21 lines, a "NEEDLE_n" line in every 97th
# file (for rg), and two in-tree symlinks for the follow-symlink workloads:
#   DIR/link-to-pkg00      -> pkg00                   (directory link)
#   DIR/pkg01/rel-link.c   -> ../pkg00/mod000/f000.c  (file link)
#
# DIR is replaced if it is a tree this script made earlier; any other
# non-empty DIR is refused, so a typo cannot delete someone's files.
# PYTHON names the interpreter (default python3).
set -eu
T=${1:?usage: mktree.sh DIR [DIRS] [FILES_PER_DIR]}; D=${2:-400}; F=${3:-100}
case $D$F in *[!0-9]*) echo "mktree.sh: DIRS and FILES_PER_DIR must be numbers" >&2; exit 2 ;; esac
if [ -e "$T" ] && [ -n "$(ls -A "$T" 2>/dev/null)" ] && [ ! -f "$T/pkg00/mod000/f000.c" ]; then
  echo "mktree.sh: $T exists and is not a tree made by mktree.sh; not replacing it" >&2
  exit 2
fi
rm -rf "$T"; mkdir -p "$T"
"${PYTHON:-python3}" - "$T" "$D" "$F" <<'PY'
import os, sys
t, d, f = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
n = 0
for i in range(d):
    sub = os.path.join(t, "pkg%02d" % (i % 20), "mod%03d" % i)
    os.makedirs(sub, exist_ok=True)
    for j in range(f):
        n += 1
        ext = (".c", ".h", ".py", ".txt")[j % 4]
        with open(os.path.join(sub, "f%03d%s" % (j, ext)), "w") as fh:
            fh.write("/* file %d */\n" % n)
            fh.write("int value_%d = %d;\n" % (n, n) * 20)
            if n % 97 == 0:
                fh.write("const char *needle = \"NEEDLE_%d\";\n" % n)
os.makedirs(os.path.join(t, "pkg00"), exist_ok=True)
os.makedirs(os.path.join(t, "pkg01"), exist_ok=True)
os.symlink("pkg00", os.path.join(t, "link-to-pkg00"))
os.symlink("../pkg00/mod000/f000.c", os.path.join(t, "pkg01", "rel-link.c"))
PY
