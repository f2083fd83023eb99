# lib.sh: shared setup of the integration tests (sourced).
#
# Environment (set by make check, see Makefile.am): LIBCONTAIN_SO (the built
# library), HELPERS (the built test helpers), SRCDIR (the source tree).
# Each test builds its fixture under a fresh temp dir, prints "ok - NAME" or
# "not ok - NAME" per check, and ends with finish (exit 1 on any failure,
# 77 = skipped when a tool it needs is missing).

set -u
: "${LIBCONTAIN_SO:?run through make check}" "${HELPERS:?}" "${SRCDIR:?}"
[ -f "$LIBCONTAIN_SO" ] || { echo "missing $LIBCONTAIN_SO: run make" >&2; exit 99; }

T=$(mktemp -d /tmp/ct-it.XXXXXX)
T=$(cd "$T" && pwd -P)
trap 'rm -rf "$T"' EXIT
ROOT=$T/root
OUT=$T/outside
passed=0
failed=0

ok() { passed=$((passed + 1)); printf 'ok - %s\n' "$*"; }
not_ok() { failed=$((failed + 1)); printf 'not ok - %s\n' "$*"; }

# check NAME GOT WANT: pass when GOT equals WANT.
check() {
	if [ "$2" = "$3" ]; then ok "$1"; else not_ok "$1: got [$2], want [$3]"; fi
}

# check_match NAME GOT PATTERN: pass when GOT matches the glob PATTERN.
check_match() {
	case $2 in
	$3) ok "$1" ;;
	*) not_ok "$1: got [$2], want [$3]" ;;
	esac
}

# contained CMD...: run CMD under the library, root $ROOT, helpers readable,
# denials on stderr (CONTAIN_LOG can be set by the caller). CT_LAYERS picks
# the kernel layers (CONTAIN_LAYERS; default auto: all this kernel has).
contained() {
	env LD_PRELOAD="$LIBCONTAIN_SO" CONTAIN_ROOT="$ROOT" CONTAIN_LAYERS="${CT_LAYERS:-auto}" \
		CONTAIN_READ="${CT_READ:-$HELPERS}" CONTAIN_TMPDIR="$T/tmp" \
		"$@"
}

probe() { contained "$HELPERS/probe" "$@" 2>/dev/null; }

# The standard fixture: a root with every shape of symlink, an outside
# tree holding the secret, and a sibling whose name extends the root's.
make_fixture() {
	mkdir -p "$ROOT/sub/deep" "$OUT" "$T/root-evil" "$T/tmp" "$T/ro"
	echo inside > "$ROOT/file.txt"
	echo a > "$ROOT/sub/a.txt"
	echo OUTSIDE > "$OUT/secret.txt"
	echo OUTSIDE > "$T/root-evil/secret.txt"
	echo ro > "$T/ro/data.txt"
	ln -s file.txt "$ROOT/link-in"
	ln -s "$ROOT/file.txt" "$ROOT/link-abs-in"
	ln -s ../outside/secret.txt "$ROOT/link-out"
	ln -s "$OUT/secret.txt" "$ROOT/link-abs-out"
	ln -s ../outside/missing.txt "$ROOT/link-missing-out"
	ln -s chain2 "$ROOT/chain1"
	ln -s link-abs-out "$ROOT/chain2"
	ln -s loop2 "$ROOT/loop1"
	ln -s loop1 "$ROOT/loop2"
	ln -s sub "$ROOT/dirlink"
	ln -s ../outside "$ROOT/dirlink-out"
	ln -s ../root-evil/secret.txt "$ROOT/evil-link"
	ln -s "$T/ro/data.txt" "$ROOT/ro-link"
	ln -s /usr/share/common-licenses/GPL-3 "$ROOT/usr-link"
}

finish() {
	printf '%d passed, %d failed\n' "$passed" "$failed"
	[ "$failed" -eq 0 ]
	exit $?
}
