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
exit $status
