#!/bin/sh
# Coverage, failing closed: every function the libc in use exports that
# takes or implies a path (classified in tests/data/libc-path-symbols.tsv)
# is wrapped (src/symbols.def) or exempt with a reason (src/exempt.def), and
# no libc export is unclassified (new ones since the 2.36 snapshot must be
# classified before this passes). Rows come from the live symbol table.
. "${SRCDIR:?}/tests/integration/lib.sh"
D=$SRCDIR/tests/data

libc=$(ldd "$HELPERS/probe" | awk '$1 == "libc.so.6" {print $3}')
[ -r "$libc" ] || { echo "# libc not found"; exit 99; }
nm -D --defined-only "$libc" | awk '$2 ~ /^[TWi]$/ {print $3}' | sed 's/@.*//' | sort -u > "$T/exports"
tail -n +2 "$D/libc-path-symbols.tsv" | cut -f1 | grep -v '[*]' | sort -u > "$T/path"
sed -n 's/^CONTAIN_SYM(\([A-Za-z0-9_]*\),.*/\1/p' "$SRCDIR/src/symbols.def" | sort -u > "$T/wrapped"
sed -n 's/^CONTAIN_EXEMPT(\([A-Za-z0-9_]*\),.*/\1/p' "$SRCDIR/src/exempt.def" | sort -u > "$T/exempt"
sort -u "$D/libc-2.36-exports.txt" > "$T/snapshot"

comm -12 "$T/exports" "$T/path" > "$T/live-path"
cat "$T/wrapped" "$T/exempt" | sort -u > "$T/covered"
missing=$(comm -23 "$T/live-path" "$T/covered" | tr '\n' ' ')
check "every path-taking libc export is wrapped or exempt" "$missing" ""
new=$(comm -23 "$T/exports" "$T/snapshot" | comm -23 - "$T/path" | tr '\n' ' ')
check "no libc export is unclassified (new since 2.36: classify it)" "$new" ""
both=$(comm -12 "$T/wrapped" "$T/exempt" | tr '\n' ' ')
check "nothing is both wrapped and exempt" "$both" ""
noreason=$(grep '^CONTAIN_EXEMPT' "$SRCDIR/src/exempt.def" | grep -c -v ', "[^"][^"]*")$')
check "every exemption gives a reason" "$noreason" "0"
notpath=$(comm -23 "$T/exempt" "$T/path" | tr '\n' ' ')
check "every exemption is a classified path function" "$notpath" ""
printf '# libc %s: %d path functions exported; wrapped %d, exempt %d\n' "$libc" \
	"$(wc -l < "$T/live-path")" "$(comm -12 "$T/live-path" "$T/wrapped" | wc -l)" \
	"$(comm -12 "$T/live-path" "$T/exempt" | wc -l)"
sed -n 's/^CONTAIN_EXEMPT([^,]*, "\([^:"]*\).*/\1/p' "$SRCDIR/src/exempt.def" | sort | uniq -c | sed 's/^/# exempt: /'
finish
