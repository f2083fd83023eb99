/*
 * contain: run a command inside a directory tree.
 *
 *   contain [OPTIONS] [--] COMMAND [ARGS...]
 *
 * Sets up the environment and LD_PRELOAD for libcontain.so (found next to
 * this program, or in the directory it was installed to), checks that the
 * library loads, applies the kernel layers (Landlock, seccomp) in the child
 * before it executes the command, and waits for the library's handshake
 * from inside the command: a preload that did not load never means an
 * uncontained run. Exits with the command's status (128+N for signal N).
 * Its own failures: 125 (usage, library, handshake), 126 (the command
 * cannot be run contained), 127 (the command was not found). See contain(1).
 */
#include "config.h"

#include <dlfcn.h>
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <sys/auxv.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/seccomp.h>
#include <sys/mman.h>
#include <poll.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "contain.h"
#include "supervise.h"
#include "sys.h"

#if defined(__x86_64__)
#define OWN_MACHINE EM_X86_64
#elif defined(__aarch64__)
#define OWN_MACHINE EM_AARCH64
#else
#define OWN_MACHINE EM_NONE	/* never matches: the kernel layers hold all */
#endif

#define EXIT_LAUNCHER 125
#define EXIT_CANNOT_RUN 126
#define EXIT_NOT_FOUND 127

#ifndef CONTAIN_LIBDIR
#define CONTAIN_LIBDIR "/usr/local/lib"
#endif

static const char *prog = "contain";
extern char **environ;

__attribute__((format(printf, 2, 3), noreturn)) static void die(int code, const char *fmt, ...);
static void die(int code, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "%s: ", prog);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	exit(code);
}

static void usage(FILE *f)
{
	fprintf(f,
		"usage: contain [--root DIR] [--read DIR]... [--write DIR]... [--deny PATH]...\n"
		"               [--log FILE] [--layers LIST] [--lib PATH] [--] COMMAND [ARGS...]\n"
		"\n"
		"Run COMMAND with every file access kept inside DIR (default: the current\n"
		"directory), read-only system trees and the trees given.\n"
		"\n"
		"  --root DIR      the writable tree (default: .)\n"
		"  --read DIR      also readable (repeatable)\n"
		"  --write DIR     also writable (repeatable)\n"
		"  --deny PATH     never accessible, even inside a tree (repeatable)\n"
		"  --log FILE      denials as JSON lines to FILE (default: stderr)\n"
		"  --layers LIST   auto (default), none, or landlock,seccomp,supervisor\n"
		"  --lib PATH      the libcontain.so to preload\n"
		"  --strict        also supervise stat, access, readlink, getxattr (no\n"
		"                  existence oracle for raw-syscall programs; slower)\n"
		"  --version       the version and the layers this kernel supports\n"
		"  --help          this text\n"
		"\n"
		"Example:\n"
		"  contain --root ~/src/app --deny ~/src/app/.env -- rg --follow password\n"
		"\n"
		"Exit status: COMMAND's, or 128+N if signal N ended it; 125 contain failed,\n"
		"126 COMMAND cannot be run contained, 127 COMMAND not found.\n");
}

/* A colon list built from repeated options. */
static void append(char **list, const char *opt, const char *v)
{
	size_t n = *list ? strlen(*list) : 0, k = strlen(v);
	char *s;

	if (!*v || strchr(v, ':'))
		die(EXIT_LAUNCHER, "%s \"%s\": a path may not be empty or hold ':'", opt, v);
	s = realloc(*list, n + k + 2);
	if (!s)
		die(EXIT_LAUNCHER, "out of memory");
	if (n)
		s[n++] = ':';
	memcpy(s + n, v, k + 1);
	*list = s;
}

/* The library: --lib, $CONTAIN_LIB, next to this program (a build tree:
 * .libs/libcontain.so), ../lib of it, or the configured libdir. */
static char *find_library(const char *given)
{
	char exe[PATH_MAX], cand[PATH_MAX + 64], *slash;
	const char *env = getenv("CONTAIN_LIB");
	ssize_t n;

	if (given || (env && *env)) {
		const char *s = given ? given : env;
		char *r = realpath(s, NULL);

		if (!r)
			die(EXIT_LAUNCHER, "the library \"%s\": %s", s, strerror(errno));
		return r;
	}
	n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	if (n > 0) {
		exe[n] = 0;
		slash = strrchr(exe, '/');
		if (slash) {
			*slash = 0;
			snprintf(cand, sizeof(cand), "%s/.libs/libcontain.so", exe);
			if (access(cand, R_OK) == 0)
				return realpath(cand, NULL);
			snprintf(cand, sizeof(cand), "%s/../lib/libcontain.so", exe);
			if (access(cand, R_OK) == 0)
				return realpath(cand, NULL);
		}
	}
	snprintf(cand, sizeof(cand), "%s/libcontain.so", CONTAIN_LIBDIR);
	if (access(cand, R_OK) == 0)
		return realpath(cand, NULL);
	die(EXIT_LAUNCHER, "libcontain.so not found (looked next to this program and in %s); "
	    "give it with --lib", CONTAIN_LIBDIR);
	return NULL;
}

/* Load the library here, opted out, and ask its version: a library that
 * would not load in the child is found before anything runs. */
static void preflight(const char *lib)
{
	const char *(*ver)(void);
	void *h;

	/* no policy of an enclosing containment may switch the library on in
	 * the launcher itself: every CONTAIN_* goes (main sets its own), also
	 * an entry without '=', which unsetenv cannot name */
	{
		size_t n = 0, k = 0;
		char **env;

		while (environ[n])
			n++;
		env = calloc(n + 1, sizeof(char *));
		if (!env)
			die(EXIT_LAUNCHER, "out of memory");
		for (size_t j = 0; j < n; j++)
			if (strncmp(environ[j], "CONTAIN_", 8) != 0)
				env[k++] = environ[j];
		environ = env;
	}
	setenv("CONTAIN_OPTOUT", "1", 1);
	h = dlopen(lib, RTLD_NOW | RTLD_LOCAL);
	unsetenv("CONTAIN_OPTOUT");
	if (!h)
		die(EXIT_LAUNCHER, "cannot load the library: %s", dlerror());
	ver = (const char *(*)(void))dlsym(h, "libcontain_version");
	if (!ver || strncmp(ver(), PACKAGE_VERSION " ", strlen(PACKAGE_VERSION) + 1) != 0)
		die(EXIT_LAUNCHER, "%s is not libcontain %s", lib, PACKAGE_VERSION);
}

/* COMMAND as execvp would find it; exits 127 when it is not there. */
static char *find_command(const char *cmd)
{
	const char *path = getenv("PATH"), *s;
	char *buf;

	if (strchr(cmd, '/')) {
		if (access(cmd, F_OK) != 0)
			die(EXIT_NOT_FOUND, "%s: %s", cmd, strerror(errno));
		return strdup(cmd);
	}
	if (!path)
		path = "/usr/local/bin:/usr/bin:/bin";
	buf = malloc(strlen(path) + strlen(cmd) + 3);
	if (!buf)
		die(EXIT_LAUNCHER, "out of memory");
	for (s = path;;) {
		size_t n = strcspn(s, ":");

		if (n)
			memcpy(buf, s, n);
		else
			buf[n++] = '.';	/* an empty entry: the current directory */
		buf[n] = '/';
		strcpy(buf + n + 1, cmd);
		if (access(buf, X_OK) == 0)
			return buf;
		if (!s[n])
			break;
		s += n + 1;
	}
	die(EXIT_NOT_FOUND, "%s: command not found", cmd);
	return NULL;
}

/* Is path the very loader this launcher runs under (same file)? */
static int our_loader(const char *path)
{
	Dl_info info;
	struct stat a, b;

	if (!dladdr((void *)getauxval(AT_BASE), &info) || !info.dli_fname)
		return 0;
	return stat(info.dli_fname, &a) == 0 && stat(path, &b) == 0 && a.st_dev == b.st_dev &&
	       a.st_ino == b.st_ino;
}

/*
 * Will the preload load into this program? A dynamic ELF of this ABI whose
 * PT_INTERP is this system's loader, or a #! script whose interpreter is
 * (checked the same way, a few levels deep). 0 means the kernel layers alone
 * must hold it (static, musl, another ABI, a loader of its own). A file that
 * cannot be read: 1, exec will say why.
 */
static int preloadable_at(const char *path, int depth)
{
	unsigned char head[4096];
	Elf64_Ehdr *eh = (Elf64_Ehdr *)head;
	ssize_t n;
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return depth == 0;
	n = pread(fd, head, sizeof(head) - 1, 0);
	close(fd);
	if (n >= 2 && head[0] == '#' && head[1] == '!') {
		char *s = (char *)head + 2, *e;

		if (depth >= 4)
			return 0;
		head[n] = 0;
		s += strspn(s, " \t");
		e = s + strcspn(s, " \t\n");
		if (e == s || !*e)
			return 0;
		*e = 0;
		return preloadable_at(s, depth + 1);
	}
	if (n >= 4 && memcmp(head, ELFMAG, SELFMAG) != 0)
		return depth == 0;	/* no #!, not ELF: run by /bin/sh (ENOEXEC) */
	if (n < (ssize_t)sizeof(Elf64_Ehdr) || memcmp(head, ELFMAG, SELFMAG) != 0 ||
	    head[EI_CLASS] != ELFCLASS64 || eh->e_machine != OWN_MACHINE ||
	    eh->e_phentsize < sizeof(Elf64_Phdr) || eh->e_phoff >= (Elf64_Off)n)
		return 0;
	for (unsigned i = 0; i < eh->e_phnum; i++) {
		size_t at = (size_t)eh->e_phoff + (size_t)i * eh->e_phentsize;
		Elf64_Phdr *ph;
		char interp[256];

		if (at >= (size_t)n || (size_t)n - at < sizeof(*ph))
			return 0;
		ph = (Elf64_Phdr *)(head + at);
		if (ph->p_type != PT_INTERP)
			continue;
		if (ph->p_filesz >= sizeof(interp) || ph->p_offset >= (Elf64_Off)n ||
		    ph->p_filesz > (Elf64_Xword)n - ph->p_offset)
			return 0;
		memcpy(interp, head + ph->p_offset, ph->p_filesz);
		interp[ph->p_filesz] = 0;
		return our_loader(interp);
	}
	return 0;
}

static int preloadable(const char *path)
{
	return preloadable_at(path, 0);
}

/* --layers: auto (what this kernel has), none, or a list, each required. */
static unsigned parse_layers(const char *s, int strict)
{
	unsigned want, have = (ct_landlock_abi() ? CT_LAYER_LANDLOCK : 0) | CT_LAYER_SECCOMP |
			      (sv_available() ? CT_LAYER_SUPERVISOR : 0);
	int is_auto;

	if (ct_layers_parse(s, &want, &is_auto) < 0)
		die(EXIT_LAUNCHER, "--layers \"%s\": unknown layer (auto, none, or a list of "
		    "landlock, seccomp, supervisor)", s);
	if (is_auto)
		want = have;
	else if (want & ~have)
		die(EXIT_CANNOT_RUN, "--layers \"%s\": %s is not available on this system", s,
		    (want & ~have & CT_LAYER_LANDLOCK) ? "landlock (Linux 5.13+)" : "the supervisor");
	if (strict && !(want & CT_LAYER_SUPERVISOR))
		die(EXIT_CANNOT_RUN, "--strict needs the supervisor layer (libseccomp notify, Linux 5.0+)");
	return want;
}

/* Can this kernel install a seccomp filter? (NULL program: EFAULT if so) */
static int prctl_seccomp_ok(void)
{
	return prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, NULL) < 0 && errno == EFAULT;
}

static void version(void)
{
	int abi = ct_landlock_abi();

	printf("contain %s\n", PACKAGE_VERSION);
	printf("layers on this kernel:\n");
	printf("  interposer  yes (libcontain.so, LD_PRELOAD)\n");
	if (abi)
		printf("  landlock    yes (ABI %d)\n", abi);
	else
		printf("  landlock    no (needs Linux 5.13+ with landlock in lsm=)\n");
	printf("  seccomp     %s\n", prctl_seccomp_ok() ? "yes" : "no");
	printf("  supervisor  %s\n", sv_available() ? "yes (seccomp user notification)" : "no");
}

static pid_t child;
static int auto_layers;

/* What the child's side said: the library's line, an exec error, a
 * refusal, or nothing (exec happened; a program the preload does not enter
 * closes the pipe at exec). Exits on anything but success. */
static void handshake_done(const char *line, int need_handshake, const char *cmd)
{
	int st;

	if (line[0] == 'E') {
		int en = atoi(line + 1);

		waitpid(child, &st, 0);
		die(en == ENOENT ? EXIT_NOT_FOUND : EXIT_CANNOT_RUN, "%s: %s", cmd, strerror(en));
	}
	if (line[0] == 'R') {
		waitpid(child, &st, 0);
		die(EXIT_CANNOT_RUN, "%s", line + 1);
	}
	if (need_handshake && (line[0] != 'L' || !strstr(line, "(active"))) {
		/* exec'd, but the library never spoke: whatever runs is not
		 * interposed (the kernel layers, if any, still hold it) */
		kill(child, SIGKILL);
		waitpid(child, &st, 0);
		die(EXIT_LAUNCHER, "the library did not load in %s: stopped it rather than let it run "
		    "uncontained", cmd);
	}
}

/* A signal another process sent to the launcher goes on to the command; one
 * the kernel generated (Ctrl-C, hangup on the terminal) reached the command
 * too, through its process group: passing it on would deliver it twice. */
static void forward(int sig, siginfo_t *si, void *uc)
{
	int e = errno;

	(void)uc;
	/* a sender in our own process group most likely signalled the group
	 * (timeout, kill -PGID, the shell's kill %1), which the command is in */
	if (child > 0 && si->si_code <= 0 && (si->si_pid <= 0 || getpgid(si->si_pid) != getpgrp()))
		kill(child, sig);
	errno = e;
}

int main(int argc, char **argv)
{
	char *root = NULL, *reads = NULL, *writes = NULL, *deny = NULL, *log = NULL, *layers = NULL;
	char *lib_opt = NULL, *lib, *cmd, *preload, cwd[PATH_MAX], err[1024], line[256];
	int i, hs[2], sv[2], st = 0, need_handshake, got = 0, hs_open = 1, nfd = -1, pidfd, strict = 0;
	unsigned want;
	char *tmpdir;
	struct ct_policy *p;
	struct ct_env e;
	size_t len = sizeof(*p) + 1024 * 1024;
	ssize_t n;

	for (i = 1; i < argc; i++) {
		const char *a = argv[i];
		const char *v = i + 1 < argc ? argv[i + 1] : NULL;

		if (!strcmp(a, "--")) {
			i++;
			break;
		}
		if (a[0] != '-')
			break;
		if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
			usage(stdout);
			return 0;
		}
		if (!strcmp(a, "--version")) {
			version();
			return 0;
		}
		if (!strcmp(a, "--strict")) {
			strict = 1;
			continue;
		}
		if (!v)
			die(EXIT_LAUNCHER, "%s needs a value (see contain --help)", a);
		if (!strcmp(a, "--root"))
			root = argv[++i];
		else if (!strcmp(a, "--read"))
			append(&reads, a, argv[++i]);
		else if (!strcmp(a, "--write"))
			append(&writes, a, argv[++i]);
		else if (!strcmp(a, "--deny"))
			append(&deny, a, argv[++i]);
		else if (!strcmp(a, "--log"))
			log = argv[++i];
		else if (!strcmp(a, "--layers"))
			layers = argv[++i];
		else if (!strcmp(a, "--lib"))
			lib_opt = argv[++i];
		else
			die(EXIT_LAUNCHER, "unknown option %s (see contain --help)", a);
	}
	if (i >= argc) {
		usage(stderr);
		return EXIT_LAUNCHER;
	}
	if (!root) {
		if (!getcwd(cwd, sizeof(cwd)))
			die(EXIT_LAUNCHER, "cannot find the current directory: %s", strerror(errno));
		root = cwd;
	}
	want = parse_layers(layers ? layers : "auto", strict);
	{
		unsigned ignored;

		ct_layers_parse(layers, &ignored, &auto_layers);
	}
	lib = find_library(lib_opt);
	tmpdir = getenv("CONTAIN_TMPDIR") ? strdup(getenv("CONTAIN_TMPDIR")) : NULL;
	preflight(lib);
	cmd = find_command(argv[i]);

	/* preflight removed every inherited CONTAIN_*; the policy's own
	 * variables (the root, the trees, LD_PRELOAD, the resolved policy) are
	 * set from its snapshot below, as a contained parent gives a child */
	/* the library in the command applies nothing more: the child did */
	setenv("CONTAIN_LAYERS", *ct_layer_names(want) ? ct_layer_names(want) : "none", 1);
	/* what holds the command, for its library (it takes the resolved
	 * policy as a child does, and believes what its parent applied) */
	setenv("CONTAIN_KERNEL", ct_layer_names(want), 1);
	{
		const char *old = getenv("LD_PRELOAD");

		preload = malloc(strlen(lib) + (old ? strlen(old) : 0) + 2);
		if (!preload)
			die(EXIT_LAUNCHER, "out of memory");
		sprintf(preload, "%s%s%s", lib, old ? ":" : "", old ? old : "");
	}

	/* the policy, resolved here with the library's own code: a bad one is
	 * refused before anything runs */
	p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED)
		die(EXIT_LAUNCHER, "out of memory");
	memset(&e, 0, sizeof(e));
	e.root = root;
	e.read = reads;
	e.write = writes;
	e.deny = deny;
	e.log = log;
	e.tmpdir = tmpdir;
	e.preload = preload;
	e.self_path = lib;
	e.create_tmpdir = 1;
	if (ct_policy_load(p, len, &e, err, sizeof(err)) < 0)
		die(EXIT_CANNOT_RUN, "%s", err);

	/* what a contained parent gives its children (the resolved root, the
	 * private TMPDIR, the resolved policy): the command's library loads it
	 * with no system call instead of resolving every tree again */
	for (int k = 0; k < p->nenv; k++) {
		const char *eq = strchr(p->env[k], '=');
		char name[64];

		if (eq && (size_t)(eq - p->env[k]) < sizeof(name)) {
			memcpy(name, p->env[k], (size_t)(eq - p->env[k]));
			name[eq - p->env[k]] = 0;
			setenv(name, eq + 1, 1);
		}
	}
	need_handshake = preloadable(cmd);
	if (pipe2(hs, O_CLOEXEC) != 0 || socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) != 0)
		die(EXIT_LAUNCHER, "pipe: %s", strerror(errno));
	child = fork();
	if (child < 0)
		die(EXIT_LAUNCHER, "fork: %s", strerror(errno));
	if (child == 0) {
		char msg[1200], num[16];

		close(hs[0]);
		close(sv[0]);
		/* exec gains no privilege: a set-user-ID program keeps the
		 * preload (the loader would drop it in secure-execution mode) */
		if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0) {
			snprintf(msg, sizeof(msg), "Rno-new-privs: %s", strerror(errno));
			goto refuse;
		}
		if (want & CT_LAYER_LANDLOCK) {
			if (ct_landlock_apply(p, err, sizeof(err)) < 0) {
				snprintf(msg, sizeof(msg), "R%s", err);
				goto refuse;
			}
			setenv("CONTAIN_LANDLOCKED", "1", 1);
		}
		if ((want & CT_LAYER_SECCOMP) && !ct_seccomp_present() && ct_seccomp_install(err, sizeof(err)) < 0) {
			snprintf(msg, sizeof(msg), "R%s", err);
			goto refuse;
		}
		if (!need_handshake && (want & (CT_LAYER_LANDLOCK | CT_LAYER_SECCOMP)) != (CT_LAYER_LANDLOCK | CT_LAYER_SECCOMP)) {
			snprintf(msg, sizeof(msg), "R%s: a static or foreign program, which the preload cannot "
				 "enter, runs only under Landlock and seccomp, and they are not both in "
				 "force (--layers, or this kernel)", cmd);
			goto refuse;
		}
		if (want & CT_LAYER_SUPERVISOR) {
			/* last: from here on the calls it names wait for the
			 * launcher, which serves them once it has the listener */
			int lfd = sv_install(strict, err, sizeof(err));

			if (lfd < 0 && auto_layers && !strict) {
				/* nested in another contain: the kernel takes one
				 * listener per filter chain; the enclosing supervisor
				 * answers these calls (with its own, wider policy) */
				char note[1100];

				snprintf(note, sizeof(note), "contain: %s; the enclosing supervisor answers", err);
				fprintf(stderr, "%s\n", note);
			} else if (lfd < 0) {
				snprintf(msg, sizeof(msg), "R%s", err);
				goto refuse;
			}
			if (lfd >= 0 && sv_send_fd(sv[1], lfd) < 0) {
				snprintf(msg, sizeof(msg), "Rsupervisor: cannot pass the listener: %s",
					 strerror(errno));
				goto refuse;
			}
			if (lfd >= 0)
				close(lfd);
		}
		close(sv[1]);
		if (need_handshake) {
			/* the handshake end survives exec; the library closes it */
			int keep = dup(hs[1]);

			if (keep < 0) {
				snprintf(msg, sizeof(msg), "Rdup: %s", strerror(errno));
				goto refuse;
			}
			snprintf(num, sizeof(num), "%d", keep);
			setenv("CONTAIN_HANDSHAKE", num, 1);
		}
		execv(cmd, argv + i);
		if (errno == ENOEXEC) {
			/* as execvp: a file without #! is a shell script */
			int argn = argc - i;
			char **sa = calloc((size_t)argn + 2, sizeof(char *));

			if (sa) {
				sa[0] = (char *)"/bin/sh";
				sa[1] = cmd;
				for (int k = 1; k < argn; k++)
					sa[k + 1] = argv[i + k];
				execv("/bin/sh", sa);
			}
			errno = ENOEXEC;
		}
		snprintf(msg, sizeof(msg), "E%d", errno);
refuse:
		(void)!write(hs[1], msg, strlen(msg));
		_exit(EXIT_CANNOT_RUN);
	}
	close(hs[1]);
	close(sv[1]);
	{
		struct sigaction sa;
		const int sigs[] = { SIGINT, SIGTERM, SIGHUP, SIGQUIT };

		memset(&sa, 0, sizeof(sa));
		sa.sa_sigaction = forward;
		sa.sa_flags = SA_SIGINFO | SA_RESTART;
		sigemptyset(&sa.sa_mask);
		for (size_t k = 0; k < sizeof(sigs) / sizeof(sigs[0]); k++)
			sigaction(sigs[k], &sa, NULL);
	}
	if (want & CT_LAYER_SUPERVISOR)
		nfd = sv_recv_fd(sv[0]);	/* -1: the child failed first (its line says why) */
	close(sv[0]);
	pidfd = (int)syscall(SYS_pidfd_open, child, 0);
	fcntl(hs[0], F_SETFL, O_NONBLOCK);

	/* serve the supervisor, read the handshake, wait for the child */
	for (;;) {
		struct pollfd pf[3];
		int k = 0, ihs = -1, inf = -1, ipid = -1;

		if (hs_open)
			ihs = k, pf[k++] = (struct pollfd){ hs[0], POLLIN, 0 };
		if (nfd >= 0)
			inf = k, pf[k++] = (struct pollfd){ nfd, POLLIN, 0 };
		if (pidfd >= 0)
			ipid = k, pf[k++] = (struct pollfd){ pidfd, POLLIN, 0 };
		if (k == 0 || poll(pf, (nfds_t)k, pidfd >= 0 ? -1 : 100) < 0) {
			if (k && errno == EINTR)
				continue;
		}
		if (ihs >= 0 && pf[ihs].revents) {
			n = read(hs[0], line + got, sizeof(line) - 1 - (size_t)got);
			if (n > 0)
				got += (int)n;
			if (n == 0 || (n < 0 && errno != EAGAIN && errno != EINTR) || memchr(line, '\n', (size_t)got) ||
			    got >= (int)sizeof(line) - 1) {
				hs_open = 0;
				line[got] = 0;
				close(hs[0]);
				handshake_done(line, need_handshake, cmd);
			}
		}
		if (inf >= 0 && (pf[inf].revents & POLLIN))
			sv_handle(nfd, p);
		else if (inf >= 0 && (pf[inf].revents & (POLLHUP | POLLERR))) {
			close(nfd);
			nfd = -1;
		}
		if ((ipid >= 0 && (pf[ipid].revents & POLLIN)) || (pidfd < 0 && waitpid(child, &st, WNOHANG) == child)) {
			if (hs_open)
				continue;	/* what the child wrote comes first */
			if (pidfd >= 0)
				while (waitpid(child, &st, 0) < 0)
					if (errno != EINTR)
						die(EXIT_LAUNCHER, "waitpid: %s", strerror(errno));
			break;
		}
	}
	if (WIFSIGNALED(st))
		return 128 + WTERMSIG(st);
	return WEXITSTATUS(st);
}
