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

check "nothing was written outside" "$(ls "$OUT" | tr '\n' ' ')" "secret.txt t "
finish
