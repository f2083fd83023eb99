#!/bin/sh
# gen-map.sh SYMBOLS.DEF: print the linker version script for libcontain.so.
# Exported: every CONTAIN_SYM row of the table, plus the documented API
# (include/libcontain.h). Everything else is local.
set -eu
def=${1:?usage: gen-map.sh symbols.def}
printf '/* generated from %s by scripts/gen-map.sh: do not edit */\n{\n  global:\n' "$(basename "$def")"
sed -n 's/^CONTAIN_SYM(\([A-Za-z0-9_]*\),.*/    \1;/p' "$def"
printf '    libcontain_version;\n  local:\n    *;\n};\n'
