#!/bin/sh
# glibc's fts (fts_open/read/children/set): roots are checked, a logical
# walk follows inward links and reports outward ones as FTS_NS/EACCES
# (existing or missing alike), nothing outside is listed, and no syscall
# names the outside tree. Each denial with its allowed twin.
. "${SRCDIR:?}/tests/integration/lib.sh"
make_fixture
mkdir -p "$OUT/odir"
echo OUTSIDE > "$OUT/odir/x"
cd "$ROOT" || exit 99
W=$HELPERS/ftswalk
walk() { contained "$W" "$@" 2>/dev/null; }
line() { printf '%s\n' "$1" | grep -x -- "$2" >/dev/null && echo yes || echo no; }

out=$(walk logical .)
check "logical: an inward directory link is followed" "$(line "$out" 'F ./dirlink/a.txt')" yes
check "logical: an outward file link is FTS_NS/EACCES" "$(line "$out" 'NS:EACCES ./link-out')" yes
check "logical: an outward directory link is FTS_NS/EACCES" "$(line "$out" 'NS:EACCES ./dirlink-out')" yes
check "logical: a missing outside target looks the same (no oracle)" \
	"$(line "$out" 'NS:EACCES ./link-missing-out')" yes
check "logical: nothing under the outward link is listed" "$(printf '%s\n' "$out" | grep -c 'dirlink-out/')" 0
check "logical: inside files are listed" "$(line "$out" 'F ./file.txt')" yes
bare=$("$W" logical .)
check "logical bare lists the outside tree (the twin)" "$(line "$bare" 'F ./dirlink-out/odir/x')" yes

out=$(walk physical .)
check "physical: links are reported as links" "$(line "$out" 'SL ./dirlink-out')" yes
check "physical: inside directories are walked" "$(line "$out" 'F ./sub/a.txt')" yes

out=$(walk follow .)
check "fts_set(FTS_FOLLOW) on an inward link follows it" "$(line "$out" 'F ./dirlink/a.txt')" yes
check "fts_set(FTS_FOLLOW) on an outward link does not" "$(printf '%s\n' "$out" | grep -c 'dirlink-out/')" 0
check "fts_set(FTS_FOLLOW) outward works bare" \
	"$("$W" follow . | grep -c 'dirlink-out/')" 3

out=$(walk children .)
check "fts_children: an inward link reports its target" "$(line "$out" '  child D dirlink')" yes
check "fts_children: an outward link is FTS_NS/EACCES" "$(line "$out" '  child NS:EACCES dirlink-out')" yes
check "fts_children: a missing outside target looks the same" \
	"$(line "$out" '  child NS:EACCES link-missing-out')" yes
check "fts_children: nothing outside is listed" "$(printf '%s\n' "$out" | grep -c 'secret\|odir')" 0

check "fts_open of an outside root fails with EACCES" "$(walk logical "$OUT")" "open: EACCES"
check "fts_open of a root through an outward link fails" "$(walk logical dirlink-out)" "open: EACCES"
check "fts_open of an outside root works bare" "$("$W" physical "$OUT" | head -1)" "D $OUT"
check "fts_open of an inside root works" "$(walk physical sub | head -1)" "D sub"
check_match "the denial is reported with the uniform line" \
	"$(contained "$W" logical "$OUT" 2>&1 >/dev/null)" "libcontain: denied fts_open \"$OUT\": *"

# FTS_NOSTAT: glibc leaves fts_statp unset; the walk must still be checked
out=$(walk nostat .)
check "FTS_NOSTAT: the walk completes" "$(line "$out" 'D ./sub')" yes
check "FTS_NOSTAT: nothing outside is listed" "$(printf '%s\n' "$out" | grep -c 'secret\|odir')" 0

# the program swaps a directory it was given for a link out, then reads on
mkdir -p "$ROOT/leaf" && echo l > "$ROOT/leaf/l.txt"
out=$(CT_LAYERS=none walk swap leaf ../outside .)
check "a directory swapped for an outward link is not read (FTS_NOCHDIR)" \
	"$(printf '%s\n' "$out" | grep -c 'secret\|odir\|leaf/')" 0
rm "$ROOT/leaf" && mv "$ROOT/leaf.old" "$ROOT/leaf"
err=$(CT_LAYERS=none contained "$W" swap leaf ../outside . 2>&1 >/dev/null)
check_match "the swapped directory is reported" "$err" '*denied fts_read "./leaf": outside the allowed trees*'
rm "$ROOT/leaf" && mv "$ROOT/leaf.old" "$ROOT/leaf"
out=$("$W" swap leaf ../outside .)
check "bare, the swap lists the outside directory (the twin)" \
	"$(printf '%s\n' "$out" | grep -c 'leaf/secret.txt')" 1
rm "$ROOT/leaf" && mv "$ROOT/leaf.old" "$ROOT/leaf"
out=$(CT_LAYERS=none walk swapnames leaf ../outside .)
check "fts_children(FTS_NAMEONLY) of a swapped directory lists nothing outside" \
	"$(printf '%s\n' "$out" | grep -c 'name ')" 0
rm "$ROOT/leaf" && mv "$ROOT/leaf.old" "$ROOT/leaf"
out=$("$W" swapnames leaf ../outside .)
check "bare, FTS_NAMEONLY lists the outside names (the twin)" \
	"$(printf '%s\n' "$out" | grep -c 'name secret.txt')" 1
rm "$ROOT/leaf" && mv "$ROOT/leaf.old" "$ROOT/leaf"

if command -v strace >/dev/null 2>&1 && strace -f -o /dev/null /bin/true >/dev/null 2>&1; then
	for m in logical children follow; do
		strace -f -o "$T/trace.$m" env LD_PRELOAD="$LIBCONTAIN_SO" CONTAIN_ROOT="$ROOT" \
			CONTAIN_READ="$HELPERS" CONTAIN_TMPDIR="$T/tmp" "$W" $m . >/dev/null 2>&1
		check "fts $m: no syscall names the outside tree" \
			"$(grep -v '^[0-9]* *readlink' "$T/trace.$m" | grep -c -- "$OUT\|outside/")" 0
	done
	check "strace saw the walk" "$(grep -c 'dirlink' "$T/trace.logical" | sed 's/^[1-9][0-9]*$/yes/')" yes
else
	echo "# strace unavailable: syscall checks skipped"
fi
finish
