#!/bin/sh
# What may run: programs in the trees (ELF with an interpreter, #! scripts
# whose interpreter is allowed); not programs outside, not static binaries.
. "${SRCDIR:?}/tests/integration/lib.sh"
# the interposer alone (CONTAIN_LAYERS=none): without the kernel layers a
# program the preload cannot enter must be refused (t-kernel.sh: with them
# it runs, held by Landlock and seccomp)
CT_LAYERS=none
make_fixture
cd "$ROOT" || exit 99
cp /bin/true "$OUT/true-out"
cp /bin/true "$ROOT/true-in"
ln -s "$OUT/true-out" "$ROOT/true-link-out"
cp "$HELPERS/static_hello" "$ROOT/static"
printf '#!/bin/sh\necho script ran\n' > "$ROOT/script.sh"
printf '#!%s\necho bad\n' "$OUT/true-out" > "$ROOT/bad-interp.sh"
printf 'echo no shebang ran\n' > "$ROOT/noshebang"
chmod +x "$ROOT/script.sh" "$ROOT/bad-interp.sh" "$ROOT/noshebang"

# probe exec replaces itself: on success it prints nothing (true) or the
# program's output; on failure the errno name
check "exec /bin/true" "$(probe exec /bin/true)" ""
check "exec a copy inside the root" "$(probe exec "$ROOT/true-in")" ""
check "exec a copy outside" "$(probe exec "$OUT/true-out")" "EACCES"
check "exec through a link out" "$(probe exec "$ROOT/true-link-out")" "EACCES"
check "exec a #! script inside" "$(probe exec "$ROOT/script.sh")" "script ran"
check "exec a script whose interpreter is outside" "$(probe exec "$ROOT/bad-interp.sh")" "EACCES"
check "exec a static binary" "$(probe exec "$ROOT/static")" "EACCES"
err=$(contained "$HELPERS/probe" exec "$ROOT/static" 2>&1 >/dev/null)
check "static refusal says why" "$err" \
	"libcontain: denied execv \"$ROOT/static\": static binary cannot be contained"
check "fexecve of an inherited fd inside" \
	"$(contained "$HELPERS/probe" fexecve-fd 5 true 5<"$ROOT/true-in" 2>/dev/null)" ""
check "fexecve of an inherited fd outside" \
	"$(contained "$HELPERS/probe" fexecve-fd 5 true 5<"$OUT/true-out" 2>/dev/null)" "EACCES"
check "execveat relative to a dir inside" "$(probe execveat "$ROOT" true-in)" ""
check "execveat relative to a dir outside" "$(probe execveat "$OUT" true-out)" "EACCES"
check "execvp finds a program on PATH" "$(probe execvp true)" ""
check "execvp skips PATH entries outside, silently" \
	"$(PATH="$OUT:/usr/bin" contained "$HELPERS/probe" execvp true-out 2>&1)" "ENOENT"
check "execvp runs a file without #! with /bin/sh" "$(probe execvp ./noshebang)" "no shebang ran"
check "posix_spawn inside" "$(probe spawn /bin/true)" "ok status 0"
check "posix_spawn outside" "$(probe spawn "$OUT/true-out")" "EACCES"
check "posix_spawn static" "$(probe spawn "$ROOT/static")" "EACCES"
# posix_spawn file actions run in the child through glibc's own calls
check "spawn with an open action on an inside file" "$(probe spawn-open "$ROOT/file.txt" /bin/cat)" "inside
ok status 0"
check "spawn with an open action on an outside file" "$(probe spawn-open "$OUT/secret.txt" /bin/cat)" "EACCES"
check "spawn with an open action on /etc/shadow" "$(probe spawn-open /etc/shadow /bin/cat)" "EACCES"
check "spawn writing an outside file" "$(probe spawn-open-w "$OUT/spawned.txt" /bin/echo x)" "EACCES"
test -e "$OUT/spawned.txt" && not_ok "the outside file was created" || ok "the outside file was not created"
check "spawn writing an inside file" "$(probe spawn-open-w "$ROOT/spawned.txt" /bin/echo x)" "ok status 0"
mkdir -p "$ROOT/w" "$OUT/w"
printf '#!/bin/sh\necho inside script\n' > "$ROOT/w/run.sh"
printf '#!/bin/sh\necho outside script\n' > "$OUT/w/run.sh"
chmod +x "$ROOT/w/run.sh" "$OUT/w/run.sh"
check "spawn a relative program after a chdir action out" \
	"$(cd "$ROOT/w" && probe spawn-chdir "$OUT/w" run.sh)" "EACCES"
check "spawn a relative program after a chdir action in" \
	"$(cd "$OUT/w" 2>/dev/null; cd "$ROOT" && probe spawn-chdir "$ROOT/w" run.sh)" "inside script
ok status 0"
check "system() runs a contained shell" "$(probe system "cat $OUT/secret.txt 2>/dev/null; echo rc=\$?")" \
	"rc=1
ok status 0"
check "system() twin inside" "$(probe system "cat $ROOT/file.txt")" "inside
ok status 0"
# another ABI or libc: the loader could not load the library into it
/usr/bin/python3 - "$ROOT" <<'PY'
import sys
root = sys.argv[1]
data = bytearray(open("/bin/true", "rb").read())
musl = bytearray(data)
old = b"/lib64/ld-linux-x86-64.so.2"
i = musl.find(old)
if i >= 0:
    new = b"/lib/ld-musl-x86_64.so.1"
    musl[i:i + len(old)] = new + b"\0" * (len(old) - len(new))
open(root + "/musl-true", "wb").write(musl)
i386 = bytearray(data)
i386[18:20] = (3).to_bytes(2, "little")        # e_machine = EM_386
open(root + "/i386-true", "wb").write(i386)
PY
chmod +x "$ROOT/musl-true" "$ROOT/i386-true"
check "exec a program for musl's loader" "$(probe exec "$ROOT/musl-true")" "EACCES"
check "exec a program of another machine" "$(probe exec "$ROOT/i386-true")" "EACCES"
err=$(contained "$HELPERS/probe" exec "$ROOT/musl-true" 2>&1 >/dev/null)
check "ABI refusal says why" "$err" \
	"libcontain: denied execv \"$ROOT/musl-true\": program for another ABI or libc cannot be contained"

# a PT_INTERP naming an in-tree file called ld-linux*: not our loader
if command -v cc >/dev/null; then
	cp /lib64/ld-linux-x86-64.so.2 "$ROOT/ld-linux-copy.so.2"
	printf 'int main(void){return 0;}\n' > "$T/m.c"
	cc -o "$ROOT/other-loader" "$T/m.c" -Wl,--dynamic-linker="$ROOT/ld-linux-copy.so.2"
	check "exec a program whose loader is another file" "$(probe exec "$ROOT/other-loader")" "EACCES"
	cc -o "$ROOT/our-loader" "$T/m.c"
	check "its twin built with the system loader runs" "$(probe exec "$ROOT/our-loader")" ""

	# The first process verifies the loader it runs under once, at load,
	# and the policy its children get names it (an L record): an exec of
	# a program naming that loader then looks nothing up. Its twin, the
	# same policy without the record, verifies the loader at the exec.
	interp=$(/usr/bin/python3 - "$ROOT/our-loader" <<'PY'
import struct, sys
d = open(sys.argv[1], "rb").read()
phoff, = struct.unpack_from("<Q", d, 32)
phentsize, phnum = struct.unpack_from("<HH", d, 54)
for i in range(phnum):
    t, = struct.unpack_from("<I", d, phoff + i * phentsize)
    if t == 3:  # PT_INTERP
        off, = struct.unpack_from("<Q", d, phoff + i * phentsize + 8)
        size, = struct.unpack_from("<Q", d, phoff + i * phentsize + 32)
        print(d[off:off + size - 1].decode())
PY
)
	pol=$(contained /usr/bin/printenv CONTAIN_POLICY 2>/dev/null)
	check_match "the first process records the loader it verified" "$pol" "*L${#interp}:$interp"
	if command -v strace >/dev/null 2>&1; then
		# the lines of the process that execs NAME, up to that exec
		pre_exec() {
			pid=$(grep "execveat(.*$2" "$1" | head -n 1 | cut -d' ' -f1)
			[ -n "$pid" ] && awk -v p="$pid" -v n="$2" \
				'$1 == p { print } $1 == p && /execveat/ && index($0, n) { exit }' "$1"
		}
		traced() {
			strace -f -qq -s 4096 -e trace=openat,openat2,execveat -o "$1" env LD_PRELOAD="$LIBCONTAIN_SO" \
				CONTAIN_ROOT="$ROOT" CONTAIN_LAYERS=none CONTAIN_READ="$HELPERS" \
				CONTAIN_TMPDIR="$T/tmp" /bin/sh -c "$ROOT/our-loader; :" >/dev/null 2>&1
		}
		traced "$T/with.tr"
		CONTAIN_POLICY=${pol%"L${#interp}:$interp"} traced "$T/without.tr"
		got=$(pre_exec "$T/with.tr" our-loader | grep -c 'execveat\|ld-linux\|/proc/self/maps')
		check "a child's exec of a program naming the recorded loader looks nothing up" "$got" "1"
		got=$(pre_exec "$T/without.tr" our-loader | grep -c 'ld-linux')
		check_match "without the record the same exec opens the loader to verify it" "$got" "[1-9]*"
	else
		echo "# strace missing: the exec's lookups are not counted"
	fi

	# A loader named through a read-only tree by a link into the writable
	# one: the file could be replaced after the check, so it is not taken
	# as ours, neither recorded at load nor trusted at an exec (the program
	# re-executes itself under the same loader). Twin: the system loader.
	mkdir -p "$T/ro2"
	cp -L /lib64/ld-linux-x86-64.so.2 "$ROOT/ld-copy.so"
	ln -s "$ROOT/ld-copy.so" "$T/ro2/ld-linux-x86-64.so.2"
	cat > "$T/self.c" <<'C'
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
int main(int argc, char **argv)
{
	const char *pol = getenv("CONTAIN_POLICY");
	if (argc > 1) {
		printf("ran again\n");
		return 0;
	}
	printf("%s\n", pol ? pol : "");
	fflush(stdout);
	execl(argv[0], argv[0], "again", (char *)0);
	perror("exec");
	return 1;
}
C
	# loader_refused PROG RO LOADER WHAT: PROG (its loader named LOADER, in
	# the read-only tree RO) runs first; LOADER is not recorded, and PROG's
	# exec of itself is refused
	loader_refused() {
		out=$(CT_READ="$HELPERS:$2" contained "$ROOT/$1" 2>&1)
		case $out in
		*"L${#3}:$3"*) not_ok "$4 is not recorded at load: $out" ;;
		*) ok "$4 is not recorded at load" ;;
		esac
		check_match "$4 is not trusted at an exec of a program naming it" "$out" \
			"*libcontain: denied execve \"$ROOT/$1\": program for another ABI or libc cannot be contained*exec: Permission denied"
	}
	cc -o "$ROOT/via-rw-loader" "$T/self.c" -Wl,--dynamic-linker="$T/ro2/ld-linux-x86-64.so.2"
	cc -o "$ROOT/via-sys-loader" "$T/self.c"
	loader_refused via-rw-loader "$T/ro2" "$T/ro2/ld-linux-x86-64.so.2" "a loader linked into the writable tree"
	out=$(CT_READ="$HELPERS:$T/ro2" contained "$ROOT/via-sys-loader" 2>&1)
	check_match "its twin under the system loader re-executes itself" "$out" "*ran again"

	# The same through a chain: a link in a read-only tree to a link in the
	# writable one to the system loader. The file is ours and read-only,
	# but the hop could be pointed elsewhere after the check. Twin: a link
	# in the read-only tree straight to the system loader.
	sysld=$(readlink -f /lib64/ld-linux-x86-64.so.2)
	mkdir -p "$T/ro3"
	ln -s "$sysld" "$ROOT/hop"
	ln -s "$ROOT/hop" "$T/ro3/ld-linux-hop.so.2"
	ln -s "$sysld" "$T/ro3/ld-linux-direct.so.2"
	cc -o "$ROOT/via-hop" "$T/self.c" -Wl,--dynamic-linker="$T/ro3/ld-linux-hop.so.2"
	cc -o "$ROOT/via-direct" "$T/self.c" -Wl,--dynamic-linker="$T/ro3/ld-linux-direct.so.2"
	loader_refused via-hop "$T/ro3" "$T/ro3/ld-linux-hop.so.2" \
		"a loader reached through a link in the writable tree"
	l="$T/ro3/ld-linux-direct.so.2"
	out=$(CT_READ="$HELPERS:$T/ro3" contained "$ROOT/via-direct" 2>&1)
	check_match "its twin through read-only links only is recorded and re-executes itself" "$out" \
		"*L${#l}:$l*ran again"
fi

# set-user-ID: the loader would drop LD_PRELOAD, so it may not run
cp /bin/true "$ROOT/suid-true" && cp /bin/true "$ROOT/plain-true"
chown 65534 "$ROOT/suid-true" "$ROOT/plain-true" 2>/dev/null
chmod 4755 "$ROOT/suid-true"
if [ "$(stat -c %u "$ROOT/suid-true")" != "$(id -u)" ]; then
	check "exec a set-user-ID program of another user" "$(probe exec "$ROOT/suid-true")" "EACCES"
	check "its twin without the bit runs" "$(probe exec "$ROOT/plain-true")" ""
	check "under no-new-privs it runs (no privilege gained)" \
		"$(setpriv --no-new-privs env LD_PRELOAD="$LIBCONTAIN_SO" CONTAIN_ROOT="$ROOT" \
			CONTAIN_READ="$HELPERS" CONTAIN_TMPDIR="$T/tmp" "$HELPERS/probe" exec "$ROOT/suid-true" 2>&1)" ""
fi
# LD_PRELOAD given relative to the cwd: children started elsewhere must
# still load the library (by the absolute path the snapshot carries)
libdir=$(dirname "$LIBCONTAIN_SO")
out=$(cd "$libdir" && env -u PWD LD_PRELOAD=./libcontain.so CONTAIN_ROOT="$ROOT" CONTAIN_TMPDIR="$T/tmp" \
	/bin/sh -c "cd $ROOT/sub && cat $OUT/secret.txt; cat ../file.txt" 2>&1)
check "relative LD_PRELOAD still contains a child in another cwd" "$out" \
	"libcontain: denied open \"$OUT/secret.txt\": outside the allowed trees
cat: $OUT/secret.txt: Permission denied
inside"
# a CONTAIN_* variable the program adds must not reach a child through
# system() (a child would otherwise resolve a wider policy)
cat > "$T/widen.py" <<'PY'
import os, sys
os.environ["CONTAIN_WRITE"] = "/"
os.environ["CONTAIN_READ"] = sys.argv[1]
os.system("cat %s/secret.txt 2>/dev/null || echo denied" % sys.argv[1])
PY
out=$(CT_READ="$HELPERS:$T/widen.py" contained /usr/bin/python3 "$T/widen.py" "$OUT" 2>/dev/null)
check "CONTAIN_* set by the program does not widen a system() child" "$out" "denied"
# a second LD_PRELOAD in environ (ld.so takes the last) must not strip the
# preload from a system() child
out=$(probe dupenv-system "cat $OUT/secret.txt 2>/dev/null; echo rc=\$?")
check "duplicate LD_PRELOAD does not free a system() child" "$out" "rc=1
ok status 0"
# the library at a path LD_PRELOAD cannot carry (a space): refuse to run
mkdir -p "$T/my dir" && cp "$LIBCONTAIN_SO" "$T/my dir/libcontain.so"
out=$(cd "$T/my dir" && env LD_PRELOAD=./libcontain.so CONTAIN_ROOT="$ROOT" CONTAIN_TMPDIR="$T/tmp" \
	/bin/echo RAN 2>&1; echo "status $?")
check_match "a library path with a space refuses to run" "$out" \
	"libcontain: LD_PRELOAD=*holds a ':' or a space*refusing to run uncontained*status 126"
# LD_AUDIT would load code into its own namespace, with its own libc and no
# preload: no child gets it
out=$(cat > "$T/aud.py" <<'PY'
import os, sys
os.environ["LD_AUDIT"] = "/nonexistent/audit.so"
os.environ["MALLOC_TRACE"] = sys.argv[1] + "/mtrace"
os.system("/usr/bin/env | grep -c -e '^LD_AUDIT=' -e '^MALLOC_TRACE=' || true")
PY
CT_READ="$HELPERS:$T/aud.py" contained /usr/bin/python3 "$T/aud.py" "$OUT" 2>/dev/null)
check "LD_AUDIT and MALLOC_TRACE do not reach a child" "$out" "0"
# variables that make glibc open files by name itself: removed at load
# when they point outside (and reported), kept when inside
out=$(env TZ=":$OUT/zone" GCONV_PATH="$OUT" LOCPATH=/usr/lib/locale LD_PRELOAD="$LIBCONTAIN_SO" \
	CONTAIN_ROOT="$ROOT" CONTAIN_TMPDIR="$T/tmp" /usr/bin/env 2>&1 | grep -e '^TZ=' -e '^GCONV_PATH=' -e '^LOCPATH=' -e 'denied environment')
check "TZ and GCONV_PATH outside are dropped, LOCPATH inside kept" "$out" \
	"libcontain: denied environment \"TZ=:$OUT/zone\": outside the allowed trees
libcontain: denied environment \"GCONV_PATH=$OUT\": outside the allowed trees
LOCPATH=/usr/lib/locale"
check "a POSIX TZ string is kept" "$(env TZ=UTC0 LD_PRELOAD="$LIBCONTAIN_SO" CONTAIN_ROOT="$ROOT" \
	CONTAIN_TMPDIR="$T/tmp" /usr/bin/env 2>/dev/null | grep '^TZ=')" "TZ=UTC0"
# a contained shell's children are contained too, grandchildren as well
out=$(contained /bin/sh -c "/bin/sh -c 'cat $OUT/secret.txt' 2>/dev/null; cat $ROOT/file.txt" 2>/dev/null)
check "grandchild of a contained shell" "$out" "inside"
finish
