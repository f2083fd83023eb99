#!/bin/sh
# Unix socket paths (connect, bind, sendto), dlopen and inotify: each
# denial with its allowed twin.
. "${SRCDIR:?}/tests/integration/lib.sh"
make_fixture
cd "$ROOT" || exit 99
PY=/usr/bin/python3

# a server outside and one inside, started bare
cat > "$T/serve.py" <<'PY'
import os, socket, sys
s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
s.bind(sys.argv[1]); s.listen(4)
print("ready", flush=True)
while True:
    c, _ = s.accept(); c.sendall(b"hello\n"); c.close()
PY
$PY "$T/serve.py" "$OUT/docker.sock" > "$T/s1" & s1=$!
$PY "$T/serve.py" "$ROOT/app.sock" > "$T/s2" & s2=$!
trap 'kill $s1 $s2 2>/dev/null; rm -rf "$T"' EXIT
i=0; while [ $i -lt 50 ] && ! { [ -S "$OUT/docker.sock" ] && [ -S "$ROOT/app.sock" ]; }; do sleep 0.1; i=$((i + 1)); done

conn() {
	CT_READ="$HELPERS:$T" contained $PY -c "
import socket, sys
s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
try:
    s.connect(sys.argv[1]); print(s.recv(16).decode().strip())
except OSError as e:
    print(e.errno == 13 and 'EACCES' or e)" "$1" 2>/dev/null
}
check "connect to a socket in the root" "$(conn "$ROOT/app.sock")" "hello"
check "connect to a socket outside (docker.sock)" "$(conn "$OUT/docker.sock")" "EACCES"
ln -s "$OUT/docker.sock" "$ROOT/sock-link"
check "connect through an outward link" "$(conn "$ROOT/sock-link")" "EACCES"
check "the outside socket works bare" "$($PY -c "
import socket, sys
s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM); s.connect(sys.argv[1]); print(s.recv(16).decode().strip())" "$OUT/docker.sock")" "hello"

bindp() {
	contained $PY -c "
import socket, sys
s = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
try:
    a = sys.argv[1]
    s.bind('\0' + a[1:] if a.startswith('@') else a); print('ok')
except OSError as e:
    print(e.errno == 13 and 'EACCES' or e)" "$1" 2>/dev/null
}
check "bind a socket in the root" "$(bindp "$ROOT/new.sock")" "ok"
check "bind a socket outside" "$(bindp "$OUT/new.sock")" "EACCES"
test -e "$OUT/new.sock" && not_ok "an outside socket was made" || ok "no outside socket was made"
check "abstract addresses pass" "$(bindp "@libcontain-test-$$")" "ok"
test -e "$ROOT/@libcontain-test-$$" && not_ok "the abstract name made a file" || ok "no file for the abstract name"
check "sendto a datagram socket in the root" "$(contained $PY -c "
import socket, sys
s = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
r = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM); r.bind(sys.argv[1])
s.sendto(b'x', sys.argv[1]); print(r.recv(4).decode())" "$ROOT/dg.sock" 2>/dev/null)" "x"

# dlopen of a library by path
cp /lib/x86_64-linux-gnu/libm.so.6 "$ROOT/libm-copy.so" && cp /lib/x86_64-linux-gnu/libm.so.6 "$OUT/libm-copy.so"
dl() { contained $PY -c "
import ctypes, sys
try:
    ctypes.CDLL(sys.argv[1]); print('ok')
except OSError as e:
    print('failed')" "$1" 2>/dev/null; }
check "dlopen a library in the root" "$(dl "$ROOT/libm-copy.so")" "ok"
check "dlopen a library outside" "$(dl "$OUT/libm-copy.so")" "failed"

# inotify
iw() { contained $PY -c "
import ctypes, sys
l = ctypes.CDLL(None, use_errno=True); fd = l.inotify_init()
print('ok' if l.inotify_add_watch(fd, sys.argv[1].encode(), 2) > 0 else 'errno %d' % ctypes.get_errno())" "$1" 2>/dev/null; }
check "inotify watch in the root" "$(iw "$ROOT/file.txt")" "ok"
check "inotify watch outside" "$(iw "$OUT/secret.txt")" "errno 13"
# POSIX IPC: a namespace per root
shm() { contained $PY -c "
import ctypes, os, sys
l = ctypes.CDLL(None, use_errno=True)
fd = l.shm_open(b'/libcontain-test-$$', os.O_RDWR | (os.O_CREAT if sys.argv[1] == 'create' else 0), 0o600)
print('ok' if fd >= 0 else 'errno %d' % ctypes.get_errno())" "$1" 2>/dev/null; }
check "shm_open creates in the root's namespace" "$(shm create)" "ok"
check "another process of the root sees it" "$(shm open)" "ok"
test -e "/dev/shm/libcontain-test-$$" && not_ok "the bare name exists in /dev/shm" || ok "the bare name is not used"
check "it lives under a root-tagged name" "$(ls /dev/shm | grep -c "^ct[0-9a-f]*\.libcontain-test-$$\$")" "1"
rm -f /dev/shm/ct*.libcontain-test-$$
check "python multiprocessing locks (sem_open) work" \
	"$(contained $PY -c 'import multiprocessing as m; l = m.Lock(); l.acquire(); l.release(); print("ok")' 2>/dev/null)" "ok"
finish
