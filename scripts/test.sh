#!/bin/sh
# test.sh: build if needed and run every test (make check: unit tests with
# the check framework, then the integration tests under the real library).
set -eu
cd "$(dirname "$0")/.."
[ -x configure ] || ./autogen.sh >/dev/null 2>&1
[ -f Makefile ] || ./configure -q ${CONFIGURE_FLAGS:-}
make -s -j"$(nproc)"
status=0
make -j"$(nproc)" check || status=$?
if [ $status -ne 0 ]; then
	for f in tests/unit/*.log tests/integration/*.log; do
		[ -f "$f" ] && grep -q -e '^not ok' -e 'FAIL' -e ':F:' "$f" && { echo "== $f"; cat "$f"; }
	done
fi
# one closing line for people and CI: every check of every suite
awk '
	/^[0-9]+ passed, [0-9]+ failed/ { p += $1; f += $3 }
	/Checks: [0-9]+, Failures: [0-9]+/ {
		for (i = 1; i <= NF; i++) {
			if ($i == "Checks:") c = $(i + 1) + 0
			if ($i == "Failures:") x = $(i + 1) + 0
			if ($i == "Errors:") x += $(i + 1) + 0
		}
		p += c - x; f += x
	}
	END { printf "tests: %d passed, %d failed\n", p, f }
' tests/unit/*.log tests/integration/t-*.log 2>/dev/null
exit $status
