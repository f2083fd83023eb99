#!/bin/sh
# Variables and names glibc turns into paths on its own: TZ/TZDIR, LOCPATH,
# NLSPATH, GCONV_PATH, the locale names (LANG, LC_*, LANGUAGE) and gettext
# domains. Checked at load, in setenv/putenv, and in textdomain/dgettext;
# each refusal with its allowed twin. Run with the interposer alone
# (CONTAIN_LAYERS=none): the kernel layer would hold glibc's opens anyway.
. "${SRCDIR:?}/tests/integration/lib.sh"
CT_LAYERS=none
make_fixture
cd "$ROOT" || exit 99
PY=/usr/bin/python3

envof() { # envof VAR=VALUE...: what a contained env(1) keeps, and the denials
	env "$@" LD_PRELOAD="$LIBCONTAIN_SO" CONTAIN_ROOT="$ROOT" CONTAIN_TMPDIR="$T/tmp" \
		CONTAIN_LAYERS=none /usr/bin/env 2>&1 | grep -e "^${1%%=*}=" -e 'denied environment'
}
check "TZDIR in the (writable) root is dropped: links could be planted there" \
	"$(envof TZDIR="$ROOT")" "libcontain: denied environment \"TZDIR=$ROOT\": outside the allowed trees"
check "TZDIR in a read-only system tree is kept" "$(envof TZDIR=/usr/share/zoneinfo)" \
	"TZDIR=/usr/share/zoneinfo"
check "LOCPATH in the root is dropped" "$(envof LOCPATH="$ROOT" | grep -c denied)" 1
check "GCONV_PATH in the root is dropped (it names code to load)" "$(envof GCONV_PATH="$ROOT" | grep -c denied)" 1
check "NLSPATH into the root is dropped" "$(envof NLSPATH="$ROOT/%N" | grep -c denied)" 1
check "NLSPATH in /usr is kept" "$(envof NLSPATH=/usr/share/locale/%L/%N)" "NLSPATH=/usr/share/locale/%L/%N"
check "a LANG holding a path is dropped" "$(envof LANG=../../../outside | grep -c denied)" 1
check "LANGUAGE holding a path is dropped" "$(envof LANGUAGE=en:../../x | grep -c denied)" 1
check "LC_MESSAGES holding a path is dropped" "$(envof LC_MESSAGES=/x | grep -c denied)" 1
check "a plain LANG is kept" "$(envof LANG=C.UTF-8)" "LANG=C.UTF-8"
check "TZ naming a zone by name is kept" "$(envof TZ=Europe/Paris)" "TZ=Europe/Paris"
check "TZ climbing out of TZDIR is dropped" "$(envof TZ=../../../tmp/zone | grep -c denied)" 1

# run time: setenv and putenv (python's os.environ calls setenv)
py() {
	CT_READ="$HELPERS" contained $PY -c "
import os, sys
try:
    os.environ[sys.argv[1]] = sys.argv[2]; print('ok')
except OSError as e:
    print(e.errno == 13 and 'EACCES' or e)" "$@" 2>/dev/null
}
check "setenv TZDIR into the root is refused" "$(py TZDIR "$ROOT")" EACCES
check "setenv TZDIR in /usr is allowed" "$(py TZDIR /usr/share/zoneinfo)" ok
check "setenv TZ through an outward link is refused" "$(py TZ ":$ROOT/link-out")" EACCES
check "setenv TZ of a file in the root is allowed" "$(py TZ ":$ROOT/file.txt")" ok
check "setenv LANG with a path is refused" "$(py LANG ../../outside)" EACCES
check "setenv of an ordinary variable is untouched" "$(py FOO "$OUT/x")" ok
check_match "the refusal is reported with the uniform line" \
	"$(CT_READ="$HELPERS" contained $PY -c "import os; os.environ['TZDIR'] = '$ROOT'" 2>&1 >/dev/null)" \
	"*libcontain: denied setenv \"$ROOT\": outside the allowed trees*"

# a putenv'd string rewritten afterwards does not change what glibc sees
out=$(CT_READ="$HELPERS" contained $PY -c "
import ctypes, os
libc = ctypes.CDLL(None)
buf = ctypes.create_string_buffer(b'TZDIR=/usr/share/zoneinfo' + b'\0' * 64)
print(libc.putenv(buf))
buf.value = b'TZDIR=$OUT'
print(libc.getenv(b'TZDIR') and ctypes.string_at(libc.getenv(b'TZDIR')).decode())
" 2>/dev/null)
check "putenv of a steering variable keeps a copy (a rewrite later changes nothing)" "$out" "0
/usr/share/zoneinfo"

# gettext domains with a '/' would climb out of the catalog directory
gt() {
	CT_READ="$HELPERS" contained $PY -c "
import locale, sys
try:
    r = getattr(locale, sys.argv[1])(*sys.argv[2:])
    print(r)
except Exception as e:
    print(type(e).__name__)" "$@" 2>/dev/null
}
check "dgettext with a domain holding a path is left untranslated" \
	"$(gt dgettext "../../../../outside/s" hello)" hello
check "dgettext with a plain domain works" "$(gt dgettext coreutils hello)" hello
check "textdomain with a path is refused" "$(gt textdomain "../x")" PermissionError
check "textdomain with a plain name is set" "$(gt textdomain mydomain)" mydomain
check "bindtextdomain of a domain holding a path is refused" "$(gt bindtextdomain ../x "$ROOT")" PermissionError
check "bindtextdomain of the root works" "$(gt bindtextdomain app "$ROOT")" "$ROOT"
check "bindtextdomain of an outside directory is refused" "$(gt bindtextdomain app "$OUT")" PermissionError
finish
