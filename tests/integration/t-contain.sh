#!/bin/sh
# The contain launcher: options, the handshake, the kernel layers for
# programs the preload cannot enter (static C, Go, musl), exit statuses.
. "${SRCDIR:?}/tests/integration/lib.sh"
make_fixture
cd "$ROOT" || exit 99
C=$CONTAIN_BIN
[ -x "$C" ] || { echo "missing $C" >&2; exit 99; }
ct() { "$C" --lib "$LIBCONTAIN_SO" --read "$HELPERS" "$@"; }

check_match "--help prints usage with an example" "$("$C" --help)" "usage: contain *Example:*"
check_match "--version prints the version and the layers" "$("$C" --version)" \
	"contain *layers on this kernel:*landlock*seccomp*"
out=$("$C" 2>&1); rc=$?
check "no command: usage on stderr, exit 125" "$rc" 125
out=$("$C" --bogus true 2>&1); rc=$?
check "an unknown option: exit 125" "$rc" 125
check_match "with one clear line" "$out" "contain: unknown option --bogus*"

# --root defaults to the current directory
check "the current directory is the root by default" "$("$C" --lib "$LIBCONTAIN_SO" cat file.txt 2>/dev/null)" inside
out=$("$C" --lib "$LIBCONTAIN_SO" cat "$OUT/secret.txt" 2>&1); rc=$?
check "an outside file is denied" "$rc" 1
check_match "with the uniform line" "$out" "*libcontain: denied open \"$OUT/secret.txt\": outside the allowed trees*"
check "--root elsewhere" "$(cd / && "$C" --lib "$LIBCONTAIN_SO" --root "$ROOT" cat "$ROOT/sub/a.txt" 2>/dev/null)" a
check "--read makes a tree readable" "$(ct --read "$T/ro" cat "$T/ro/data.txt" 2>/dev/null)" ro
check "--read is read-only" "$(ct --read "$T/ro" sh -c "echo x > $T/ro/data.txt" 2>/dev/null; cat "$T/ro/data.txt")" ro
mkdir -p "$T/w"
ct --write "$T/w" sh -c "echo w > $T/w/f" 2>/dev/null
check "--write makes a tree writable" "$(cat "$T/w/f")" w
check "--deny hides a path inside the root" "$(ct --deny "$ROOT/sub" cat sub/a.txt 2>/dev/null; echo "rc=$?")" "rc=1"
ct --log "$T/log.json" cat "$OUT/secret.txt" 2>/dev/null
check_match "--log writes JSON lines" "$(cat "$T/log.json")" '{"op":"open","path":"*secret.txt"*'

# exit status
ct sh -c 'exit 42'; check "the command's exit status passes through" "$?" 42
ct sh -c 'kill -TERM $$'; check "death by signal N is 128+N" "$?" 143
ct nonexistent-command 2>/dev/null; check "a missing command: 127" "$?" 127
ct "$ROOT/file.txt" 2>/dev/null; check "a file that cannot be executed: 126" "$?" 126
out=$("$C" --lib "$LIBCONTAIN_SO" --root "$T/nonexistent" true 2>&1); rc=$?
check "a bad root: 126 before anything runs" "$rc" 126
check_match "with the library's message" "$out" "contain: CONTAIN_ROOT=*no such file or directory"

# the handshake: a library that would not load is refused before anything runs
out=$("$C" --lib /nonexistent/libcontain.so sh -c 'echo RAN' 2>&1); rc=$?
check "a broken preload path: exit 125" "$rc" 125
check "and the command never ran" "$(printf '%s' "$out" | grep -c RAN)" 0
cp /bin/true "$ROOT/not-a-lib.so"
out=$("$C" --lib "$ROOT/not-a-lib.so" sh -c 'echo RAN' 2>&1); rc=$?
check "a library that is not libcontain: exit 125, nothing ran" "$rc/$(printf '%s' "$out" | grep -c RAN)" "125/0"
# a dynamic program whose libraries fail to load never answers the handshake
python3 - "$ROOT/true-badlib" <<'PY'
import sys
data = bytearray(open("/bin/true", "rb").read())
i = data.find(b"libc.so.6\0")
data[i:i + 10] = b"libX.so.6\0"
open(sys.argv[1], "wb").write(data)
PY
chmod +x "$ROOT/true-badlib"
out=$(ct "$ROOT/true-badlib" 2>&1); rc=$?
check "a program the library never answered from: exit 125" "$rc" 125
check_match "saying so" "$out" "*the library did not load in*"
check "a normal program answers: exit 0" "$(ct /bin/true; echo $?)" 0

# programs the preload cannot enter: held by Landlock and seccomp
cp "$HELPERS/rawio-static" "$ROOT/rawio-static"
check "static: reading outside is EACCES" "$(ct "$ROOT/rawio-static" read "$OUT/secret.txt" 2>/dev/null)" EACCES
check "static: reading inside works" "$(ct "$ROOT/rawio-static" read "$ROOT/file.txt" 2>/dev/null)" inside
check "static: writing outside is EACCES" "$(ct "$ROOT/rawio-static" write "$OUT/new" 2>/dev/null)" EACCES
check "static: exec outside is EACCES" \
	"$(cp /bin/true "$OUT/t"; ct "$ROOT/rawio-static" exec "$OUT/t" 2>/dev/null)" EACCES
check "static: io_uring is ENOSYS" "$(ct "$ROOT/rawio-static" uring "$ROOT/file.txt" 2>/dev/null)" ENOSYS
check "static: raw syscall(SYS_openat) of an outside file is EACCES" \
	"$(ct "$HELPERS/rawio" read "$OUT/secret.txt" 2>/dev/null)" EACCES
out=$(ct --layers none "$ROOT/rawio-static" read "$ROOT/file.txt" 2>&1); rc=$?
check "without the kernel layers a static program is refused: 126" "$rc" 126
check_match "saying why" "$out" "*static or foreign program*"
if command -v musl-gcc >/dev/null 2>&1; then
	printf '#include <stdio.h>\nint main(int c,char**v){FILE*f=fopen(v[1],"r");char b[64]="";if(!f){perror("open");return 1;}fgets(b,64,f);fputs(b,stdout);return 0;}\n' > "$T/m.c"
	musl-gcc -static -o "$ROOT/musl-cat" "$T/m.c"
	check "musl static: reading outside fails" "$(ct "$ROOT/musl-cat" "$OUT/secret.txt" 2>&1)" "open: Permission denied"
	check "musl static: reading inside works" "$(ct "$ROOT/musl-cat" "$ROOT/file.txt" 2>/dev/null)" inside
else
	echo "# musl-gcc missing: musl checks skipped"
fi
if command -v go >/dev/null 2>&1; then
	mkdir -p "$T/gosrc"
	cat > "$T/gosrc/main.go" <<'GO'
package main

import (
	"fmt"
	"os"
	"os/exec"
)

func main() {
	switch os.Args[1] {
	case "read":
		b, err := os.ReadFile(os.Args[2])
		if err != nil {
			fmt.Println("error:", err)
			return
		}
		fmt.Print(string(b))
	case "write":
		if err := os.WriteFile(os.Args[2], []byte("go\n"), 0644); err != nil {
			fmt.Println("error:", err)
			return
		}
		fmt.Println("ok")
	case "exec":
		out, err := exec.Command(os.Args[2]).CombinedOutput()
		fmt.Printf("%s%v\n", out, err)
	}
}
GO
	(cd "$T/gosrc" && HOME=$T GOCACHE=$T/gocache GOPATH=$T/go GOFLAGS=-mod=mod CGO_ENABLED=0 \
		go build -o "$ROOT/goprog" main.go) >/dev/null 2>&1
	if [ -x "$ROOT/goprog" ]; then
		check_match "Go: reading outside is denied" "$(ct "$ROOT/goprog" read "$OUT/secret.txt" 2>&1)" \
			"error: *permission denied"
		check "Go: reading inside works" "$(ct "$ROOT/goprog" read "$ROOT/file.txt" 2>/dev/null)" inside
		check_match "Go: writing outside is denied" "$(ct "$ROOT/goprog" write "$OUT/go.txt" 2>&1)" \
			"error: *permission denied"
		check "Go: writing inside works" "$(ct "$ROOT/goprog" write "$ROOT/go.txt" 2>/dev/null)" ok
		check_match "Go: exec of an outside program is denied" \
			"$(ct "$ROOT/goprog" exec "$OUT/t" 2>&1)" "*permission denied*"
		check "Go: bare, it reads outside (twin)" "$("$ROOT/goprog" read "$OUT/secret.txt")" OUTSIDE
	else
		not_ok "go build of the test program failed"
	fi
else
	echo "# go missing: Go checks skipped"
fi
# the supervisor: metadata writes Landlock does not restrict, for raw calls
RS=$ROOT/rawio-static
chmod 644 "$OUT/secret.txt"
for op in chmod chown utime; do
	check "supervisor: raw $op of an outside file is EACCES" "$(ct "$RS" $op "$OUT/secret.txt" 2>/dev/null)" EACCES
	check "supervisor: raw $op inside works" "$(ct "$RS" $op "$ROOT/file.txt" 2>/dev/null)" ok
done
check "supervisor: the outside file kept its mode" "$(stat -c %a "$OUT/secret.txt")" 644
check "supervisor: the inside chmod really happened" "$(stat -c %a "$ROOT/file.txt")" 600
check "supervisor: raw chmod through an outward link is EACCES" "$(ct "$RS" chmod "$ROOT/link-out" 2>/dev/null)" EACCES
check "supervisor: raw chmod of a read-only tree's file is EACCES" "$(ct --read "$T/ro" "$RS" chmod "$T/ro/data.txt" 2>/dev/null)" EACCES
if setfattr -n user.t -v 1 "$ROOT/file.txt" 2>/dev/null; then
	check "supervisor: raw setxattr outside is EACCES" "$(ct "$RS" setxattr "$OUT/secret.txt" 2>/dev/null)" EACCES
	check "supervisor: raw setxattr inside works" "$(ct "$RS" setxattr "$ROOT/file.txt" 2>/dev/null)" ok
	check "supervisor: the attribute is set" "$(getfattr --only-values -n user.ct "$ROOT/file.txt" 2>/dev/null)" 1
fi
check_match "supervisor: the denial is reported with the uniform line" \
	"$(ct "$RS" chmod "$OUT/secret.txt" 2>&1 >/dev/null)" "libcontain: denied fchmodat \"$OUT/secret.txt\": outside the allowed trees*"
check "without the supervisor (--layers landlock,seccomp) raw chmod outside gets through: the gap it closes" \
	"$(ct --layers landlock,seccomp "$RS" chmod "$OUT/secret.txt" 2>/dev/null; stat -c %a "$OUT/secret.txt")" "ok
600"
chmod 644 "$OUT/secret.txt"

# --strict: the existence oracle (stat, access, readlink) is closed too
check "default: raw stat of an outside file succeeds (the documented gap)" \
	"$(ct "$RS" stat "$OUT/secret.txt" 2>/dev/null)" ok
check "--strict: raw stat of an outside file is EACCES" "$(ct --strict "$RS" stat "$OUT/secret.txt" 2>/dev/null)" EACCES
check "--strict: raw stat of a missing outside file is the same EACCES" \
	"$(ct --strict "$RS" stat "$OUT/missing" 2>/dev/null)" EACCES
check "--strict: raw stat inside works" "$(ct --strict "$RS" stat "$ROOT/file.txt" 2>/dev/null)" ok
check "--strict: raw access outside is EACCES" "$(ct --strict "$RS" access "$OUT/secret.txt" 2>/dev/null)" EACCES
check "--strict: raw access inside works" "$(ct --strict "$RS" access "$ROOT/file.txt" 2>/dev/null)" ok
ln -s "$OUT/secret.txt" "$OUT/link"
check "--strict: raw readlink of an outside link is EACCES" "$(ct --strict "$RS" readlink "$OUT/link" 2>/dev/null)" EACCES
check "--strict: raw readlink inside works" "$(ct --strict "$RS" readlink "$ROOT/link-out" 2>/dev/null)" "../outside/secret.txt"
check "--strict: raw stat of /proc/self/exe is the target's own" \
	"$(ct --strict "$RS" readlink /proc/self/exe 2>/dev/null)" "$RS"
rm "$OUT/link"
check "--strict: a dynamic program works (ls, sh, relative paths)" \
	"$(ct --strict sh -c 'cd sub && ls && stat -c %s a.txt' 2>/dev/null)" "a.txt
deep
2"
check "--strict: git init and status work" \
	"$(HOME=$ROOT ct --strict sh -c 'git init -q g && cd g && git status --short && echo ok' 2>/dev/null)" ok

# review fixes: each with its twin
# a read-only tree carved around a denied path: its links grant nothing
mkdir -p "$T/ro2/secret" "$T/ro2/pub"
echo KEY > "$T/ro2/secret/key"; echo PUB > "$T/ro2/pub/p"
ln -s secret "$T/ro2/alias"; ln -s "$OUT" "$T/ro2/outlink"
check "Landlock: a link in a carved tree does not open the denied path" \
	"$(ct --read "$T/ro2" --deny "$T/ro2/secret" "$RS" read "$T/ro2/alias/key" 2>/dev/null)" EACCES
check "Landlock: nor its target outside" \
	"$(ct --read "$T/ro2" --deny "$T/ro2/secret" "$RS" read "$T/ro2/outlink/secret.txt" 2>/dev/null)" EACCES
check "Landlock: the carved tree's other entries stay readable" \
	"$(ct --read "$T/ro2" --deny "$T/ro2/secret" "$RS" read "$T/ro2/pub/p" 2>/dev/null)" PUB

# a #! script whose interpreter the preload cannot enter is a static program
printf '#!%s read\n' "$RS" > "$ROOT/static-script"; chmod +x "$ROOT/static-script"
out=$(ct --layers none "$ROOT/static-script" 2>&1); rc=$?
check "a script with a static interpreter, without the kernel layers: refused (126)" "$rc" 126
check "and it never ran" "$(printf '%s' "$out" | grep -c '^#!')" 0
check "with the layers it runs (it reads itself), with its own exit status" \
	"$(ct "$ROOT/static-script" 2>/dev/null; echo "rc=$?")" "#!$RS read
rc=0"

# an enclosing policy in the environment does not leak into the launcher
check "CONTAIN_ROOT of another containment in the environment changes nothing" \
	"$(CONTAIN_ROOT="$OUT" "$C" --lib "$LIBCONTAIN_SO" --root "$ROOT" cat "$ROOT/file.txt" 2>/dev/null)" inside

# the layers the launcher applied are known to the command's library: with
# all of / readable a static program still runs (no probe fooled)
check "--read /: a contained shell still runs a static program" \
	"$(ct --read / sh -c '"$0" read "$1"' "$RS" "$ROOT/file.txt" 2>/dev/null)" inside

# signals: one sent to the launcher reaches the command once
cat > "$T/sigcount.py" <<'PY'
import signal, sys, time
n = 0
def h(s, f):
    global n
    n += 1
signal.signal(signal.SIGINT, h)
print("ready", flush=True)
t = time.time()
while time.time() - t < 1.5:
    time.sleep(0.05)
print(n, flush=True)
PY
out=$("$C" --lib "$LIBCONTAIN_SO" --read "$T" /usr/bin/python3 "$T/sigcount.py" 2>/dev/null & cpid=$!
	sleep 0.7; setsid kill -INT $cpid; wait $cpid)
check "SIGINT sent to contain from another process group reaches the command once" "$out" "ready
1"
out=$(timeout -s INT 0.7 "$C" --lib "$LIBCONTAIN_SO" --read "$T" /usr/bin/python3 "$T/sigcount.py" 2>/dev/null)
check "timeout (which signals contain and its group) delivers it once" "$out" "ready
1"
# a terminal's Ctrl-C reaches the command through its process group, not twice
out=$(/usr/bin/python3 - "$C" "$LIBCONTAIN_SO" "$T" <<'PY'
import os, pty, sys, time
c, lib, t = sys.argv[1:4]
pid, fd = pty.fork()
if pid == 0:
    os.execv(c, [c, "--lib", lib, "--read", t, "--", "/usr/bin/python3", t + "/sigcount.py"])
buf = b""
while b"ready" not in buf:
    buf += os.read(fd, 100)
time.sleep(0.2)
os.write(fd, b"\x03")
try:
    while True:
        d = os.read(fd, 100)
        if not d:
            break
        buf += d
except OSError:
    pass
os.waitpid(pid, 0)
print(buf.decode().replace("^C", " ").split()[-1])
PY
)
check "Ctrl-C on the terminal reaches the command once" "$out" 1

# Landlock scoping (ABI 6): no signals out, no abstract sockets made outside
sleep 30 & outside_pid=$!
ct /bin/kill -TERM $outside_pid 2>/dev/null
check "a contained program cannot signal a process outside" "$(kill -0 $outside_pid 2>&1 && echo alive)" alive
kill $outside_pid 2>/dev/null
/usr/bin/python3 -c "
import socket, sys, time
s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM); s.bind('\0libcontain-abs-$$'); s.listen(4)
open(sys.argv[1], 'w').close()
time.sleep(10)" "$T/abs-ready" & abs_pid=$!
i=0; while [ $i -lt 50 ] && [ ! -e "$T/abs-ready" ]; do sleep 0.1; i=$((i + 1)); done
out=$(ct /usr/bin/python3 -c "
import socket
s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
try:
    s.connect('\0libcontain-abs-$$'); print('connected')
except OSError as e:
    print(e.errno == 1 and 'EPERM' or e)" 2>/dev/null)
check "a contained program cannot reach an abstract socket made outside" "$out" EPERM
out=$(/usr/bin/python3 -c "
import socket
s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM); s.connect('\0libcontain-abs-$$'); print('connected')")
check "bare, it can (twin)" "$out" connected
kill $abs_pid 2>/dev/null

# the terminals: the command's own, not every /dev/pts
out=$(/usr/bin/python3 - "$C" "$LIBCONTAIN_SO" "$RS" <<'PY'
import os, subprocess, sys
c, lib, rs = sys.argv[1:4]
m, sl = os.openpty()
other = os.ttyname(sl)
os.write(m, b"typed-elsewhere\n")
r = subprocess.run([c, "--lib", lib, rs, "read", other], capture_output=True, text=True, stdin=subprocess.DEVNULL)
print(r.stdout.strip())
PY
)
check "another terminal (/dev/pts/N) cannot be read" "$out" EACCES
out=$(/usr/bin/python3 - "$C" "$LIBCONTAIN_SO" "$RS" <<'PY'
import os, subprocess, sys
c, lib, rs = sys.argv[1:4]
m, sl = os.openpty()
os.write(m, b"typed-here\n")
r = subprocess.run([c, "--lib", lib, rs, "read", os.ttyname(sl)], capture_output=True, text=True, stdin=sl)
print(r.stdout.strip())
PY
)
check "the command's own terminal can" "$out" typed-here

# TIOCSTI (typing into the user's terminal) is refused
ti() { "$@" /usr/bin/python3 -c "
import fcntl, termios, sys
try:
    fcntl.ioctl(0, termios.TIOCSTI, b'x'); print('ok')
except OSError as e:
    print({1: 'EPERM', 25: 'ENOTTY'}.get(e.errno, e))" < /dev/null 2>/dev/null; }
check "TIOCSTI is EPERM under the filter" "$(ti ct)" EPERM
check "bare, the same call reaches the tty layer (ENOTTY on /dev/null)" "$(ti env)" ENOTTY

# second review: descriptors, credentials, threads, odd environments
check "supervisor: fchownat on an O_PATH fd of an outside file is EACCES" \
	"$(ct "$RS" opath-chown "$OUT/secret.txt" 2>/dev/null)" EACCES
check "supervisor: the same on an inside file works" "$(ct "$RS" opath-chown "$ROOT/file.txt" 2>/dev/null)" ok
check "supervisor: fchmod of an inherited outside fd (stdin) is EACCES" \
	"$(ct "$RS" fdchmod < "$OUT/secret.txt" 2>/dev/null)" EACCES
check "supervisor: fchmod of an inside fd works" "$(ct "$RS" fdchmod < "$ROOT/file.txt" 2>/dev/null)" ok
check "supervisor: the outside file kept its mode after all that" "$(stat -c %a "$OUT/secret.txt")" 644
check "supervisor: chmod from a second thread works" "$(ct "$RS" threadchmod "$ROOT/file.txt" 2>/dev/null)" ok
check "supervisor: and from a second thread outside is EACCES" \
	"$(ct "$RS" threadchmod "$OUT/secret.txt" 2>/dev/null)" EACCES
if [ "$(id -u)" = 0 ] && command -v setpriv >/dev/null 2>&1; then
	touch "$ROOT/rootfile"; chmod 644 "$ROOT/rootfile"
	ct setpriv --reuid=65534 --regid=65534 --clear-groups "$RS" chmod "$ROOT/rootfile" >/dev/null 2>&1
	check "supervisor: a process that dropped root does not regain it through the supervisor" \
		"$(stat -c %a "$ROOT/rootfile")" 644
	check "supervisor: the same call with contain's credentials works" \
		"$(ct "$RS" chmod "$ROOT/rootfile" 2>/dev/null; stat -c %a "$ROOT/rootfile")" "ok
600"
fi
check "an environment entry without an equals sign does not hang the launcher" \
	"$(timeout 10 "$RS" oddenv "$C" --lib "$LIBCONTAIN_SO" /bin/echo fine 2>/dev/null)" fine

check "nothing was written outside" "$(ls "$OUT" | tr '\n' ' ')" "secret.txt t "
finish
