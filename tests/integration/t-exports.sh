#!/bin/sh
# The library exports exactly the table's names (src/symbols.def) plus the
# documented API, every name is in the man page, and nothing else leaks.
. "${SRCDIR:?}/tests/integration/lib.sh"

table=$(sed -n 's/^CONTAIN_SYM(\([A-Za-z0-9_]*\),.*/\1/p' "$SRCDIR/src/symbols.def" | sort)
want=$(printf '%s\nlibcontain_version\n' "$table" | sort)
got=$(nm -D --defined-only "$LIBCONTAIN_SO" | awk '$2 ~ /^[TWiV]$/ {print $3}' | sed 's/@.*//' | sort -u)
check "exports equal symbols.def + libcontain_version" "$got" "$want"
check "the table lists 197 entry points" "$(printf '%s\n' "$table" | wc -l | tr -d ' ')" 197

missing=""
for s in $table; do
	grep -qF -- "$s" "$SRCDIR/man/libcontain.7" || missing="$missing $s"
done
check "man page names every interposed function" "$missing" ""

# the code every contained process runs while it starts lies in one run
# (src/contain.h CT_START_TEXT), not spread over the library's pages
start="ct_policy ct_env_value ct_layers_parse ct_policy_load ct_tree_for ct_path_under ct_repair_environ"
lo="" hi="" found=0
for a in $(nm "$LIBCONTAIN_SO" | awk -v want="$start" '
	BEGIN { split(want, w, " "); for (i in w) need[w[i]] = 1 }
	$2 ~ /^[tT]$/ && ($3 in need) { print $1; delete need[$3] }'); do
	a=$((0x$a)) found=$((found + 1))
	[ -n "$lo" ] && [ "$a" -ge "$lo" ] || lo=$a
	[ -n "$hi" ] && [ "$a" -le "$hi" ] || hi=$a
done
if [ "$found" -ne 7 ]; then span="$found of 7 found"
elif [ $((hi - lo)) -lt 24576 ]; then span="one run"
else span="spread over $((hi - lo)) bytes"; fi
if [ "$found" -eq 0 ] && [ -z "$(nm "$LIBCONTAIN_SO" 2>/dev/null)" ]; then
	ok "the start-up path's layout: not checked, the library is stripped"
else
	check "the start-up path lies within 24 KiB of code" "$span" "one run"
fi

# the documented API answers through dlsym, as a launcher would call it
v=$(LD_PRELOAD="$LIBCONTAIN_SO" CONTAIN_OPTOUT=1 /usr/bin/python3 -c \
	'import ctypes; f=ctypes.CDLL(None).libcontain_version; f.restype=ctypes.c_char_p; print(f().decode())' 2>&1)
check_match "libcontain_version reports opted out" "$v" "* (opted out)"
finish
