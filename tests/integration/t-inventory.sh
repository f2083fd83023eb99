#!/bin/sh
# Syscall inventory: real programs run contained under strace -f on a
# fixture whose root holds outward symlinks into OUTSIDE_ZONE; no system
# call the kernel saw may name a path there (the walk reads the links'
# text itself and decides lexically). Then find / and rg over / from
# inside: no outside name or content comes back.
. "${SRCDIR:?}/tests/integration/lib.sh"
command -v strace >/dev/null || { echo "# strace missing"; exit 77; }
Z=$T/OUTSIDE_ZONE
R=$T/root
mkdir -p "$Z/dir" "$R/src" "$R/home" "$T/tmp"
echo "secret outside content" > "$Z/secret.txt"
echo "secret outside content" > "$Z/dir/deep.txt"
echo "int main(void) { return 0; }" > "$R/src/main.c"
echo "inside secret" > "$R/src/notes.txt"
ln -s "$Z/secret.txt" "$R/src/abs-link"
ln -s ../../OUTSIDE_ZONE/dir "$R/src/rel-dir-link"
ln -s "$Z" "$R/zone-link"
printf 'all: prog\nprog: src/main.c\n\tcc -o prog src/main.c\n' > "$R/Makefile"
cd "$R" || exit 99

total=0
# inventory NAME CMD...: run CMD contained under strace; every path the
# kernel saw must be outside OUTSIDE_ZONE
inventory() {
	name=$1
	shift
	strace -f -qq -s 0 -o "$T/trace" -e trace=%file,%net \
		env LD_PRELOAD="$LIBCONTAIN_SO" CONTAIN_ROOT="$R" CONTAIN_TMPDIR="$T/tmp" \
		CONTAIN_LOG=off HOME="$R/home" GIT_CONFIG_NOSYSTEM=1 "$@" > "$T/out" 2>&1
	n=$(wc -l < "$T/trace")
	total=$((total + n))
	# a symlink's target is text, not a path the call touches
	hits=$(sed -e 's/symlinkat("[^"]*"/symlinkat(TARGET/' -e 's/symlink("[^"]*"/symlink(TARGET/' "$T/trace" |
		grep OUTSIDE_ZONE | grep -v -e '^[0-9]* *+++' | head -3)
	check "$name: no syscall names an outside path ($n calls)" "$hits" ""
	if grep -q "outside content" "$T/out"; then not_ok "$name: printed outside content"; else ok "$name: no outside content"; fi
}
# the twin: bare, a program naming an outside path shows in the trace (the
# check can fail); contained, the same program makes no such call
strace -f -qq -s 0 -o "$T/trace" -e trace=%file cat "$Z/secret.txt" > /dev/null 2>&1
check "bare cat of an outside file shows OUTSIDE_ZONE in strace" \
	"$(grep -c OUTSIDE_ZONE "$T/trace" | awk '{print ($1 > 0) ? "seen" : "not seen"}')" "seen"
inventory "cat of an outside file" sh -c "cat '$Z/secret.txt'; true"
inventory "rg --follow" rg --follow --no-ignore-parent secret .
inventory "find -L" find -L . -type f
inventory "cat through links" sh -c 'cat src/abs-link; cat src/rel-dir-link/deep.txt; cat zone-link/secret.txt; true'
inventory "git init/add/commit/status" sh -c 'git init -q . && git add -A && git -c user.name=t -c user.email=t@t commit -qm x && git status --porcelain'
inventory "git clone" git clone -q "$R" "$R/clone"
inventory "tar" tar -cf "$R/out.tar" -h src
inventory "cp -rL" cp -rL src "$R/copy"
inventory "python3 open, os.walk, glob" /usr/bin/python3 -c '
import os, glob
for d, ds, fs in os.walk(".", followlinks=True):
    for f in fs:
        try: open(os.path.join(d, f), errors="ignore").read()
        except OSError: pass
print(glob.glob("src/*/*"), glob.glob("zone-link/*"))'
if command -v make >/dev/null && command -v cc >/dev/null; then
	inventory "make" make -s
fi
inventory "bash redirections" bash -c 'echo x > out.txt; cat < src/abs-link; cat src/notes.txt >> out.txt; ls zone-link/ 2>&1; true'
if command -v sqlite3 >/dev/null; then
	inventory "sqlite3" sqlite3 "$R/db.sqlite" "create table t(x); insert into t values (1); select * from t; .tables"
fi
inventory "find / -xdev" find / -xdev -name 'OUTSIDE*'
inventory "rg over /" timeout 120 rg -l --no-messages 'outside content' /
printf '# %d system calls traced\n' "$total"
finish
