/*
 * fts.c: glibc's fts_open/fts_read/fts_children/fts_set (and the fts64
 * forms, the same layout on LP64).
 *
 * glibc's fts stats and opens with internal calls no wrapper sees. So:
 *  - fts_open checks every root (followed with FTS_LOGICAL or FTS_COMFOLLOW)
 *    and fails with EACCES if one is outside: nothing is walked.
 *  - FTS_LOGICAL runs as FTS_PHYSICAL|FTS_NOCHDIR|FTS_COMFOLLOW: fts never
 *    follows a link itself. When fts_read meets a link, the wrapper follows
 *    it through the resolver; inside, fts_set(FTS_FOLLOW) lets fts stat it
 *    again; outside (existing or not), the entry comes back as FTS_NS with
 *    fts_errno EACCES, as a logical walk built on the checked stat reports it.
 *  - Every entry fts_read returns is checked: its path is resolved (the link
 *    itself for FTS_SL, the object otherwise) and must be the very object fts
 *    stat'ed (device and inode); else it is FTS_NS/EACCES and not descended.
 * A program's own fts_set(FTS_FOLLOW) is checked by the same rule.
 * Residual: a link swapped between that check and fts's internal opendir of
 * a directory in FTS_NOCHDIR mode (see SECURITY.md); in the default chdir
 * mode fts itself compares the opened directory with the stat'ed one.
 */
#include "config.h"

#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <fts.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "contain.h"
#include "interpose.h"
#include "report.h"
#include "sys.h"

/* a bit of fts_options glibc never uses (its own stop at 0x0200): set after
 * fts_open on a walk that emulates FTS_LOGICAL */
#define CT_FTS_LOGICAL 0x40000000

typedef FTS *(*fts_open_fn)(char *const *, int, int (*)(const FTSENT **, const FTSENT **));
typedef FTSENT *(*fts_read_fn)(FTS *);
typedef int (*fts_set_fn)(FTS *, FTSENT *, int);

/* glibc's entry point name, looked up once (fts_read runs once per entry) */
static void *real(const char *name)
{
	static const char *const names[] = { "fts_open", "fts64_open", "fts_read", "fts64_read",
					     "fts_children", "fts64_children", "fts_set", "fts64_set",
					     "fts_close", "fts64_close" };
	static void *fns[sizeof(names) / sizeof(names[0])];

	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (!strcmp(name, names[i])) {
			void *f = __atomic_load_n(&fns[i], __ATOMIC_ACQUIRE);

			if (!f) {
				f = dlsym(RTLD_NEXT, name);
				__atomic_store_n(&fns[i], f, __ATOMIC_RELEASE);
			}
			return f;
		}
	return NULL;
}

static FTS *open_walk(const char *op, const char *name, char *const *argv, int options,
		      int (*compar)(const FTSENT **, const FTSENT **))
{
	fts_open_fn fn = (fts_open_fn)real(name);
	const struct ct_policy *p = ct_policy();
	int follow_roots, logical;
	FTS *f;

	if (!fn || !p) {
		errno = !fn ? ENOSYS : EACCES;
		return NULL;
	}
	if (!p->active || (options & ~FTS_OPTIONMASK) || !argv)
		return fn(argv, options, compar);
	logical = (options & FTS_LOGICAL) != 0;
	follow_roots = logical || (options & FTS_COMFOLLOW);
	for (char *const *a = argv; *a; a++) {
		struct ct_verdict v;
		int fd;

		if (!**a)
			continue;	/* fts reports ENOENT for it */
		fd = ct_checked_open(p, op, AT_FDCWD, *a, O_PATH | O_CLOEXEC | (follow_roots ? 0 : O_NOFOLLOW),
				     0, 0, follow_roots, &v);
		if (fd < 0) {
			if (v.reason != CT_OK)
				return NULL;
			continue;	/* missing or a loop inside: fts reports it */
		}
		sys_close(fd);
	}
	if (logical)
		/* glibc ignores FTS_NOSTAT in a logical walk: so does the emulation */
		options = (options & ~(FTS_LOGICAL | FTS_NOSTAT)) | FTS_PHYSICAL | FTS_NOCHDIR | FTS_COMFOLLOW;
	f = fn(argv, options, compar);
	if (f && logical)
		f->fts_options |= CT_FTS_LOGICAL;
	return f;
}

API FTS *fts_open(char *const *argv, int options, int (*compar)(const FTSENT **, const FTSENT **))
{
	return open_walk("fts_open", "fts_open", argv, options, compar);
}

/* FTS64/FTSENT64 have FTS/FTSENT's layout on LP64 (ino64_t, struct stat64) */
_Static_assert(sizeof(FTSENT64) == sizeof(FTSENT) && sizeof(FTS64) == sizeof(FTS),
	       "fts64 layout differs from fts");

API FTS64 *fts64_open(char *const *argv, int options,
		      int (*compar)(const FTSENT64 **, const FTSENT64 **))
{
	return (FTS64 *)open_walk("fts_open", "fts64_open", argv, options,
				  (int (*)(const FTSENT **, const FTSENT **))(void (*)(void))compar);
}

/* fts_statp is valid only without FTS_NOSTAT (glibc leaves it unset then) */
static struct stat *statp(const FTS *f, const FTSENT *e)
{
	return (f->fts_options & FTS_NOSTAT) ? NULL : e->fts_statp;
}

static void refuse(const FTS *f, FTSENT *e)
{
	struct stat *st = statp(f, e);

	e->fts_info = FTS_NS;
	e->fts_errno = EACCES;
	if (st)
		memset(st, 0, sizeof(*st));
}

/*
 * One child of the directory fts_children read: its path is the parent's
 * path and its name (fts_path of a child is fts's shared buffer, valid for
 * the current entry only). NULL when it cannot be built.
 */
static char *child_path(const FTSENT *e)
{
	const FTSENT *up = e->fts_parent;
	size_t n = up ? up->fts_pathlen : 0;
	char *s = malloc(n + e->fts_namelen + 2);

	if (!s || !up)
		return s ? (free(s), NULL) : NULL;
	memcpy(s, up->fts_path, n);
	s[n] = '/';
	memcpy(s + n + 1, e->fts_name, e->fts_namelen + 1);
	return s;
}

/*
 * Is e, inside, the object fts saw? Its path is resolved (follow: a final
 * link too) and compared by device and inode with fts's stat (or, under
 * FTS_NOSTAT, with the directory identity fts keeps). The current entry is
 * found by fts_accpath from the cwd fts set; a root by its given path; any
 * other entry (an fts_children list) by its full path from the walk's
 * starting directory. Reports a denial under op. 1 ok, 0 refuse.
 */
static int entry_open(const struct ct_policy *p, const char *op, const FTS *f, const FTSENT *e,
		      int follow, struct ct_verdict *v)
{
	int nochdir = (f->fts_options & FTS_NOCHDIR) != 0, dirfd = AT_FDCWD, fd;
	char *own = NULL;
	const char *path;

	if (e == f->fts_cur) {
		path = e->fts_accpath;
	} else if (e->fts_level == FTS_ROOTLEVEL) {
		path = e->fts_accpath;
		if (!nochdir)
			dirfd = f->fts_rfd;
	} else {
		path = own = child_path(e);
		if (!own) {
			v->reason = CT_UNVERIFIABLE;
			errno = ENOMEM;
			return -1;
		}
		if (!nochdir)
			dirfd = f->fts_rfd;
	}
	fd = ct_checked_open(p, op, dirfd, path, O_PATH | O_CLOEXEC | (follow ? 0 : O_NOFOLLOW), 0, 0,
			     follow, v);
	free(own);
	return fd;
}

static int entry_check(const struct ct_policy *p, const char *op, const FTS *f, const FTSENT *e,
		       int follow)
{
	const struct stat *sp = statp(f, e);
	struct ct_verdict v;
	struct stat st;
	int fd = entry_open(p, op, f, e, follow, &v), ok;

	if (fd < 0)
		return 0;
	ok = sys_fstatat(fd, "", &st, AT_EMPTY_PATH) == 0;
	if (ok && sp)
		ok = st.st_dev == sp->st_dev && st.st_ino == sp->st_ino;
	else if (ok && (e->fts_info == FTS_D || e->fts_info == FTS_DC || e->fts_info == FTS_DP))
		ok = st.st_dev == e->fts_dev && st.st_ino == e->fts_ino;
	sys_close(fd);
	return ok;
}

/*
 * Before fts reads the current directory (the next fts_read descends into
 * an FTS_D entry; fts_children reads it), it must still be the directory
 * that was verified: the program may have swapped it for a link since. A
 * changed one is skipped and reported FTS_NS/EACCES. 0 ok, -1 refused.
 */
static int verify_pending(const struct ct_policy *p, const char *op, FTS *f, fts_set_fn set)
{
	FTSENT *cur = f->fts_cur;

	if (!cur || cur->fts_info != FTS_D || cur->fts_instr == FTS_SKIP)
		return 0;
	if (entry_check(p, op, f, cur, 1))
		return 0;
	set(f, cur, FTS_SKIP);
	refuse(f, cur);
	return -1;
}

static FTSENT *read_walk(const char *op, const char *rname, const char *sname, FTS *f)
{
	fts_read_fn rd = (fts_read_fn)real(rname);
	fts_set_fn set = (fts_set_fn)real(sname);
	const struct ct_policy *p = ct_policy();
	FTSENT *e;

	if (!rd || !set || !p) {
		errno = !rd || !set ? ENOSYS : EACCES;
		return NULL;
	}
	if (p->active && f)
		verify_pending(p, op, f, set);
	e = rd(f);
	/* fts moves the cwd and closes its own fds inside: no record of either
	 * may outlive the call */
	ct_forget_all();
	if (!e || !p->active)
		return e;
	switch (e->fts_info) {
	case FTS_DP: case FTS_DNR: case FTS_ERR: case FTS_NS: case FTS_NSOK: case FTS_DC:
		return e;	/* nothing stat'ed to verify, or already reported */
	case FTS_SL: case FTS_SLNONE:
		if (!entry_check(p, op, f, e, 0)) {
			refuse(f, e);
			return e;
		}
		if (!(f->fts_options & CT_FTS_LOGICAL))
			return e;
		/* the logical walk follows it, if the target is inside */
		{
			struct ct_verdict v;
			int fd = ct_checked_open(p, op, AT_FDCWD, e->fts_accpath, O_PATH | O_CLOEXEC, 0, 0, 1, &v);

			if (fd < 0) {
				if (v.reason == CT_OK && (errno == ENOENT || errno == ELOOP))
					return e;	/* dangling or a loop inside: FTS_SLNONE */
				refuse(f, e);
				return e;
			}
			sys_close(fd);
		}
		if (set(f, e, FTS_FOLLOW) != 0)
			return e;
		e = rd(f);
		ct_forget_all();
		if (!e)
			return e;
		if (e->fts_info == FTS_SL || e->fts_info == FTS_SLNONE || e->fts_info == FTS_NS)
			return e;
		break;
	default:
		break;
	}
	/* a directory, file or followed link: the object itself */
	if (!entry_check(p, op, f, e, 1)) {
		refuse(f, e);
		set(f, e, FTS_SKIP);
	}
	return e;
}

API FTSENT *fts_read(FTS *f)
{
	return read_walk("fts_read", "fts_read", "fts_set", f);
}

API FTSENT64 *fts64_read(FTS64 *f)
{
	return (FTSENT64 *)read_walk("fts_read", "fts64_read", "fts64_set", (FTS *)f);
}

/*
 * fts_children: the entries of the current directory, which must still be
 * the verified one (any instr, FTS_NAMEONLY too). In the default mode fts
 * stat'ed them from inside it without following links: nothing more to
 * check. With FTS_NOCHDIR it reached them by path: each is checked as
 * fts_read checks it. In a logical walk a link is followed here through the
 * resolver and reported as its target (or FTS_NS/EACCES), as glibc's logical
 * walk reports it.
 */
static FTSENT *children(const char *op, const char *cname, const char *sname, FTS *f, int instr)
{
	FTSENT *(*fn)(FTS *, int) = (FTSENT * (*)(FTS *, int)) real(cname);
	fts_set_fn set = (fts_set_fn)real(sname);
	const struct ct_policy *p = ct_policy();
	FTSENT *list;

	if (!fn || !set || !p) {
		errno = !fn || !set ? ENOSYS : EACCES;
		return NULL;
	}
	if (p->active && f && verify_pending(p, op, f, set) < 0) {
		errno = EACCES;
		return NULL;
	}
	list = fn(f, instr);
	ct_forget_all();
	if (!p->active || instr == FTS_NAMEONLY || !(f->fts_options & FTS_NOCHDIR))
		return list;
	for (FTSENT *e = list; e; e = e->fts_link) {
		int link = e->fts_info == FTS_SL || e->fts_info == FTS_SLNONE;
		struct ct_verdict v;
		struct stat st, *sp = statp(f, e);
		int fd;

		if (e->fts_info == FTS_NS || e->fts_info == FTS_NSOK || e->fts_info == FTS_ERR ||
		    e->fts_info == FTS_DNR)
			continue;
		if (!link || !(f->fts_options & CT_FTS_LOGICAL)) {
			if (!entry_check(p, op, f, e, !link))
				refuse(f, e);
			continue;
		}
		fd = entry_open(p, op, f, e, 1, &v);
		if (fd < 0) {
			if (v.reason != CT_OK || !(errno == ENOENT || errno == ELOOP))
				refuse(f, e);
			continue;	/* dangling or a loop inside: FTS_SLNONE */
		}
		if (sys_fstatat(fd, "", &st, AT_EMPTY_PATH) != 0 || !sp) {
			refuse(f, e);
		} else {
			*sp = st;	/* the logical walk reports the target */
			e->fts_info = S_ISDIR(st.st_mode) ? FTS_D : S_ISREG(st.st_mode) ? FTS_F : FTS_DEFAULT;
			e->fts_dev = st.st_dev;
			e->fts_ino = st.st_ino;
		}
		sys_close(fd);
	}
	return list;
}

API FTSENT *fts_children(FTS *f, int instr)
{
	return children("fts_children", "fts_children", "fts_set", f, instr);
}

API FTSENT64 *fts64_children(FTS64 *f, int instr)
{
	return (FTSENT64 *)children("fts_children", "fts64_children", "fts64_set", (FTS *)f, instr);
}

/* fts_set(FTS_FOLLOW) on a link: fts would stat the target with its own
 * stat; a target outside is refused here, before any call names it. */
static int set_walk(const char *op, const char *sname, FTS *f, FTSENT *e, int instr)
{
	fts_set_fn fn = (fts_set_fn)real(sname);
	const struct ct_policy *p = ct_policy();

	if (!fn || !p) {
		errno = !fn ? ENOSYS : EACCES;
		return -1;
	}
	if (p->active && instr == FTS_FOLLOW && e &&
	    (e->fts_info == FTS_SL || e->fts_info == FTS_SLNONE)) {
		struct ct_verdict v;
		int fd = entry_open(p, op, f, e, 1, &v);

		if (fd < 0) {
			if (v.reason != CT_OK || !(errno == ENOENT || errno == ELOOP))
				refuse(f, e);
			return 0;	/* not followed: the walk goes on */
		}
		sys_close(fd);
	}
	return fn(f, e, instr);
}

API int fts_set(FTS *f, FTSENT *e, int instr)
{
	return set_walk("fts_set", "fts_set", f, e, instr);
}

API int fts64_set(FTS64 *f, FTSENT64 *e, int instr)
{
	return set_walk("fts_set", "fts64_set", (FTS *)f, (FTSENT *)e, instr);
}

/* fts_close closes fts's own fds and moves the cwd back, inside glibc */
static int close_walk(const char *name, FTS *f)
{
	int (*fn)(FTS *) = (int (*)(FTS *))real(name);
	int r, e;

	if (!fn) {
		errno = ENOSYS;
		return -1;
	}
	ct_forget_all();
	r = fn(f);
	e = errno;
	ct_forget_all();
	errno = e;
	return r;
}

API int fts_close(FTS *f)
{
	return close_walk("fts_close", f);
}

API int fts64_close(FTS64 *f)
{
	return close_walk("fts64_close", (FTS *)f);
}
