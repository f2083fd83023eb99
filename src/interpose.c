/*
 * interpose.c: loading the policy, and the open and stat families.
 *
 * Every wrapper funnels into ct_checked_open(): the path is opened by the
 * resolver (src/resolve.c) and the call is then completed on the fd it
 * returns (fstat, faccessat2, fdopen), so the object checked is the object
 * used. The exported names are exactly the rows of src/symbols.def.
 */
#include "config.h"

#include <dlfcn.h>
#include <errno.h>
#include <sched.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>

#include "libcontain.h"
#include "contain.h"
#include "interpose.h"
#include "report.h"
#include "sys.h"

/* ------------------------------------------------------------------ */
/* loading                                                              */

static struct ct_policy *policy_ptr CT_START_DATA;

/*
 * getenv, by hand: at start-up every child reads a dozen variables, and the
 * first call into libc's getenv faults its page in (~10 us here); a vfork
 * child may not call getenv at all.
 */
CT_START_TEXT
const char *ct_env_in(char *const envp[], const char *name)
{
	size_t n = 0;

	while (name[n])
		n++;
	for (char *const *e = envp; e && *e; e++) {
		size_t i = 0;

		while (i < n && (*e)[i] == name[i])
			i++;
		if (i == n && (*e)[n] == '=')
			return *e + n + 1;
	}
	return NULL;
}

CT_START_TEXT
const char *ct_env_value(const char *name)
{
	return ct_env_in(environ, name);
}

static int init_state CT_START_DATA;	/* 0 not loaded, 1 loading, 2 loaded */
static unsigned long init_thread CT_START_DATA;	/* the loading thread's */

/* Which thread this is, without a system call (gettid): the thread
 * pointer, distinct for every live thread of the process. */
static inline unsigned long this_thread(void)
{
	unsigned long tp;

	__asm__("mov %%fs:0, %0" : "=r"(tp));
	return tp;
}

/* Is this process held by a Landlock domain? "/" is never granted (it is
 * no tree), so listing it fails with EACCES only under Landlock. */
static int landlock_in_force(void)
{
	int fd = sys_openat(AT_FDCWD, "/", O_RDONLY | O_DIRECTORY | O_CLOEXEC, 0);

	if (fd >= 0) {
		sys_close(fd);
		return 0;
	}
	return errno == EACCES;
}

/*
 * The kernel layers. CONTAIN_LAYERS: unset or "auto" = every layer this
 * kernel has (a missing one is reported); "none"; or a list of "landlock"
 * and "seccomp", each then required. The first process of a tree applies
 * them (the contain launcher may have applied Landlock before exec:
 * CONTAIN_LANDLOCKED=1, believed only if a domain is in force); its
 * children inherit them. Every process then notes what holds it.
 *
 * layers_wanted: CONTAIN_LAYERS read, before the policy is loaded: the
 * layers to apply (*need) and the ones named (*required). A bad value
 * ends the process.
 */
static void layers_wanted(unsigned *need, unsigned *required)
{
	const char *want = ct_env_value("CONTAIN_LAYERS");
	char err[1024];
	int is_auto;

	if (ct_layers_parse(want, need, &is_auto) < 0 || (*need & CT_LAYER_SUPERVISOR)) {
		snprintf(err, sizeof(err), "CONTAIN_LAYERS=\"%s\": unknown layer (use auto, none, "
			 "landlock, seccomp; the supervisor runs only under contain)", want);
		ct_config_error(err);
		_exit(LIBCONTAIN_EXIT_POLICY);
	}
	*required = *need;
	if (is_auto)
		*need = CT_LAYER_LANDLOCK | CT_LAYER_SECCOMP;
}

/* Will both layers hold a first process that applies need? Then
 * kernel_layers applies them, or the process exits (a kernel without
 * Landlock is the one case that goes on without them). */
static int layers_will_hold(unsigned need)
{
	return ct_both_layers(need) && ct_landlock_abi() > 0;
}

static void kernel_layers(struct ct_policy *p, unsigned need, unsigned required)
{
	char err[1024] = "";

	if (!p->inherited) {
		if (need & CT_LAYER_LANDLOCK) {
			const char *ll = ct_env_value("CONTAIN_LANDLOCKED");

			if (ll && !strcmp(ll, "1") && landlock_in_force())
				;	/* the launcher applied this policy's ruleset */
			else if (!ct_landlock_abi()) {
				if (required & CT_LAYER_LANDLOCK) {
					ct_config_error("CONTAIN_LAYERS=landlock: this kernel has no Landlock "
							"(Linux 5.13 or later, enabled in the lsm= list)");
					_exit(LIBCONTAIN_EXIT_POLICY);
				}
				ct_config_note("warning: this kernel has no Landlock: raw system calls and "
						"static programs are not contained (CONTAIN_LAYERS=none says "
						"so on purpose)");
			} else if (ct_landlock_apply(p, err, sizeof(err)) < 0) {
				ct_config_error(err);
				_exit(LIBCONTAIN_EXIT_POLICY);
			}
		}
		if ((need & CT_LAYER_SECCOMP) && !ct_seccomp_present() &&
		    ct_seccomp_install(err, sizeof(err)) < 0) {
			ct_config_error(err);
			_exit(LIBCONTAIN_EXIT_POLICY);
		}
	}
	if (!p->inherited) {
		p->kernel = (need & CT_LAYER_LANDLOCK) && ct_landlock_abi() ? CT_LAYER_LANDLOCK : 0;
		p->kernel |= (need & CT_LAYER_SECCOMP) ? CT_LAYER_SECCOMP : 0;
	} else {
		/* what the parent applied (or the launcher, before exec): it
		 * comes with the policy snapshot, which a parent's exec restores */
		const char *k = ct_env_value("CONTAIN_KERNEL");
		unsigned named = 0;
		int named_auto;

		p->kernel = 0;
		/* the words ct_layer_names wrote (parsed without stdio or
		 * strstr: every child does this at start) */
		if (k && ct_layers_parse(k, &named, &named_auto) < 0)
			named = 0;
		if (named & CT_LAYER_LANDLOCK)
			p->kernel |= CT_LAYER_LANDLOCK;
		if ((named & CT_LAYER_SECCOMP) && ct_seccomp_present())
			p->kernel |= CT_LAYER_SECCOMP;
	}
	/* children are told what holds them */
	ct_policy_env(p, "CONTAIN_KERNEL", ct_layer_names(p->kernel));
}

/* A character ld.so splits LD_PRELOAD at (no strpbrk: its pages would be
 * faulted in at every start for this one test). */
static int has_separator(const char *s)
{
	for (; *s; s++)
		if (*s == ':' || *s == ' ' || *s == '\t' || *s == '\n')
			return 1;
	return 0;
}

CT_START_TEXT
static void load_policy(void)
{
	struct ct_env e;
	Dl_info info;
	char err[1024];
	size_t len;
	struct ct_policy *p;
	unsigned need = 0, required = 0;
	const char *vars[] = { "CONTAIN_ROOT", "CONTAIN_READ", "CONTAIN_WRITE", "CONTAIN_DENY",
			       "CONTAIN_LOG", "CONTAIN_TMPDIR", "LD_PRELOAD", "CONTAIN_POLICY" };
	size_t i;

	memset(&e, 0, sizeof(e));
	e.root = ct_env_value("CONTAIN_ROOT");
	if (e.root)
		layers_wanted(&need, &required);
	e.read = ct_env_value("CONTAIN_READ");
	e.write = ct_env_value("CONTAIN_WRITE");
	e.deny = ct_env_value("CONTAIN_DENY");
	e.log = ct_env_value("CONTAIN_LOG");
	e.tmpdir = ct_env_value("CONTAIN_TMPDIR");
	e.optout = ct_env_value("CONTAIN_OPTOUT");
	e.preload = ct_env_value("LD_PRELOAD");
	e.serialized = ct_env_value("CONTAIN_POLICY");
	e.create_tmpdir = 1;
	/* asked only where the policy will be resolved here */
	e.kernel_holds = e.root && !e.serialized && layers_will_hold(need);
	e.verified_interp = ct_verified_interp;
	if (dladdr((void *)&load_policy, &info) && info.dli_fname && info.dli_fname[0]) {
		static char self[4096];
		long n;

		e.self_path = info.dli_fname;
		/* relative to the cwd the loader used, which is ours now */
		if (info.dli_fname[0] != '/' && strchr(info.dli_fname, '/') &&
		    (n = sys_getcwd(self, sizeof(self))) > 0 &&
		    (size_t)n + strlen(info.dli_fname) + 1 < sizeof(self)) {
			self[n - 1] = '/';
			memcpy(self + n, info.dli_fname, strlen(info.dli_fname) + 1);
			e.self_path = self;
		}
	}

	/* one mapping for the policy and its strings, read-only once built */
	len = sizeof(*p) + 256 * 1024;
	for (i = 0; i < sizeof(vars) / sizeof(vars[0]); i++) {
		const char *v = ct_env_value(vars[i]);

		if (v)
			len += 4 * strlen(v);
	}
	len = (len + 4095) & ~(size_t)4095;
	p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED) {
		ct_config_error("cannot map memory for the policy");
		_exit(LIBCONTAIN_EXIT_POLICY);
	}
	if (e.root && e.self_path && has_separator(e.self_path)) {
		/* ld.so splits LD_PRELOAD there: children would run uncontained */
		snprintf(err, sizeof(err), "LD_PRELOAD=\"%s\": the library's path holds a ':' or a space, "
			 "which LD_PRELOAD cannot pass to children", e.self_path);
		ct_config_error(err);
		_exit(LIBCONTAIN_EXIT_POLICY);
	}
	if (ct_policy_load(p, len, &e, err, sizeof(err)) < 0) {
		ct_config_error(err);
		_exit(LIBCONTAIN_EXIT_POLICY);
	}
	if (p->active)
		kernel_layers(p, need, required);
	/* the records' owner: a vfork or fork child (another pid) fills none */
	p->owner = sys_getpid();
	mprotect(p, len, PROT_READ);
	/* the resolution's walks kept a scratch mapping: not every process
	 * walks again, so it is not kept resident for them */
	ct_scratch_release();
	policy_ptr = p;
}

/*
 * The contain launcher's handshake: CONTAIN_HANDSHAKE names a pipe it holds;
 * the library says it loaded (and which layers hold this process) and
 * closes it. The variable goes, so that no child answers in its place.
 */
CT_START_TEXT
static void handshake(const struct ct_policy *p)
{
	const char *h = ct_env_value("CONTAIN_HANDSHAKE");
	const char *v;
	struct stat st;
	char line[160];
	int fd = 0, n;

	if (!h)
		return;
	for (; *h >= '0' && *h <= '9' && fd < 100000; h++)
		fd = fd * 10 + (*h - '0');
	unsetenv("CONTAIN_HANDSHAKE");
	if (*h || sys_fstatat(fd, "", &st, AT_EMPTY_PATH) != 0 || !S_ISFIFO(st.st_mode))
		return;
	v = p->active ? libcontain_version() : PACKAGE_VERSION " (opted out)";
	n = snprintf(line, sizeof(line), "L%s\n", v);
	if (n > 0 && (size_t)n < sizeof(line))
		(void)sys_write(fd, line, (size_t)n);
	sys_close(fd);
}

CT_START_TEXT
const struct ct_policy *ct_policy(void)
{
	int s = __atomic_load_n(&init_state, __ATOMIC_ACQUIRE);

	if (s == 2)
		return policy_ptr;
	s = 0;
	if (__atomic_compare_exchange_n(&init_state, &s, 1, 0, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE)) {
		init_thread = this_thread();
		load_policy();
		__atomic_store_n(&init_state, 2, __ATOMIC_RELEASE);
		/* before the repair below, which drops every CONTAIN_* */
		handshake(policy_ptr);
		/* this process sees the snapshot (TMPDIR) too, not only children */
		if (policy_ptr->active)
			ct_repair_environ(policy_ptr);
		return policy_ptr;
	}
	if (init_thread == this_thread())
		return NULL;	/* re-entered from a signal handler while loading */
	while (__atomic_load_n(&init_state, __ATOMIC_ACQUIRE) != 2)
		sched_yield();
	return policy_ptr;
}

/* The anchor records are on in this library (src/fd.c keeps them true),
 * and only here: the launcher and the unit tests link the resolver without
 * it. A constant, not a flag set at start: no page is written for it. */
const int ct_records_default = 1;

CT_START_TEXT
__attribute__((constructor)) static void contain_init(void)
{
	(void)ct_policy();
}

API const char *libcontain_version(void)
{
	const struct ct_policy *p = ct_policy();

	if (!p || !p->active)
		return PACKAGE_VERSION " (opted out)";
	switch (p->kernel) {
	case CT_LAYER_LANDLOCK | CT_LAYER_SECCOMP: return PACKAGE_VERSION " (active: interposer, landlock, seccomp)";
	case CT_LAYER_LANDLOCK: return PACKAGE_VERSION " (active: interposer, landlock)";
	case CT_LAYER_SECCOMP: return PACKAGE_VERSION " (active: interposer, seccomp)";
	default: return PACKAGE_VERSION " (active: interposer)";
	}
}

/* ------------------------------------------------------------------ */
/* the funnel                                                           */


static unsigned need_of(int flags)
{
	if (flags & O_PATH)
		return 0;
	if ((flags & O_ACCMODE) != O_RDONLY || (flags & (O_CREAT | O_TRUNC)) ||
	    (flags & O_TMPFILE) == O_TMPFILE)
		return (flags & O_ACCMODE) == O_WRONLY ? CT_W : CT_R | CT_W;
	return CT_R;
}

static int follow_of(int flags)
{
	return !(flags & O_NOFOLLOW) && (flags & (O_CREAT | O_EXCL)) != (O_CREAT | O_EXCL);
}

static int open_at(const char *op, int dirfd, const char *path, int flags, mode_t mode)
{
	const struct ct_policy *p = ct_policy();
	struct ct_verdict v;

	if (!p) {
		errno = EACCES;
		return -1;
	}
	if (!p->active)
		return sys_openat(dirfd, path, flags, mode);
	return ct_checked_open(p, op, dirfd, path, flags, mode, need_of(flags), follow_of(flags), &v);
}

/* ------------------------------------------------------------------ */
/* open family                                                          */

#define MODE_ARG(flags, mode)                                   \
	do {                                                     \
		if ((flags) & O_CREAT || ((flags) & O_TMPFILE) == O_TMPFILE) { \
			va_list ap;                              \
			va_start(ap, flags);                     \
			mode = (mode_t)va_arg(ap, int);          \
			va_end(ap);                              \
		}                                                \
	} while (0)

API int open(const char *path, int flags, ...)
{
	mode_t mode = 0;

	MODE_ARG(flags, mode);
	return open_at("open", AT_FDCWD, path, flags, mode);
}

API int open64(const char *path, int flags, ...)
{
	mode_t mode = 0;

	MODE_ARG(flags, mode);
	return open_at("open64", AT_FDCWD, path, flags, mode);
}

API int openat(int dirfd, const char *path, int flags, ...)
{
	mode_t mode = 0;

	MODE_ARG(flags, mode);
	return open_at("openat", dirfd, path, flags, mode);
}

API int openat64(int dirfd, const char *path, int flags, ...)
{
	mode_t mode = 0;

	MODE_ARG(flags, mode);
	return open_at("openat64", dirfd, path, flags, mode);
}

/* _FORTIFY_SOURCE variants: glibc aborts on O_CREAT without a mode. */
int __open_2(const char *path, int flags);
int __open64_2(const char *path, int flags);
int __openat_2(int dirfd, const char *path, int flags);
int __openat64_2(int dirfd, const char *path, int flags);

static void fortify_check(int flags)
{
	if (flags & O_CREAT || (flags & O_TMPFILE) == O_TMPFILE) {
		static const char msg[] = "*** invalid open call: O_CREAT or O_TMPFILE without mode ***\n";

		sys_write(2, msg, sizeof(msg) - 1);
		abort();
	}
}

API int __open_2(const char *path, int flags)
{
	fortify_check(flags);
	return open_at("__open_2", AT_FDCWD, path, flags, 0);
}

API int __open64_2(const char *path, int flags)
{
	fortify_check(flags);
	return open_at("__open64_2", AT_FDCWD, path, flags, 0);
}

API int __openat_2(int dirfd, const char *path, int flags)
{
	fortify_check(flags);
	return open_at("__openat_2", dirfd, path, flags, 0);
}

API int __openat64_2(int dirfd, const char *path, int flags)
{
	fortify_check(flags);
	return open_at("__openat64_2", dirfd, path, flags, 0);
}

API int creat(const char *path, mode_t mode)
{
	return open_at("creat", AT_FDCWD, path, O_WRONLY | O_CREAT | O_TRUNC, mode);
}

API int creat64(const char *path, mode_t mode)
{
	return open_at("creat64", AT_FDCWD, path, O_WRONLY | O_CREAT | O_TRUNC, mode);
}

/* fopen's mode string as open(2) flags (glibc's rules), -1 if invalid. */
static int fopen_flags(const char *mode)
{
	int flags;
	const char *m;

	if (!mode)
		return -1;
	switch (mode[0]) {
	case 'r': flags = O_RDONLY; break;
	case 'w': flags = O_WRONLY | O_CREAT | O_TRUNC; break;
	case 'a': flags = O_WRONLY | O_CREAT | O_APPEND; break;
	default: return -1;
	}
	for (m = mode + 1; *m && *m != ','; m++) {
		switch (*m) {
		case '+': flags = (flags & ~O_ACCMODE) | O_RDWR; break;
		case 'x': flags |= O_EXCL; break;
		case 'e': flags |= O_CLOEXEC; break;
		default: break;
		}
	}
	return flags;
}

static FILE *fopen_common(const char *op, const char *path, const char *mode)
{
	int flags = fopen_flags(mode), fd, e;
	FILE *fp;

	if (flags < 0) {
		errno = EINVAL;
		return NULL;
	}
	fd = open_at(op, AT_FDCWD, path, flags, 0666);
	if (fd < 0)
		return NULL;
	fp = fdopen(fd, mode);
	if (!fp) {
		e = errno;
		sys_close(fd);
		errno = e;
	}
	return fp;
}

API FILE *fopen(const char *path, const char *mode)
{
	return fopen_common("fopen", path, mode);
}

API FILE *fopen64(const char *path, const char *mode)
{
	return fopen_common("fopen64", path, mode);
}

typedef FILE *(*freopen_fn)(const char *, const char *, FILE *);

/*
 * freopen: open the path through the resolver, then let libc's freopen
 * reopen that very file through /proc/self/fd/N (the mode's 'x' dropped:
 * the file exists by then).
 */
static FILE *freopen_common(const char *op, const char *path, const char *mode, FILE *stream)
{
	static freopen_fn real;
	const struct ct_policy *p = ct_policy();
	char m[16], fdpath[40], own[40];
	int flags = fopen_flags(mode), fd, e, i, k = 0, old;
	FILE *r;

	if (!real)
		real = (freopen_fn)dlsym(RTLD_NEXT, "freopen");
	if (!real) {
		errno = ENOSYS;
		return NULL;
	}
	if (!p) {
		errno = EACCES;
		return NULL;
	}
	if (!p->active)
		return real(path, mode, stream);
	if (flags < 0) {
		errno = EINVAL;
		return NULL;
	}
	if (!path) {
		/* NULL: the stream's own file in a new mode (libc would reopen
		 * /proc/self/fd/N itself, unchecked: a write to a read tree) */
		snprintf(own, sizeof(own), "/proc/self/fd/%d", fileno(stream));
		path = own;
	}
	fd = open_at(op, AT_FDCWD, path, flags, 0666);
	if (fd < 0) {
		e = errno;
		fclose(stream);
		errno = e;
		return NULL;
	}
	for (i = 0; mode[i] && k < (int)sizeof(m) - 1; i++)
		if (mode[i] != 'x')
			m[k++] = mode[i];
	m[k] = 0;
	snprintf(fdpath, sizeof(fdpath), "/proc/self/fd/%d", fd);
	/* glibc closes the stream's fd and dup3s the new file onto its number
	 * inside: no anchor record of that number may outlive the call */
	old = fileno(stream);
	ct_forget_fd(old);
	r = real(fdpath, m, stream);
	e = errno;
	ct_forget_fd(old);
	sys_close(fd);
	errno = e;
	return r;
}

API FILE *freopen(const char *path, const char *mode, FILE *stream)
{
	return freopen_common("freopen", path, mode, stream);
}

API FILE *freopen64(const char *path, const char *mode, FILE *stream)
{
	return freopen_common("freopen64", path, mode, stream);
}

/* ------------------------------------------------------------------ */
/* stat family                                                          */

/*
 * Open the object O_PATH (following per atflags) for a metadata call; the
 * caller completes the call on the returned fd. -2: no path involved
 * (AT_EMPTY_PATH with ""), act on dirfd directly.
 */
static int meta_open(const struct ct_policy *p, const char *op, int dirfd, const char *path,
		     int atflags, struct ct_verdict *v)
{
	int nofollow = atflags & AT_SYMLINK_NOFOLLOW;

	if ((atflags & AT_EMPTY_PATH) && path && !*path)
		return -2;
	return ct_checked_open(p, op, dirfd, path, O_PATH | O_CLOEXEC | (nofollow ? O_NOFOLLOW : 0),
			       0, 0, !nofollow, v);
}

/*
 * A single name below a directory the kernel can contain (find's
 * fstatat(dirfd, name, AT_SYMLINK_NOFOLLOW), stat("file") in the cwd): no
 * lookup can leave that directory, so one fstatat without following does it.
 * 1: done (result in st or errno); 0: take the general path (a symlink to
 * follow, several components, "..").
 */
static int stat_one_name(const struct ct_policy *p, int dirfd, const char *path,
			 struct stat *st, int atflags, int *r)
{
	const char *rel;
	int t, anchor, owned, saved = errno, e;

	if (!path || !*path)
		return 0;
	anchor = ct_fast_anchor(p, dirfd, path, CT_ONE_NAME, &rel, &t, &owned, NULL);
	if (anchor == -1)
		return 0;
	*r = sys_fstatat(anchor, rel, st, AT_SYMLINK_NOFOLLOW | (atflags & AT_NO_AUTOMOUNT));
	e = errno;
	if (owned)
		sys_close(anchor);
	errno = e;
	if (*r == 0 && S_ISLNK(st->st_mode) && !(atflags & AT_SYMLINK_NOFOLLOW)) {
		errno = saved;
		return 0;
	}
	if (*r == 0)
		errno = saved;
	return 1;
}

static int stat_at(const char *op, int dirfd, const char *path, struct stat *st, int atflags)
{
	const struct ct_policy *p = ct_policy();
	struct ct_verdict v;
	int fd, r, e;

	if (!p) {
		errno = EACCES;
		return -1;
	}
	if (!p->active)
		return sys_fstatat(dirfd, path, st, atflags);
	if (stat_one_name(p, dirfd, path, st, atflags, &r))
		return r;
	fd = meta_open(p, op, dirfd, path, atflags, &v);
	if (fd == -2)
		return sys_fstatat(dirfd, "", st, atflags);
	if (fd < 0)
		return -1;
	r = sys_fstatat(fd, "", st, AT_EMPTY_PATH);
	e = errno;
	sys_close(fd);
	errno = e;
	return r;
}

/* glibc's struct stat and stat64 are the kernel's on these ABIs. */
#if !defined(__x86_64__) && !defined(__aarch64__)
#error "libcontain: struct stat layout not checked for this architecture"
#endif
_Static_assert(sizeof(struct stat) == sizeof(struct stat64), "stat64 is stat");

API int stat(const char *path, struct stat *st)
{
	return stat_at("stat", AT_FDCWD, path, st, 0);
}

API int stat64(const char *path, struct stat64 *st)
{
	return stat_at("stat64", AT_FDCWD, path, (struct stat *)st, 0);
}

API int lstat(const char *path, struct stat *st)
{
	return stat_at("lstat", AT_FDCWD, path, st, AT_SYMLINK_NOFOLLOW);
}

API int lstat64(const char *path, struct stat64 *st)
{
	return stat_at("lstat64", AT_FDCWD, path, (struct stat *)st, AT_SYMLINK_NOFOLLOW);
}

API int fstatat(int dirfd, const char *path, struct stat *st, int flags)
{
	return stat_at("fstatat", dirfd, path, st, flags);
}

API int fstatat64(int dirfd, const char *path, struct stat64 *st, int flags)
{
	return stat_at("fstatat64", dirfd, path, (struct stat *)st, flags);
}

/* pre-2.33 binaries: on x86-64 and aarch64 every _STAT_VER is this layout */
int __xstat(int ver, const char *path, struct stat *st);
int __xstat64(int ver, const char *path, struct stat64 *st);
int __lxstat(int ver, const char *path, struct stat *st);
int __lxstat64(int ver, const char *path, struct stat64 *st);
int __fxstatat(int ver, int dirfd, const char *path, struct stat *st, int flags);
int __fxstatat64(int ver, int dirfd, const char *path, struct stat64 *st, int flags);

API int __xstat(int ver, const char *path, struct stat *st)
{
	(void)ver;
	return stat_at("__xstat", AT_FDCWD, path, st, 0);
}

API int __xstat64(int ver, const char *path, struct stat64 *st)
{
	(void)ver;
	return stat_at("__xstat64", AT_FDCWD, path, (struct stat *)st, 0);
}

API int __lxstat(int ver, const char *path, struct stat *st)
{
	(void)ver;
	return stat_at("__lxstat", AT_FDCWD, path, st, AT_SYMLINK_NOFOLLOW);
}

API int __lxstat64(int ver, const char *path, struct stat64 *st)
{
	(void)ver;
	return stat_at("__lxstat64", AT_FDCWD, path, (struct stat *)st, AT_SYMLINK_NOFOLLOW);
}

API int __fxstatat(int ver, int dirfd, const char *path, struct stat *st, int flags)
{
	(void)ver;
	return stat_at("__fxstatat", dirfd, path, st, flags);
}

API int __fxstatat64(int ver, int dirfd, const char *path, struct stat64 *st, int flags)
{
	(void)ver;
	return stat_at("__fxstatat64", dirfd, path, (struct stat *)st, flags);
}

API int statx(int dirfd, const char *path, int flags, unsigned int mask, struct statx *stx)
{
	const struct ct_policy *p = ct_policy();
	struct ct_verdict v;
	int fd, r, e;

	if (!p) {
		errno = EACCES;
		return -1;
	}
	if (!p->active)
		return (int)syscall(SYS_statx, dirfd, path, flags, mask, stx);
	fd = meta_open(p, "statx", dirfd, path, flags, &v);
	if (fd == -2)
		return (int)syscall(SYS_statx, dirfd, "", flags, mask, stx);
	if (fd < 0)
		return -1;
	r = (int)syscall(SYS_statx, fd, "", AT_EMPTY_PATH | (flags & AT_STATX_SYNC_TYPE), mask, stx);
	e = errno;
	sys_close(fd);
	errno = e;
	return r;
}

static int access_at(const char *op, int dirfd, const char *path, int mode, int flags)
{
	const struct ct_policy *p = ct_policy();
	struct ct_verdict v;
	int fd, r, e;

	if (!p) {
		errno = EACCES;
		return -1;
	}
	if (!p->active)
		return (int)syscall(SYS_faccessat2, dirfd, path, mode, flags);
	if (path && *path && !(flags & AT_EMPTY_PATH)) {
		/* one name below a directory the kernel can contain: not a
		 * symlink, then ask about that very name (NOFOLLOW: a symlink
		 * swapped in meanwhile is answered for itself, not followed) */
		const char *rel;
		int t, owned, anchor = ct_fast_anchor(p, dirfd, path, CT_ONE_NAME, &rel, &t, &owned, NULL);

		if (anchor != -1) {
			struct stat st;
			int done = 0;

			r = sys_fstatat(anchor, rel, &st, AT_SYMLINK_NOFOLLOW);
			if (r < 0 || !S_ISLNK(st.st_mode) || (flags & AT_SYMLINK_NOFOLLOW)) {
				done = 1;
				if (r == 0 && (mode & W_OK) && !(p->trees[t].acc & CT_W)) {
					errno = EACCES;
					r = -1;
				} else if (r == 0) {
					r = (int)syscall(SYS_faccessat2, anchor, rel, mode,
							 AT_SYMLINK_NOFOLLOW | (flags & AT_EACCESS));
					if (r < 0 && errno == ENOSYS)
						done = 0;	/* before 5.8: below */
				}
			}
			e = errno;
			if (owned)
				sys_close(anchor);
			errno = e;
			if (done)
				return r;
		}
	}
	fd = meta_open(p, op, dirfd, path, flags, &v);
	if (fd == -2)
		return (int)syscall(SYS_faccessat2, dirfd, "", mode, flags);
	if (fd < 0)
		return -1;
	/* asking for write access in a read-only tree: a probe, say no quietly */
	if ((mode & W_OK) && v.tree >= 0 && !(p->trees[v.tree].acc & CT_W)) {
		sys_close(fd);
		errno = EACCES;
		return -1;
	}
	r = (int)syscall(SYS_faccessat2, fd, "", mode, AT_EMPTY_PATH | (flags & AT_EACCESS));
	if (r < 0 && errno == ENOSYS) {
		char fdpath[40];

		/* kernels before 5.8: through the magic link to this very object */
		snprintf(fdpath, sizeof(fdpath), "/proc/self/fd/%d", fd);
		r = (int)syscall(SYS_faccessat, AT_FDCWD, fdpath, mode);
	}
	e = errno;
	sys_close(fd);
	errno = e;
	return r;
}

API int access(const char *path, int mode)
{
	return access_at("access", AT_FDCWD, path, mode, 0);
}

API int faccessat(int dirfd, const char *path, int mode, int flags)
{
	return access_at("faccessat", dirfd, path, mode, flags);
}

API int eaccess(const char *path, int mode)
{
	return access_at("eaccess", AT_FDCWD, path, mode, AT_EACCESS);
}

API int euidaccess(const char *path, int mode)
{
	return access_at("euidaccess", AT_FDCWD, path, mode, AT_EACCESS);
}
