/*
 * exec.c: the exec family, posix_spawn, system and popen.
 *
 * A program may run if it lies in a tree granting exec, is an ELF with a
 * program interpreter (the loader will preload libcontain.so into it) or a
 * #! script whose interpreter passes the same test. A static binary would run
 * uncontained: it is refused until the kernel backstop holds it.
 *
 * Every child's environment is the caller's with LD_PRELOAD, CONTAIN_* and
 * TMPDIR replaced by the snapshot taken at load, built in a private mapping
 * (no malloc: execve and the vfork children of posix_spawn may be here). An
 * ELF program is executed through the fd that was checked (execveat with
 * AT_EMPTY_PATH), so what is checked is what runs.
 */
#include "config.h"

#include <dlfcn.h>
#include <sys/auxv.h>
#include <sys/sysmacros.h>
#include <elf.h>
#include <errno.h>
#include <limits.h>
#include <spawn.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <wordexp.h>

#include "contain.h"
#include "interpose.h"
#include "report.h"
#include "sys.h"

extern char **environ;

#if defined(__x86_64__)
#define CT_ELF_MACHINE EM_X86_64
#elif defined(__aarch64__)
#define CT_ELF_MACHINE EM_AARCH64
#endif

/* glibc declares these arguments nonnull; programs pass NULL all the same.
 * An out-of-line test keeps the compiler from assuming the answer. */
__attribute__((noinline)) int ct_is_null(const void *ptr)
{
	return ptr == NULL;
}

/* ------------------------------------------------------------------ */
/* environment                                                          */

/*
 * Loader and libc variables that run code outside the preload or write
 * files unchecked: LD_AUDIT loads a library into its own namespace with its
 * own libc (no preload there), LD_DEBUG_OUTPUT, LD_PROFILE(_OUTPUT) and
 * MALLOC_TRACE make the loader or libc write files by name. No child gets
 * them; LD_PRELOAD and CONTAIN_* come back from the snapshot.
 */
static const char *const dropped_vars[] = {
	"LD_PRELOAD=", "CONTAIN_", "LD_AUDIT=", "LD_DEBUG_OUTPUT=", "LD_PROFILE=",
	"LD_PROFILE_OUTPUT=", "MALLOC_TRACE=",
};

CT_START_TEXT
static int is_policy_var(const struct ct_policy *p, const char *s)
{
	size_t i;

	for (i = 0; i < sizeof(dropped_vars) / sizeof(dropped_vars[0]); i++)
		if (strncmp(s, dropped_vars[i], strlen(dropped_vars[i])) == 0)
			return 1;
	return p->tmpdir && strncmp(s, "TMPDIR=", 7) == 0;
}

struct envbuf {
	char **env;
	size_t maplen;
};

/*
 * The child's environment: envp less the policy variables, plus the
 * snapshot. In room (roomlen bytes) when it fits, else in a mapping of its
 * own (out->maplen is then its length, and free_env unmaps it).
 */
static int build_env_in(const struct ct_policy *p, char *const envp[], struct envbuf *out,
			void *room, size_t roomlen)
{
	size_t n = 0, k = 0, i, need;
	char **env;

	while (envp && envp[n])
		n++;
	need = (n + (size_t)p->nenv + 1) * sizeof(char *);
	if (room && need <= roomlen) {
		env = room;
		out->maplen = 0;
	} else {
		out->maplen = (need + 4095) & ~(size_t)4095;
		env = mmap(NULL, out->maplen, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (env == MAP_FAILED) {
			errno = ENOMEM;
			return -1;
		}
	}
	for (i = 0; i < n; i++)
		if (!is_policy_var(p, envp[i]))
			env[k++] = envp[i];
	for (i = 0; i < (size_t)p->nenv; i++)
		env[k++] = (char *)p->env[i];
	env[k] = NULL;
	out->env = env;
	return 0;
}

static int build_env(const struct ct_policy *p, char *const envp[], struct envbuf *out)
{
	return build_env_in(p, envp, out, NULL, 0);
}

static void free_env(struct envbuf *b)
{
	int e = errno;

	if (b->env && b->maplen)
		munmap(b->env, b->maplen);
	b->env = NULL;
	errno = e;
}

/*
 * posix_spawn's scratch (4 pages), kept for the next call (ct_kept): a
 * fresh mapping costs mmap, munmap and a page fault per page touched at
 * every spawn (about 40 us here). Only the parent side of posix_spawn uses
 * it; an exec wrapper may run in a vfork child, whose exec would leave the
 * slot empty for good (a leak per exec), so they map.
 */
static struct ct_kept spawn_scratch = { NULL, 4 * 4096 };

/*
 * Set "NAME=value" (entry persists) in environ by hand: programs such as
 * bash define their own setenv(), which does nothing useful before their
 * main() runs. Replacing a pointer in place keeps main()'s envp in step.
 */
CT_START_TEXT
static void env_put(const char *value)
{
	/* a writable copy: bash writes into its environment strings */
	char *entry = strdup(value);
	size_t nl, n = 0, i;
	char **ne;

	if (!entry)
		return;
	nl = (size_t)(strchr(entry, '=') - entry) + 1;

	while (environ && environ[n])
		n++;
	for (i = 0; i < n; i++) {
		if (strncmp(environ[i], entry, nl) == 0) {
			environ[i] = entry;
			return;
		}
	}
	ne = malloc((n + 2) * sizeof(*ne));
	if (!ne)
		return;
	if (n)
		memcpy(ne, environ, n * sizeof(*ne));
	ne[n] = entry;
	ne[n + 1] = NULL;
	environ = ne;
}

CT_START_TEXT
static void env_drop(const char *prefix)
{
	size_t pl = strlen(prefix), i, k = 0;

	for (i = 0; environ && environ[i]; i++)
		if (strncmp(environ[i], prefix, pl) != 0)
			environ[k++] = environ[i];
	if (environ)
		environ[k] = NULL;
}

/*
 * Could dir lie in a tree? Lexically, through at most one alias at its top
 * (/bin -> usr/bin): no system call, this runs in every process at load.
 */
/* A directory behind a load-time alias (/bin -> usr/bin): its buffers are
 * out of line, so the common case below costs no stack pages. */
CT_START_TEXT
static __attribute__((noinline)) int maybe_inside_alias(const struct ct_policy *p, const char *dir,
							size_t n)
{
	char path[4096], buf[CT_ALIAS_BUF];

	if (n >= sizeof(path))
		return 0;
	memcpy(path, dir, n);
	path[n] = 0;
	return ct_tree_lexical(p, path, buf, sizeof(buf)) >= 0;
}

CT_START_TEXT
static int maybe_inside(const struct ct_policy *p, const char *dir, size_t n)
{
	while (n > 1 && dir[n - 1] == '/')
		n--;
	return ct_tree_for(p, dir, n, 0) >= 0 || maybe_inside_alias(p, dir, n);
}

/* PATH without the entries outside the trees, or NULL when unchanged. */
static char *filter_path(const struct ct_policy *p, const char *path)
{
	size_t len = strlen(path);
	char *keep, *dir;
	const char *s = path;
	size_t k = 5;
	int changed = 0;

	/* the common case, a PATH already filtered by the parent: no copy */
	for (s = path; s; ) {
		const char *c = strchr(s, ':');
		size_t n = c ? (size_t)(c - s) : strlen(s);

		if (n && s[0] == '/' && !maybe_inside(p, s, n))
			break;
		s = c ? c + 1 : NULL;
	}
	if (!s)
		return NULL;
	s = path;
	keep = malloc(len + 6);
	dir = malloc(len + 1);
	if (!keep || !dir) {
		free(keep);
		free(dir);
		return NULL;
	}
	memcpy(keep, "PATH=", 5);
	while (s) {
		const char *c = strchr(s, ':');
		size_t n = c ? (size_t)(c - s) : strlen(s);
		int keepit = 1;

		memcpy(dir, s, n);
		dir[n] = 0;
		if (n && dir[0] == '/' && !maybe_inside(p, dir, n))
			keepit = 0;
		if (keepit) {
			if (k > 5)
				keep[k++] = ':';
			memcpy(keep + k, dir, n);
			k += n;
		} else {
			changed = 1;
		}
		s = c ? c + 1 : NULL;
	}
	keep[k] = 0;
	free(dir);
	if (!changed) {
		free(keep);
		return NULL;
	}
	return keep;
}

/*
 * Variables that make glibc open files by name with its internal open (no
 * wrapper sees it): TZ and TZDIR (zone files), LOCPATH (locales), NLSPATH
 * (message catalogs), GCONV_PATH (iconv modules, loaded as code),
 * HOSTALIASES, DATEMSK; and the locale names glibc puts into such paths
 * (LANG, LC_*, LANGUAGE: NLSPATH's %L, gettext's catalogs). One that names a
 * place outside the trees is removed at load (and reported), so neither
 * this process nor its children use it; setenv/putenv refuse it.
 */
static const char *const steer_vars[] = {
	"TZ=", "TZDIR=", "LOCPATH=", "NLSPATH=", "GCONV_PATH=", "HOSTALIASES=", "DATEMSK=",
	"LANG=", "LANGUAGE=", "LC_ALL=", "LC_CTYPE=", "LC_NUMERIC=", "LC_TIME=", "LC_COLLATE=",
	"LC_MONETARY=", "LC_MESSAGES=", "LC_PAPER=", "LC_NAME=", "LC_ADDRESS=", "LC_TELEPHONE=",
	"LC_MEASUREMENT=", "LC_IDENTIFICATION=",
};

static int in_read_only_tree(const struct ct_policy *p, const char *path);

/*
 * Is the n bytes at s, a path, lexically in a tree, and (where it exists)
 * does it resolve inside one? A link inside that points out fails.
 * dir_ro: it must also lie in a read-only tree (not /proc): glibc appends
 * names to it (zone, locale, module names) and reads configuration from it
 * (gconv-modules), so the program must not be able to plant links or files
 * there.
 */
static int steer_path_ok(const struct ct_policy *p, const char *s, size_t n, int dir_ro)
{
	struct ct_verdict v;
	struct ct_req rq = { AT_FDCWD, NULL, O_PATH | O_CLOEXEC, 0, CT_R, 1 };
	char *path;
	int fd, ok;

	if (s[0] != '/' || memmem(s, n, "/..", 3) || !maybe_inside(p, s, n))
		return 0;
	path = strndup(s, n);
	if (!path)
		return 0;
	if (dir_ro && (!in_read_only_tree(p, path) || ct_path_under(path, n, "/proc", 5))) {
		free(path);
		return 0;
	}
	rq.path = path;
	fd = ct_open(p, &rq, &v);
	ok = fd >= 0 || v.reason == CT_OK;	/* missing inside: glibc finds nothing */
	if (fd >= 0)
		sys_close(fd);
	free(path);
	return ok;
}

/* Does every path in the colon list value lie in a tree? */
static int steer_ok(const struct ct_policy *p, const char *var, const char *value)
{
	const char *s = value;
	int dir_ro;

	if (!strncmp(var, "LANG", 4) || !strncmp(var, "LC_", 3))
		return !strchr(s, '/');	/* a locale name, never a path */
	if (!strcmp(var, "TZ=")) {
		/* ":file" or "/file" name a zone file; a POSIX TZ string names none */
		if (*s == ':')
			s++;
		if (*s != '/')
			return !strstr(s, "..");	/* in TZDIR, a read-only tree */
		return steer_path_ok(p, s, strlen(s), 0);
	}
	dir_ro = strcmp(var, "HOSTALIASES=") && strcmp(var, "DATEMSK=");
	while (*s) {
		size_t n = strcspn(s, ":");
		size_t k = strcspn(s, "%");	/* NLSPATH templates: the fixed part */

		if (k < n)
			n = k;
		if (n && !steer_path_ok(p, s, n, dir_ro))
			return 0;
		s += strcspn(s, ":");
		if (*s == ':')
			s++;
	}
	return 1;
}

CT_START_TEXT
static void drop_steering(const struct ct_policy *p)
{
	size_t i;

	for (i = 0; i < sizeof(steer_vars) / sizeof(steer_vars[0]); i++) {
		size_t vl = strlen(steer_vars[i]);
		int j;

		for (j = 0; environ && environ[j]; j++) {
			if (strncmp(environ[j], steer_vars[i], vl) == 0 &&
			    !steer_ok(p, steer_vars[i], environ[j] + vl)) {
				struct ct_verdict v = { CT_OUTSIDE, -1, NULL, "", 0 };

				ct_report(p, "environment", environ[j], &v);
				env_drop(steer_vars[i]);
				break;
			}
		}
	}
}

/*
 * setenv/putenv of a steering variable naming a place outside the trees:
 * refused (EACCES, reported), so glibc never opens it later on its own.
 * A program that writes environ directly is not seen (SECURITY.md).
 */
/* The steer_vars entry named by the nlen bytes at name, or -1. */
static int steer_index(const char *name, size_t nlen)
{
	for (size_t i = 0; i < sizeof(steer_vars) / sizeof(steer_vars[0]); i++)
		if (nlen == strlen(steer_vars[i]) - 1 && !strncmp(name, steer_vars[i], nlen))
			return (int)i;
	return -1;
}

static int steer_refused(const struct ct_policy *p, const char *op, const char *name, size_t nlen,
			 const char *value)
{
	int i = p->active ? steer_index(name, nlen) : -1;
	struct ct_verdict v = { CT_OUTSIDE, -1, NULL, "", 0 };

	if (i < 0 || steer_ok(p, steer_vars[i], value))
		return 0;
	ct_report(p, op, value, &v);
	return 1;
}

typedef int (*setenv_fn)(const char *, const char *, int);

static setenv_fn real_setenv(void)
{
	static setenv_fn fn;

	if (!fn)
		fn = (setenv_fn)dlsym(RTLD_NEXT, "setenv");
	return fn;
}

API int setenv(const char *name, const char *value, int overwrite)
{
	setenv_fn real = real_setenv();
	const struct ct_policy *p = ct_policy();

	if (!real || !p) {
		errno = !real ? ENOSYS : EACCES;
		return -1;
	}
	if (!ct_is_null(name) && !ct_is_null(value) && steer_refused(p, "setenv", name, strlen(name), value)) {
		errno = EACCES;
		return -1;
	}
	return real(name, value, overwrite);
}

API int putenv(char *string)
{
	static int (*real)(char *);
	const struct ct_policy *p = ct_policy();
	const char *eq = !ct_is_null(string) ? strchr(string, '=') : NULL;

	if (!real)
		real = (int (*)(char *))dlsym(RTLD_NEXT, "putenv");
	if (!real || !p) {
		errno = !real ? ENOSYS : EACCES;
		return -1;
	}
	if (eq && steer_refused(p, "putenv", string, (size_t)(eq - string), eq + 1)) {
		errno = EACCES;
		return -1;
	}
	if (eq && p->active && steer_index(string, (size_t)(eq - string)) >= 0) {
		/* the string would stay the program's to rewrite after this
		 * check: a steering variable gets a copy (setenv) */
		char *name = strndup(string, (size_t)(eq - string));
		setenv_fn set = real_setenv();
		int r = name && set ? set(name, eq + 1, 1) : -1;

		free(name);
		return r;
	}
	return real(string);
}

/*
 * Put the snapshot back into environ (a program that scrubbed it and then
 * calls system() or popen() still gets a contained shell), and drop PATH
 * entries outside the trees so that PATH searches do not report a denial per
 * entry. Not async-signal-safe; called at load and from system/popen.
 */
/*
 * environ holds every snapshot variable once, as it is, and no other
 * policy variable: what a contained parent's exec leaves. Then the repair
 * has nothing to do (and allocates nothing, at every start).
 */
static int env_in_shape(const struct ct_policy *p)
{
	size_t nl[CT_MAX_ENV];
	unsigned seen = 0;
	int i, j;

	for (j = 0; j < p->nenv; j++)
		nl[j] = (size_t)(strchr(p->env[j], '=') - p->env[j]) + 1;
	for (i = 0; environ && environ[i]; i++) {
		const char *e = environ[i];

		for (j = 0; j < p->nenv; j++)
			if (strncmp(e, p->env[j], nl[j]) == 0)
				break;
		if (j < p->nenv) {
			if ((seen >> j) & 1 || strcmp(e, p->env[j]) != 0)
				return 0;
			seen |= 1u << j;
		} else if (is_policy_var(p, e)) {
			return 0;
		}
	}
	return seen == (1u << p->nenv) - 1;
}

CT_START_TEXT
void ct_repair_environ(const struct ct_policy *p)
{
	const char *path;
	char *np;
	int i;

	/* every CONTAIN_* the program set goes (CONTAIN_WRITE=/ would widen a
	 * child's policy), then the snapshot comes back */
	/* ld.so takes the last LD_PRELOAD: no duplicate may survive; nor
	 * LD_AUDIT and the variables that write files (see dropped_vars) */
	if (!env_in_shape(p)) {
		for (i = 0; i < (int)(sizeof(dropped_vars) / sizeof(dropped_vars[0])); i++)
			env_drop(dropped_vars[i]);
		if (p->tmpdir)
			env_drop("TMPDIR=");
		for (i = 0; i < p->nenv; i++)
			env_put(p->env[i]);
	}
	drop_steering(p);
	path = ct_env_value("PATH");
	if (path && (np = filter_path(p, path)) != NULL) {
		env_put(np);
		free(np);
	}
}

/* ------------------------------------------------------------------ */
/* what may run                                                         */

enum { PROG_ELF, PROG_SCRIPT };

/* dir/name (name relative) into out; -1 when it does not fit. */
static int join_path(char *out, size_t len, const char *dir, const char *name)
{
	int k = name[0] == '/' || !dir[0] ? snprintf(out, len, "%s", name)
					 : snprintf(out, len, "%s/%s", dir, name);

	return k < 0 || (size_t)k >= len ? -1 : 0;
}

static int check_program(const struct ct_policy *p, const char *op, int dirfd, const char *path,
			 const char *cwd, int follow, int depth, int *kind);

#define HEAD_LEN 1024	/* the ELF header, program headers and PT_INTERP usually fit */

/* n bytes at off: from the head already read, else from the file. */
static int read_at(int fd, const unsigned char *head, size_t headlen, unsigned long long off,
		   void *dst, size_t n)
{
	if (off <= headlen && n <= headlen - off) {
		memcpy(dst, head + off, n);
		return 0;
	}
	return sys_pread(fd, dst, n, (off_t)off) == (ssize_t)n ? 0 : -1;
}

/*
 * The loader this process runs under: the file mapped at AT_BASE, by device
 * and inode from /proc/self/maps (not by a PT_INTERP text: a program started
 * as `ld.so ./prog` names whatever it likes there). A program's PT_INTERP
 * must be that very file. Looked up once, on the first exec check.
 */
static unsigned long long loader_dev, loader_ino;
static int loader_state;	/* 0 not looked up, 1 looking, 2 known, 3 unknown */

static unsigned long long hexval(const char **s)
{
	unsigned long long v = 0;

	for (;; (*s)++) {
		char c = **s;

		if (c >= '0' && c <= '9')
			v = v * 16 + (unsigned)(c - '0');
		else if (c >= 'a' && c <= 'f')
			v = v * 16 + (unsigned)(c - 'a' + 10);
		else
			return v;
	}
}

/* dev, ino of the mapping that starts at base, from /proc/self/maps. */
static int mapping_ident(unsigned long long base, unsigned long long *dev, unsigned long long *ino)
{
	char buf[1024];
	size_t have = 0;
	int fd = sys_openat(AT_FDCWD, "/proc/self/maps", O_RDONLY | O_CLOEXEC, 0), found = 0;

	if (fd < 0)
		return 0;
	for (;;) {
		ssize_t n = (ssize_t)syscall(SYS_read, fd, buf + have, sizeof(buf) - 1 - have);
		char *line, *nl;

		if (n <= 0)
			break;
		have += (size_t)n;
		buf[have] = 0;
		line = buf;
		while ((nl = strchr(line, '\n')) != NULL) {
			const char *q = line;
			unsigned long long start = hexval(&q), major, minor, inode = 0;
			int field;

			*nl = 0;
			if (start == base) {
				/* start-end perms offset major:minor inode path */
				for (field = 0; field < 3 && *q; q++)
					if (*q == ' ')
						field++;
				major = hexval(&q);
				if (*q == ':')
					q++;
				minor = hexval(&q);
				while (*q == ' ')
					q++;
				while (*q >= '0' && *q <= '9')
					inode = inode * 10 + (unsigned)(*q++ - '0');
				*dev = (unsigned long long)makedev(major, minor);
				*ino = inode;
				found = inode != 0;
				goto done;
			}
			line = nl + 1;
		}
		have = strlen(line);
		memmove(buf, line, have + 1);
		if (have == sizeof(buf) - 1)
			have = 0;	/* an overlong line: skip it */
	}
done:
	sys_close(fd);
	return found;
}

/* Is fd the loader this process runs under? */
static int is_our_loader(int fd)
{
	struct stat st;
	int state = __atomic_load_n(&loader_state, __ATOMIC_ACQUIRE), zero = 0;

	if (state != 2 && state != 3 &&
	    __atomic_compare_exchange_n(&loader_state, &zero, 1, 0, __ATOMIC_ACQUIRE, __ATOMIC_RELAXED)) {
		unsigned long long base = getauxval(AT_BASE);

		state = base && mapping_ident(base, &loader_dev, &loader_ino) ? 2 : 3;
		__atomic_store_n(&loader_state, state, __ATOMIC_RELEASE);
	}
	if (state != 2)
		return 0;
	return sys_fstatat(fd, "", &st, AT_EMPTY_PATH) == 0 &&
	       (unsigned long long)st.st_dev == loader_dev && (unsigned long long)st.st_ino == loader_ino;
}

/*
 * The interpreter's path must lie (lexically, through load-time aliases
 * such as /lib64) in a read-only tree: the kernel looks PT_INTERP up again
 * after the check, and only a tree the program cannot write keeps what was
 * checked what runs.
 */
static int in_read_only_tree(const struct ct_policy *p, const char *path)
{
	char buf[CT_ALIAS_BUF];
	int t;

	/* a plain path: no `..` or `.` to step out of what the text says */
	if (strstr(path, "/..") || strstr(path, "/./") || strstr(path, "//"))
		return 0;
	t = ct_tree_lexical(p, path, buf, sizeof(buf));

	return t >= 0 && !(p->trees[t].acc & CT_W);
}

/* The loader the verdict describes lies in a read-only tree, and so did
 * every directory and link on the way to it: the program cannot make the
 * same path lead to another file between the check and the exec (nor for
 * the process tree's children, which trust the check through the policy). */
static int loader_held(const struct ct_policy *p, const struct ct_verdict *v)
{
	/* and nothing on the way to it: a link or a directory in a writable
	 * tree could be replaced to lead elsewhere under the same path */
	return v->tree >= 0 && !(p->trees[v->tree].acc & CT_W) && !v->via_writable;
}

/*
 * Can the loader named interp run a program the library must enter? It is
 * glibc's, named through a read-only tree, found with nothing writable on
 * the way (loader_held), and the very loader this process runs under,
 * unless foreign_ok. 1 yes, 0 no, -1 its open was refused (reported as op,
 * errno set; op NULL: quietly, at load).
 */
static int loader_fit(const struct ct_policy *p, const char *op, const char *interp,
		      int foreign_ok)
{
	struct ct_verdict v;
	int fd, fit;

	if (!strstr(interp, "/ld-linux") || !in_read_only_tree(p, interp))
		return 0;
	if (op) {
		fd = ct_checked_open(p, op, AT_FDCWD, interp, O_PATH | O_CLOEXEC, 0, CT_R, 1, &v);
	} else {
		struct ct_req rq = { .dirfd = AT_FDCWD, .path = interp, .flags = O_PATH | O_CLOEXEC,
				     .need = CT_R, .follow = 1 };

		fd = ct_open(p, &rq, &v);
	}
	if (fd < 0)
		return -1;
	fit = loader_held(p, &v) && (foreign_ok || is_our_loader(fd));
	sys_close(fd);
	return fit;
}

/* Landlock and the seccomp filter both hold this process (and so what it
 * runs): a program the preload will not load into may run. */
static int kernel_holds(const struct ct_policy *p)
{
	return ct_both_layers(p->kernel);
}

/*
 * The program interpreter last verified (nearly every exec names the same
 * one): written once, lock-free, read without a system call.
 */
static char interp_ok[256];
static int interp_state;	/* 0 empty, 1 being written, 2 holds a verified path */

/* An ELF file: dynamic (has PT_INTERP, whose file must be in the trees) or not. */
static int check_elf(const struct ct_policy *p, const char *op, int fd, const char *path,
		     const unsigned char *head, size_t headlen)
{
	unsigned long long phoff;
	unsigned phnum, phentsize, i, machine;
	int is64 = head[EI_CLASS] == ELFCLASS64, reason = CT_STATIC, zero = 0, fit;
	struct ct_verdict v;

	if (is64) {
		Elf64_Ehdr eh;

		if (read_at(fd, head, headlen, 0, &eh, sizeof(eh)) < 0)
			goto unverifiable;
		phoff = eh.e_phoff;
		phnum = eh.e_phnum;
		phentsize = eh.e_phentsize;
		machine = eh.e_machine;
	} else if (head[EI_CLASS] == ELFCLASS32) {
		Elf32_Ehdr eh;

		if (read_at(fd, head, headlen, 0, &eh, sizeof(eh)) < 0)
			goto unverifiable;
		phoff = eh.e_phoff;
		phnum = eh.e_phnum;
		phentsize = eh.e_phentsize;
		machine = eh.e_machine;
	} else {
		goto unverifiable;
	}
	if (phnum > 4096 || phentsize < (is64 ? sizeof(Elf64_Phdr) : sizeof(Elf32_Phdr)))
		goto unverifiable;
	for (i = 0; i < phnum; i++) {
		unsigned long long type, off, size, at = phoff + (unsigned long long)i * phentsize;
		char interp[256];

		if (is64) {
			Elf64_Phdr ph;

			if (read_at(fd, head, headlen, at, &ph, sizeof(ph)) < 0)
				goto unverifiable;
			type = ph.p_type;
			off = ph.p_offset;
			size = ph.p_filesz;
		} else {
			Elf32_Phdr ph;

			if (read_at(fd, head, headlen, at, &ph, sizeof(ph)) < 0)
				goto unverifiable;
			type = ph.p_type;
			off = ph.p_offset;
			size = ph.p_filesz;
		}
		if (type != PT_INTERP)
			continue;
		if (size < 2 || size > sizeof(interp) ||
		    read_at(fd, head, headlen, off, interp, (size_t)size) < 0 ||
		    interp[size - 1] != 0 || interp[0] != '/')
			goto unverifiable;
		/*
		 * The loader must be able to load this library: the same ABI
		 * (a 32-bit program would print "wrong ELF class" and run
		 * uncontained) and glibc's loader (ld-linux*, not musl's).
		 */
		if (!is64 || machine != CT_ELF_MACHINE) {
			reason = CT_ABI;
			break;
		}
		/* the same text names the same file (loader_fit: read-only
		 * all the way): the loader the first process verified at
		 * load, against this policy, or the last one this process did */
		if (p->interp && strcmp(interp, p->interp) == 0)
			return 0;
		if (__atomic_load_n(&interp_state, __ATOMIC_ACQUIRE) == 2 && strcmp(interp, interp_ok) == 0)
			return 0;
		/* whether it is ours decides nothing when the kernel layers
		 * hold a foreign loader too (below): then the look into
		 * /proc/self/maps (six system calls in every fork child that
		 * execs) is not made */
		fit = loader_fit(p, op, interp, kernel_holds(p));
		if (fit < 0)
			return -1;
		if (!fit) {
			reason = CT_ABI;
			break;
		}
		if (__atomic_compare_exchange_n(&interp_state, &zero, 1, 0, __ATOMIC_ACQUIRE,
						__ATOMIC_RELAXED)) {
			memcpy(interp_ok, interp, (size_t)size);
			__atomic_store_n(&interp_state, 2, __ATOMIC_RELEASE);
		}
		return 0;
	}
	/* static, musl, 32-bit, a foreign loader: the preload will not load in
	 * it, but Landlock and the seccomp filter, inherited, hold it */
	if (kernel_holds(p))
		return 0;
	v.reason = reason;
	v.tree = -1;
	v.detail = NULL;
	v.resolved[0] = 0;
	ct_report(p, op, path, &v);
	errno = EACCES;
	return -1;

unverifiable:
	v.reason = CT_UNVERIFIABLE;
	v.tree = -1;
	v.detail = "not a valid ELF file";
	v.resolved[0] = 0;
	ct_report(p, op, path, &v);
	errno = EACCES;
	return -1;
}

const char *ct_verified_interp(const struct ct_policy *p, int layers_hold)
{
	const Elf64_Phdr *ph = (const Elf64_Phdr *)getauxval(AT_PHDR);
	unsigned long n = getauxval(AT_PHNUM), i;
	const char *interp = NULL;
	unsigned long bias = 0, size = 0;

	/* in memory, from the program headers the kernel mapped: no read */
	for (i = 0; ph && i < n; i++)
		if (ph[i].p_type == PT_PHDR)
			bias = (unsigned long)ph - ph[i].p_vaddr;
	for (i = 0; ph && i < n; i++)
		if (ph[i].p_type == PT_INTERP) {
			interp = (const char *)(bias + ph[i].p_vaddr);
			size = ph[i].p_filesz;
		}
	/* the text as check_elf reads it; then its test, quietly. Whether
	 * the loader is ours (a read of /proc/self/maps) matters only when
	 * the kernel layers will not hold the children: with them, check_elf
	 * in every child accepts any loader that passes the rest, and they
	 * cannot be taken off a process tree once applied */
	if (!interp || size < 2 || size > 256 || interp[size - 1] != 0 || interp[0] != '/')
		return NULL;
	return loader_fit(p, NULL, interp, layers_hold) == 1 ? interp : NULL;
}

/* A #! script: its interpreter must pass check_program too. */
static int check_script(const struct ct_policy *p, const char *op, const unsigned char *head,
			size_t headlen, const char *cwd, int depth)
{
	char line[256], *s, *e;
	size_t n = headlen < sizeof(line) - 1 ? headlen : sizeof(line) - 1;
	int kind, ifd;

	memcpy(line, head, n);
	line[n] = 0;
	s = line + 2;
	while (*s == ' ' || *s == '\t')
		s++;
	e = s;
	while (*e && *e != ' ' && *e != '\t' && *e != '\n')
		e++;
	if (e == s || (!*e && n == sizeof(line) - 1)) {
		errno = ENOEXEC;
		return -1;
	}
	*e = 0;
	/* a relative interpreter is found from the cwd the exec happens in */
	ifd = check_program(p, op, AT_FDCWD, s, cwd, 1, depth + 1, &kind);
	if (ifd < 0)
		return -1;
	sys_close(ifd);
	return 0;
}

/*
 * Would exec of fd change credentials? Then the loader runs it in secure
 * mode and ignores LD_PRELOAD: the program would run uncontained. Under
 * no-new-privs (the contain launcher sets it) exec never gains privilege.
 */
static int gains_privilege(int fd)
{
	struct stat st;
	char cap[64];

	int gains = 0;

	if (sys_fstatat(fd, "", &st, AT_EMPTY_PATH) < 0)
		return 1;
	if (!S_ISREG(st.st_mode))
		return -1;	/* the kernel's EACCES, not a denial */
	if ((st.st_mode & S_ISUID) && st.st_uid != geteuid())
		gains = 1;
	else if ((st.st_mode & S_ISGID) && (st.st_mode & S_IXGRP) && st.st_gid != getegid())
		gains = 1;
	/* file capabilities raise a non-root process's privilege */
	else if (geteuid() != 0 && syscall(SYS_fgetxattr, fd, "security.capability", cap, sizeof(cap)) >= 0)
		gains = 1;
	return gains && prctl(PR_GET_NO_NEW_PRIVS, 0, 0, 0, 0) != 1;
}

/*
 * Open the program at (dirfd, path) for exec and check it. Returns an fd on
 * it (O_RDONLY, close-on-exec) or -1 with errno; *kind says ELF or script.
 */
static int check_program(const struct ct_policy *p, const char *op, int dirfd, const char *path,
			 const char *cwd, int follow, int depth, int *kind)
{
	char joined[1024];

	struct ct_verdict v;
	unsigned char head[HEAD_LEN];
	ssize_t got;
	int fd, priv;

	if (depth > 4) {	/* the kernel's BINPRM_MAX_RECURSION */
		errno = ELOOP;
		return -1;
	}
	if (cwd && cwd[0] && path[0] != '/' && dirfd == AT_FDCWD) {
		/* the child's cwd (posix_spawn chdir actions), not ours */
		if (join_path(joined, sizeof(joined), cwd, path) < 0) {
			errno = ENAMETOOLONG;
			return -1;
		}
		path = joined;
	}
	fd = ct_checked_open(p, op, dirfd, path, O_RDONLY | O_CLOEXEC | (follow ? 0 : O_NOFOLLOW),
			     0, CT_X, follow, &v);
	if (fd < 0)
		return -1;
	if ((priv = gains_privilege(fd)) < 0) {
		sys_close(fd);
		errno = EACCES;
		return -1;
	}
	if (priv) {
		v.reason = CT_SETID;
		v.detail = NULL;
		ct_report(p, op, path, &v);
		sys_close(fd);
		errno = EACCES;
		return -1;
	}
	got = sys_pread(fd, head, sizeof(head), 0);
	if (got < 2) {
		sys_close(fd);
		errno = ENOEXEC;
		return -1;
	}
	if (got >= EI_NIDENT && memcmp(head, ELFMAG, SELFMAG) == 0) {
		*kind = PROG_ELF;
		if (check_elf(p, op, fd, path, head, (size_t)got) < 0)
			goto fail;
		return fd;
	}
	if (head[0] == '#' && head[1] == '!') {
		*kind = PROG_SCRIPT;
		if (check_script(p, op, head, (size_t)got, cwd, depth) < 0)
			goto fail;
		return fd;
	}
	/* anything else would go to binfmt_misc or ENOEXEC: let execvp and the
	 * shells fall back to /bin/sh as without the library */
	sys_close(fd);
	errno = ENOEXEC;
	return -1;
fail:
	{
		int e = errno;

		sys_close(fd);
		errno = e;
	}
	return -1;
}

/* Real path of a checked fd (for scripts, whose interpreter opens them). */
static int fd_path(const struct ct_policy *p, int fd, char *buf, size_t len)
{
	char name[40];
	ssize_t n;

	(void)p;
	snprintf(name, sizeof(name), "/proc/self/fd/%d", fd);
	n = sys_readlinkat(AT_FDCWD, name, buf, len - 1);
	if (n <= 0 || (size_t)n >= len - 1)
		return -1;
	buf[n] = 0;
	return 0;
}

/* Check and execute. Returns only on failure. */
static int exec_checked(const struct ct_policy *p, const char *op, int dirfd, const char *path,
			char *const argv[], char *const envp[], int atflags)
{
	struct envbuf eb = { NULL, 0 };
	int kind, fd, e;

	/* No forget here: a vfork child's records live in its parent's
	 * memory, but it fills none (its pid is not the owner's, and
	 * ct_rec_frozen is up), and the parent forgets everything when it
	 * resumes; a fork child's are its own copy. Writing them here cost a
	 * fork child three copy-on-write faults before every exec. */
	fd = check_program(p, op, dirfd, path, NULL, !(atflags & AT_SYMLINK_NOFOLLOW), 0, &kind);
	if (fd < 0)
		return -1;
	if (build_env(p, envp, &eb) < 0) {
		e = errno;
		sys_close(fd);
		errno = e;
		return -1;
	}
	if (kind == PROG_ELF) {
		syscall(SYS_execveat, fd, "", argv, eb.env, AT_EMPTY_PATH);
	} else {
		/* the interpreter opens the script by name (it is preloaded and
		 * checks that open); keep the name the caller gave when the
		 * kernel resolves it the same way */
		char *buf = mmap(NULL, 8192, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

		if (buf == MAP_FAILED) {
			errno = ENOMEM;
		} else {
			if (path[0] == '/' || dirfd == AT_FDCWD)
				syscall(SYS_execve, path, argv, eb.env);
			else if (fd_path(p, fd, buf, 8192) == 0)
				syscall(SYS_execve, buf, argv, eb.env);
			else
				errno = EACCES;
			e = errno;
			munmap(buf, 8192);
			errno = e;
		}
	}
	e = errno;
	free_env(&eb);
	sys_close(fd);
	errno = e;
	return -1;
}

/* ------------------------------------------------------------------ */
/* exec family                                                          */

API int execve(const char *path, char *const argv[], char *const envp[])
{
	const struct ct_policy *p = ct_policy();

	if (!p) {
		errno = EACCES;
		return -1;
	}
	if (!p->active)
		return (int)syscall(SYS_execve, path, argv, envp);
	return exec_checked(p, "execve", AT_FDCWD, path, argv, envp, 0);
}

API int execv(const char *path, char *const argv[])
{
	const struct ct_policy *p = ct_policy();

	if (!p) {
		errno = EACCES;
		return -1;
	}
	if (!p->active)
		return (int)syscall(SYS_execve, path, argv, environ);
	return exec_checked(p, "execv", AT_FDCWD, path, argv, environ, 0);
}

/* fexecve and execveat(AT_EMPTY_PATH): the fd must be a file in the trees. */
static int exec_fd(const struct ct_policy *p, const char *op, int fd, char *const argv[],
		   char *const envp[])
{
	char *buf;
	struct stat a, b;
	int cfd, kind, e;
	struct envbuf eb = { NULL, 0 };

	if (sys_fstatat(fd, "", &a, AT_EMPTY_PATH) < 0)
		return -1;
	buf = mmap(NULL, 8192, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (buf == MAP_FAILED) {
		errno = ENOMEM;
		return -1;
	}
	if (fd_path(p, fd, buf, 8192) < 0 || buf[0] != '/') {
		struct ct_verdict v = { CT_UNVERIFIABLE, -1, "the file has no path", "", 0 };

		munmap(buf, 8192);
		ct_report(p, op, "(fd)", &v);
		errno = EACCES;
		return -1;
	}
	cfd = check_program(p, op, AT_FDCWD, buf, NULL, 1, 0, &kind);
	if (cfd < 0)
		goto out;
	if (sys_fstatat(cfd, "", &b, AT_EMPTY_PATH) < 0 || a.st_dev != b.st_dev || a.st_ino != b.st_ino) {
		struct ct_verdict v = { CT_UNVERIFIABLE, -1, "the file moved", "", 0 };

		sys_close(cfd);
		ct_report(p, op, buf, &v);
		errno = EACCES;
		goto out;
	}
	if (build_env(p, envp, &eb) == 0) {
		if (kind == PROG_ELF)
			syscall(SYS_execveat, cfd, "", argv, eb.env, AT_EMPTY_PATH);
		else
			syscall(SYS_execve, buf, argv, eb.env);
		free_env(&eb);
	}
	e = errno;
	sys_close(cfd);
	errno = e;
out:
	e = errno;
	munmap(buf, 8192);
	errno = e;
	return -1;
}

API int fexecve(int fd, char *const argv[], char *const envp[])
{
	const struct ct_policy *p = ct_policy();

	if (!p) {
		errno = EACCES;
		return -1;
	}
	if (!p->active)
		return (int)syscall(SYS_execveat, fd, "", argv, envp, AT_EMPTY_PATH);
	return exec_fd(p, "fexecve", fd, argv, envp);
}

API int execveat(int dirfd, const char *path, char *const argv[], char *const envp[], int flags)
{
	const struct ct_policy *p = ct_policy();

	if (!p) {
		errno = EACCES;
		return -1;
	}
	if (!p->active)
		return (int)syscall(SYS_execveat, dirfd, path, argv, envp, flags);
	if ((flags & AT_EMPTY_PATH) && !ct_is_null(path) && !*path)
		return exec_fd(p, "execveat", dirfd, argv, envp);
	return exec_checked(p, "execveat", dirfd, path, argv, envp, flags);
}

/* Run file with /bin/sh, as execvp does for a file the kernel cannot run. */
static int exec_with_sh(const struct ct_policy *p, const char *op, const char *file,
			char *const argv[], char *const envp[])
{
	size_t argc = 0, i, len;
	char **nargv;
	int e;

	while (argv[argc])
		argc++;
	len = ((argc + 3) * sizeof(char *) + 4095) & ~(size_t)4095;
	nargv = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (nargv == MAP_FAILED) {
		errno = ENOMEM;
		return -1;
	}
	nargv[0] = (char *)"/bin/sh";
	nargv[1] = (char *)file;
	for (i = 1; i <= argc; i++)
		nargv[i + 1] = argv[i];
	exec_checked(p, op, AT_FDCWD, "/bin/sh", nargv, envp, 0);
	e = errno;
	munmap(nargv, len);
	errno = e;
	return -1;
}

/*
 * execvpe's PATH search, as glibc does it: a name with a slash is executed
 * as is; otherwise each PATH entry is tried, ENOEXEC runs the file with
 * /bin/sh, EACCES is remembered. A candidate outside the trees is skipped
 * silently (the decision is lexical: nothing outside is looked at).
 */
static int exec_search(const struct ct_policy *p, const char *op, const char *file,
		       char *const argv[], char *const envp[])
{
	const char *path, *s;
	char *buf;
	int saw_eacces = 0, e;
	size_t flen;

	if (!file || !*file) {
		errno = ENOENT;
		return -1;
	}
	if (strchr(file, '/')) {
		exec_checked(p, op, AT_FDCWD, file, argv, envp, 0);
		if (errno != ENOEXEC)
			return -1;
		path = NULL;
		buf = NULL;
		goto sh;
	}
	flen = strlen(file);
	if (flen > NAME_MAX) {
		errno = ENAMETOOLONG;
		return -1;
	}
	path = ct_env_value("PATH");
	if (!path)
		path = "/bin:/usr/bin";
	buf = mmap(NULL, 8192, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (buf == MAP_FAILED) {
		errno = ENOMEM;
		return -1;
	}
	for (s = path;; s++) {
		const char *c = strchrnul(s, ':');
		size_t n = (size_t)(c - s);

		if (n + flen + 2 > 8192)
			goto next;
		if (n) {
			memcpy(buf, s, n);
			buf[n] = '/';
			memcpy(buf + n + 1, file, flen + 1);
		} else {
			memcpy(buf, file, flen + 1);	/* empty entry: the cwd */
		}
		{
			struct ct_req rq = { AT_FDCWD, buf, O_PATH | O_CLOEXEC, 0, CT_X, 1 };
			struct ct_verdict v;
			int fd = ct_open(p, &rq, &v);

			if (fd < 0 && v.reason == CT_OUTSIDE)
				goto next;	/* silently, like a missing file */
			if (fd < 0 && errno != EACCES)
				goto next;
			if (fd >= 0)
				sys_close(fd);
		}
		exec_checked(p, op, AT_FDCWD, buf, argv, envp, 0);
		switch (errno) {
		case ENOEXEC:
			exec_with_sh(p, op, buf, argv, envp);
			goto done;
		case EACCES:
			saw_eacces = 1;
			break;
		case ENOENT: case ENOTDIR: case ESTALE: case ENODEV: case ETIMEDOUT:
			break;
		default:
			goto done;
		}
next:
		if (!*c)
			break;
		s = c;
	}
	errno = saw_eacces ? EACCES : ENOENT;
done:
	e = errno;
	munmap(buf, 8192);
	errno = e;
	return -1;
sh:
	return exec_with_sh(p, op, file, argv, envp);
}

API int execvpe(const char *file, char *const argv[], char *const envp[])
{
	const struct ct_policy *p = ct_policy();

	if (!p) {
		errno = EACCES;
		return -1;
	}
	if (!p->active) {
		static int (*real)(const char *, char *const[], char *const[]);

		if (!real)
			real = (int (*)(const char *, char *const[], char *const[]))dlsym(RTLD_NEXT, "execvpe");
		return real ? real(file, argv, envp) : (errno = ENOSYS, -1);
	}
	return exec_search(p, "execvpe", file, argv, envp);
}

API int execvp(const char *file, char *const argv[])
{
	const struct ct_policy *p = ct_policy();

	if (p && p->active)
		return exec_search(p, "execvp", file, argv, environ);
	return execvpe(file, argv, environ);
}

/* The variadic forms: collect the arguments into a private mapping. */
static char **collect_args(const char *arg0, va_list ap, char ***envp_out, size_t *maplen)
{
	va_list aq;
	size_t n = 1, i;
	char **v;

	va_copy(aq, ap);
	if (arg0)
		while (va_arg(aq, char *))
			n++;
	va_end(aq);
	*maplen = ((n + 1) * sizeof(char *) + 4095) & ~(size_t)4095;
	v = mmap(NULL, *maplen, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (v == MAP_FAILED) {
		errno = ENOMEM;
		return NULL;
	}
	v[0] = (char *)arg0;
	for (i = 1; arg0 && i < n; i++)
		v[i] = va_arg(ap, char *);
	if (arg0)
		(void)va_arg(ap, char *);	/* the terminating NULL */
	v[n] = NULL;
	if (envp_out)
		*envp_out = va_arg(ap, char **);
	return v;
}

#define VARIADIC_EXEC(call, with_env)                                  \
	do {                                                           \
		va_list ap;                                            \
		char **argv, **envp = environ;                         \
		size_t maplen;                                         \
		int r, e;                                              \
		va_start(ap, arg);                                     \
		argv = collect_args(arg, ap, with_env ? &envp : NULL, &maplen); \
		va_end(ap);                                            \
		if (!argv)                                             \
			return -1;                                     \
		r = call;                                              \
		e = errno;                                             \
		munmap(argv, maplen);                                  \
		errno = e;                                             \
		return r;                                              \
	} while (0)

API int execl(const char *path, const char *arg, ...)
{
	VARIADIC_EXEC(execve(path, argv, envp), 0);
}

API int execle(const char *path, const char *arg, ...)
{
	VARIADIC_EXEC(execve(path, argv, envp), 1);
}

API int execlp(const char *file, const char *arg, ...)
{
	VARIADIC_EXEC(execvpe(file, argv, envp), 0);
}

/* ------------------------------------------------------------------ */
/* posix_spawn, system, popen                                           */

typedef int (*spawn_fn)(pid_t *, const char *, const posix_spawn_file_actions_t *,
			const posix_spawnattr_t *, char *const[], char *const[]);

static spawn_fn real_spawn(void)
{
	static spawn_fn fn;

	if (!fn)
		fn = (spawn_fn)dlsym(RTLD_NEXT, "posix_spawn");
	return fn;
}

/*
 * posix_spawn file actions run in the child glibc starts, through glibc's
 * own open and chdir, which no wrapper sees: they are checked here. The
 * action list is glibc's private layout (spawn_int.h, stable since 2.29);
 * it is verified once against actions made through the public API, and a
 * list that cannot be read is refused, never passed on unchecked.
 */
struct ct_spawn_action {
	int tag;
	union {
		struct { int fd; } close_action;
		struct { int fd, newfd; } dup2_action;
		struct { int fd; char *path; int oflag; mode_t mode; } open_action;
		struct { char *path; } chdir_action;
		struct { int fd; } fchdir_action;
	} action;
};
enum { SA_CLOSE, SA_DUP2, SA_OPEN, SA_CHDIR, SA_FCHDIR, SA_CLOSEFROM, SA_TCSETPGRP };
struct ct_file_actions {
	int allocated, used;
	struct ct_spawn_action *actions;
	int pad[16];
};
_Static_assert(sizeof(struct ct_file_actions) == sizeof(posix_spawn_file_actions_t),
	       "posix_spawn_file_actions_t layout");

static int fa_layout_ok(void)
{
	static int state;	/* 0 unknown, 1 readable, 2 not */
	posix_spawn_file_actions_t fa;
	const struct ct_file_actions *f = (const void *)&fa;
	int ok;

	if (state)
		return state == 1;
	if (posix_spawn_file_actions_init(&fa) != 0)
		return 0;
	ok = posix_spawn_file_actions_addopen(&fa, 5, "/libcontain/probe", O_WRONLY, 0640) == 0 &&
	     posix_spawn_file_actions_addchdir_np(&fa, "/libcontain/dir") == 0 &&
	     posix_spawn_file_actions_addclose(&fa, 7) == 0 &&
	     posix_spawn_file_actions_addfchdir_np(&fa, 9) == 0 &&
	     f->used == 4 && f->actions &&
	     f->actions[0].tag == SA_OPEN && f->actions[0].action.open_action.fd == 5 &&
	     f->actions[0].action.open_action.path &&
	     strcmp(f->actions[0].action.open_action.path, "/libcontain/probe") == 0 &&
	     f->actions[0].action.open_action.oflag == O_WRONLY &&
	     f->actions[0].action.open_action.mode == 0640 &&
	     f->actions[1].tag == SA_CHDIR && f->actions[1].action.chdir_action.path &&
	     strcmp(f->actions[1].action.chdir_action.path, "/libcontain/dir") == 0 &&
	     f->actions[2].tag == SA_CLOSE && f->actions[2].action.close_action.fd == 7 &&
	     f->actions[3].tag == SA_FCHDIR && f->actions[3].action.fchdir_action.fd == 9;
	posix_spawn_file_actions_destroy(&fa);
	state = ok ? 1 : 2;
	return ok;
}

/*
 * Check the file actions; cwd (4096 bytes) gets the directory the child will
 * be in when it execs ("" when unchanged). 0, or an errno to return.
 */
static int check_file_actions(const struct ct_policy *p, const char *op,
			      const posix_spawn_file_actions_t *fa, char *cwd, char *tmp)
{
	const struct ct_file_actions *f = (const void *)fa;
	int i, changed = 0;

	cwd[0] = 0;
	if (!fa || f->used == 0)
		return 0;
	if (!fa_layout_ok() || f->used < 0 || !f->actions) {
		struct ct_verdict v = { CT_UNVERIFIABLE, -1, "posix_spawn file actions cannot be read", "", 0 };

		ct_report(p, op, "(file actions)", &v);
		return EACCES;
	}
	if (sys_getcwd(cwd, 4096) <= 0 || cwd[0] != '/')
		cwd[0] = 0;
	for (i = 0; i < f->used; i++) {
		const struct ct_spawn_action *a = &f->actions[i];
		struct ct_verdict v;
		int fd, j;

		switch (a->tag) {
		case SA_OPEN: {
			int fl = a->action.open_action.oflag;
			unsigned need = (fl & O_ACCMODE) != O_RDONLY || (fl & (O_CREAT | O_TRUNC)) ? CT_W : CT_R;
			int follow = !(fl & O_NOFOLLOW) && (fl & (O_CREAT | O_EXCL)) != (O_CREAT | O_EXCL);

			if ((fl & O_ACCMODE) == O_RDWR)
				need |= CT_R;
			if (join_path(tmp, 4096, cwd, a->action.open_action.path) < 0)
				return ENAMETOOLONG;
			/* O_PATH: resolve and check, but open nothing (a FIFO would block) */
			fd = ct_checked_open(p, op, AT_FDCWD, tmp, O_PATH | O_CLOEXEC | (follow ? 0 : O_NOFOLLOW),
					     0, need, follow, &v);
			if (fd >= 0)
				sys_close(fd);
			else if (v.reason != CT_OK)
				return EACCES;
			break;
		}
		case SA_CHDIR:
			if (join_path(tmp, 4096, cwd, a->action.chdir_action.path) < 0)
				return ENAMETOOLONG;
			memcpy(cwd, tmp, strlen(tmp) + 1);
			changed = 1;
			break;
		case SA_FCHDIR:
			/* the fd as the child will have it: refuse one an earlier
			 * action replaced */
			for (j = 0; j < i; j++) {
				const struct ct_spawn_action *b = &f->actions[j];

				if ((b->tag == SA_OPEN && b->action.open_action.fd == a->action.fchdir_action.fd) ||
				    (b->tag == SA_DUP2 && b->action.dup2_action.newfd == a->action.fchdir_action.fd))
					return EACCES;
			}
			if (fd_path(p, a->action.fchdir_action.fd, cwd, 4096) < 0 || cwd[0] != '/')
				return EACCES;
			changed = 1;
			break;
		case SA_CLOSE: case SA_DUP2: case SA_CLOSEFROM: case SA_TCSETPGRP:
			break;
		default: {
			struct ct_verdict u = { CT_UNVERIFIABLE, -1, "unknown posix_spawn file action", "", 0 };

			ct_report(p, op, "(file actions)", &u);
			return EACCES;
		}
		}
	}
	if (!changed)
		cwd[0] = 0;
	return 0;
}

/*
 * posix_spawn runs the program in a child glibc starts itself, so the
 * program is checked here (relative to the directory the file actions
 * leave the child in) and its real path handed on; the kernel resolves that
 * path again in the child (see SECURITY.md, residual races).
 */
static int spawn_checked(const struct ct_policy *p, const char *op, pid_t *pid, const char *path,
			 const posix_spawn_file_actions_t *fa, const posix_spawnattr_t *attr,
			 char *const argv[], char *const envp[], int try_shell);

/*
 * posix_spawn@GLIBC_2.2.5 ran a file the kernel could not execute (ENOEXEC)
 * as a shell script: /bin/sh FILE ARGS... The shell is checked like any
 * program and opens FILE through the wrappers.
 */
static int spawn_shell(const struct ct_policy *p, const char *op, pid_t *pid, const char *path,
		       const posix_spawn_file_actions_t *fa, const posix_spawnattr_t *attr,
		       char *const argv[], char *const envp[])
{
	size_t n = 0, sz;
	char **nv;
	int r;

	while (argv && argv[n])
		n++;
	sz = (n + 3) * sizeof(char *);
	nv = mmap(NULL, sz, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (nv == MAP_FAILED)
		return ENOMEM;
	nv[0] = (char *)"/bin/sh";
	nv[1] = (char *)path;
	for (size_t i = 1; i < n; i++)
		nv[i + 1] = argv[i];
	nv[n < 1 ? 2 : n + 1] = NULL;
	r = spawn_checked(p, op, pid, "/bin/sh", fa, attr, nv, envp, 0);
	munmap(nv, sz);
	return r;
}

static int spawn_checked(const struct ct_policy *p, const char *op, pid_t *pid, const char *path,
			 const posix_spawn_file_actions_t *fa, const posix_spawnattr_t *attr,
			 char *const argv[], char *const envp[], int try_shell)
{
	struct envbuf eb = { NULL, 0 };
	spawn_fn fn = real_spawn();
	char *buf;
	int fd = -1, kind, r;

	if (!fn)
		return ENOSYS;
	/* [0] the child's cwd, [4096] scratch, [8192] the program's real path,
	 * [12288] the child's environment when it fits */
	buf = ct_kept_take(&spawn_scratch);
	if (!buf)
		return ENOMEM;
	r = check_file_actions(p, op, fa, buf, buf + 4096);
	if (r)
		goto out;
	if (join_path(buf + 4096, 4096, buf, path) < 0) {
		r = ENAMETOOLONG;
		goto out;
	}
	fd = check_program(p, op, AT_FDCWD, buf + 4096, buf, 1, 0, &kind);
	if (fd < 0) {
		r = errno;
		if (r == ENOEXEC && try_shell)
			r = spawn_shell(p, op, pid, path, fa, attr, argv, envp);
		goto out;
	}
	if (fd_path(p, fd, buf + 8192, 4096) < 0) {
		r = EACCES;
		goto out;
	}
	if (build_env_in(p, envp, &eb, buf + 3 * 4096, 4096) < 0) {
		r = ENOMEM;
		goto out;
	}
	/* the real path, whatever the file actions do to the cwd */
	r = fn(pid, buf + 8192, fa, attr, argv, eb.env);
	free_env(&eb);
out:
	ct_kept_give(&spawn_scratch, buf);
	if (fd >= 0)
		sys_close(fd);
	return r;
}

/* version: NULL for the default, or the compat version (src/compat.c), whose
 * libc entry point is used when inactive and whose shell fallback is kept */
int ct_posix_spawn(const char *version, pid_t *pid, const char *path,
		   const posix_spawn_file_actions_t *fa, const posix_spawnattr_t *attr,
		   char *const argv[], char *const envp[])
{
	const struct ct_policy *p = ct_policy();

	if (!p)
		return EACCES;
	if (!p->active) {
		spawn_fn fn = version ? (spawn_fn)dlvsym(RTLD_NEXT, "posix_spawn", version) : real_spawn();

		return fn ? fn(pid, path, fa, attr, argv, envp) : ENOSYS;
	}
	return spawn_checked(p, "posix_spawn", pid, path, fa, attr, argv, envp, version != NULL);
}

API int posix_spawn(pid_t *pid, const char *path, const posix_spawn_file_actions_t *fa,
		    const posix_spawnattr_t *attr, char *const argv[], char *const envp[])
{
	return ct_posix_spawn(NULL, pid, path, fa, attr, argv, envp);
}

int ct_posix_spawnp(const char *version, pid_t *pid, const char *file,
		    const posix_spawn_file_actions_t *fa, const posix_spawnattr_t *attr,
		    char *const argv[], char *const envp[])
{
	const struct ct_policy *p = ct_policy();
	int try_shell = version != NULL;
	const char *path, *s;
	char *buf;
	int r = ENOENT;
	size_t flen;

	if (!p)
		return EACCES;
	if (!p->active) {
		spawn_fn fn = (spawn_fn)(version ? dlvsym(RTLD_NEXT, "posix_spawnp", version)
						 : dlsym(RTLD_NEXT, "posix_spawnp"));

		return fn ? fn(pid, file, fa, attr, argv, envp) : ENOSYS;
	}
	if (ct_is_null(file) || !*file)
		return ENOENT;
	if (strchr(file, '/'))
		return spawn_checked(p, "posix_spawnp", pid, file, fa, attr, argv, envp, try_shell);
	flen = strlen(file);
	path = ct_env_value("PATH");
	if (!path)
		path = "/bin:/usr/bin";
	buf = mmap(NULL, 8192, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (buf == MAP_FAILED)
		return ENOMEM;
	for (s = path;; s++) {
		const char *c = strchrnul(s, ':');
		size_t n = (size_t)(c - s);
		struct ct_req rq = { AT_FDCWD, buf, O_PATH | O_CLOEXEC, 0, CT_X, 1 };
		struct ct_verdict v;
		int fd;

		if (n + flen + 2 <= 8192) {
			if (n) {
				memcpy(buf, s, n);
				buf[n] = '/';
				memcpy(buf + n + 1, file, flen + 1);
			} else {
				memcpy(buf, file, flen + 1);
			}
			fd = ct_open(p, &rq, &v);
			if (fd >= 0) {
				struct stat st;

				if (sys_fstatat(fd, "", &st, AT_EMPTY_PATH) == 0 && S_ISREG(st.st_mode)) {
					sys_close(fd);
					r = spawn_checked(p, "posix_spawnp", pid, buf, fa, attr, argv, envp,
							  try_shell);
					if (r != EACCES && r != ENOENT && r != ENOEXEC)
						break;
				} else {
					sys_close(fd);
				}
			}
		}
		if (!*c)
			break;
		s = c;
	}
	munmap(buf, 8192);
	return r;
}

API int posix_spawnp(pid_t *pid, const char *file, const posix_spawn_file_actions_t *fa,
		     const posix_spawnattr_t *attr, char *const argv[], char *const envp[])
{
	return ct_posix_spawnp(NULL, pid, file, fa, attr, argv, envp);
}

API int system(const char *cmd)
{
	static int (*real)(const char *);
	const struct ct_policy *p = ct_policy();

	if (!real)
		real = (int (*)(const char *))dlsym(RTLD_NEXT, "system");
	if (!real || !p) {
		errno = !real ? ENOSYS : EACCES;
		return -1;
	}
	if (p->active)
		ct_repair_environ(p);
	return real(cmd);
}

API FILE *popen(const char *cmd, const char *mode)
{
	static FILE *(*real)(const char *, const char *);
	const struct ct_policy *p = ct_policy();

	if (!real)
		real = (FILE * (*)(const char *, const char *)) dlsym(RTLD_NEXT, "popen");
	if (!real || !p) {
		errno = !real ? ENOSYS : EACCES;
		return NULL;
	}
	if (p->active)
		ct_repair_environ(p);
	return real(cmd, mode);
}

/* wordexp runs /bin/sh for command substitution with environ, like system. */
API int wordexp(const char *words, wordexp_t *we, int flags)
{
	static int (*real)(const char *, wordexp_t *, int);
	const struct ct_policy *p = ct_policy();

	if (!real)
		real = (int (*)(const char *, wordexp_t *, int))dlsym(RTLD_NEXT, "wordexp");
	if (!real || !p)
		return WRDE_NOSPACE;
	if (p->active && !(flags & WRDE_NOCMD))
		ct_repair_environ(p);
	return real(words, we, flags);
}
