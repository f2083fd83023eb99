#!/bin/sh
# Compat symbol versions: a program linked against an old glibc version of
# an interposed name (realpath@GLIBC_2.2.5 ...) binds to libcontain.so, is
# checked, and keeps that version's behaviour.
. "${SRCDIR:?}/tests/integration/lib.sh"
make_fixture
cd "$ROOT" || exit 99
C=$HELPERS/compat

libc=${LIBC_SO:?the libc the library was built against (make check sets it)}
table=$(sed -n 's/^CONTAIN_SYM(\([A-Za-z0-9_]*\),.*/\1/p' "$SRCDIR/src/symbols.def" | sort -u)

# every version libc defines of an interposed name, read from libc itself
readelf --dyn-syms -W "$libc" | awk '$7 != "UND" && ($4 == "FUNC" || $4 == "IFUNC") && $8 ~ /@/ {
	n = $8; sub(/@@/, "@", n); print n }' | sort -u > "$T/libc-versions"
printf '%s\n' "$table" | awk 'NR == FNR { w[$1] = 1; next } { split($1, a, "@") } (a[1] in w)' \
	- "$T/libc-versions" > "$T/want"
nm -D --defined-only "$LIBCONTAIN_SO" | awk '$2 ~ /^[TWi]$/ { n = $3; sub(/@@/, "@", n); print n }' |
	grep -v '^libcontain_version@' | sort -u > "$T/got"
check "libcontain.so exports every libc version of every interposed name" \
	"$(diff "$T/want" "$T/got" | sed -n 's/^[<>] //p' | tr '\n' ' ')" ""
check_match "old versions are among them" "$(grep -c . "$T/want")" "2[0-9][0-9]"
check "compat versions: realpath glob nftw posix_spawn among them" \
	"$(grep -cE '^(realpath|glob|nftw|posix_spawn)@GLIBC_2\.2\.5$' "$T/want")" 4

# every name@version a program can bind to resolves to libcontain.so first
bound=$(contained "$C" bind < "$T/want" 2>&1 | grep -v ' libcontain$')
check "every name@version binds to libcontain.so under LD_PRELOAD" "$bound" ""
check "without the preload they are libc's" \
	"$("$C" bind < "$T/want" | grep -c ' libcontain$')" 0

case $(uname -m) in
x86_64) ;;
*) echo "# compat behaviour checks are written for x86-64 version names"; finish ;;
esac

# realpath@GLIBC_2.2.5
check "old realpath of an inside path (buffer; NULL is EINVAL as it was)" \
	"$(contained "$C" realpath "$ROOT/sub/a.txt" 2>/dev/null)" "$ROOT/sub/a.txt EINVAL"
check "old realpath through an outward link is denied" \
	"$(contained "$C" realpath "$ROOT/link-out" 2>/dev/null)" "EACCES EINVAL"
check "old realpath outside is denied" \
	"$(contained "$C" realpath "$OUT/secret.txt" 2>/dev/null)" "EACCES EINVAL"
check "old realpath of an outside path works bare" \
	"$("$C" realpath "$OUT/secret.txt")" "$OUT/secret.txt EINVAL"
check_match "the denial is reported with the uniform line" \
	"$(contained "$C" realpath "$OUT/secret.txt" 2>&1 >/dev/null)" 'libcontain: denied realpath "*'

# glob@GLIBC_2.2.5
check "old glob inside matches" "$(contained "$C" glob "$ROOT/sub/*.txt" 2>/dev/null)" 1
check "old glob outside matches nothing" "$(contained "$C" glob "$OUT/*.txt" 2>/dev/null)" NOMATCH
check "old glob through an outward directory link matches nothing" \
	"$(contained "$C" glob "$ROOT/dirlink-out/*" 2>/dev/null)" NOMATCH
check "old glob outside matches bare" "$("$C" glob "$OUT/*.txt")" 1

# nftw@GLIBC_2.2.5: unknown flags ignored (the current version: EINVAL)
check "old nftw walks the root, ignores an unknown flag; new refuses it" \
	"$(contained "$C" nftw "$ROOT/sub" 0x100 2>/dev/null)" "old ok 3 new EINVAL 0"
check "old nftw of an outside tree is denied" \
	"$(contained "$C" nftw "$OUT" 0 2>/dev/null)" "old EACCES 0 new EACCES 0"
check "old nftw outside works bare" "$("$C" nftw "$OUT" 0)" "old ok 2 new ok 2"

# posix_spawn@GLIBC_2.2.5: a file without #! runs through /bin/sh
printf 'exit 7\n' > "$ROOT/noshebang"
chmod +x "$ROOT/noshebang"
printf 'exit 7\n' > "$OUT/noshebang"
chmod +x "$OUT/noshebang"
check "old posix_spawn runs a #!-less script with sh; the new one refuses (ENOEXEC)" \
	"$(contained "$C" spawn "$ROOT/noshebang" 2>/dev/null)" "old exit 7 new ENOEXEC"
check "old posix_spawn of an outside script is denied" \
	"$(contained "$C" spawn "$OUT/noshebang" 2>/dev/null)" "old EACCES new EACCES"
check "both run the outside script as libc does, bare" \
	"$("$C" spawn "$OUT/noshebang")" "old exit 7 new ENOEXEC"
finish
