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

# the documented API answers through dlsym, as a launcher would call it
v=$(LD_PRELOAD="$LIBCONTAIN_SO" CONTAIN_OPTOUT=1 /usr/bin/python3 -c \
	'import ctypes; f=ctypes.CDLL(None).libcontain_version; f.restype=ctypes.c_char_p; print(f().decode())' 2>&1)
check_match "libcontain_version reports opted out" "$v" "* (opted out)"
finish
