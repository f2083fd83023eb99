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
#include "sys.h"

/* a bit of fts_options glibc never uses (its own stop at 0x0200): set after
 * fts_open on a walk that emulates FTS_LOGICAL */
#define CT_FTS_LOGICAL 0x40000000

typedef FTS *(*fts_open_fn)(char *const *, int, int (*)(const FTSENT **, const FTSENT **));
typedef FTSENT *(*fts_read_fn)(FTS *);
typedef int (*fts_set_fn)(FTS *, FTSENT *, int);

static void *real(const char *name)
{
	return dlsym(RTLD_NEXT, name);
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
			if (errno == EACCES || errno == ELOOP)
				return NULL;
			continue;	/* missing inside: fts reports it */
		}
		sys_close(fd);
	}
	if (logical)
		options = (options & ~FTS_LOGICAL) | FTS_PHYSICAL | FTS_NOCHDIR | FTS_COMFOLLOW;
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

static void refuse(FTSENT *e)
{
	e->fts_info = FTS_NS;
	e->fts_errno = EACCES;
	if (e->fts_statp)
		memset(e->fts_statp, 0, sizeof(*e->fts_statp));
}

/*
 * Is e the object its path names now, inside? follow: resolve a final link.
 * Reports a denial under op.
 */
static int entry_ok(const struct ct_policy *p, const char *op, const FTSENT *e, int follow)
{
	struct ct_verdict v;
	struct stat st;
	int fd, r;

	fd = ct_checked_open(p, op, AT_FDCWD, e->fts_accpath,
			     O_PATH | O_CLOEXEC | (follow ? 0 : O_NOFOLLOW), 0, 0, follow, &v);
	if (fd < 0)
		return 0;
	r = sys_fstatat(fd, "", &st, AT_EMPTY_PATH) == 0 && e->fts_statp &&
	    st.st_dev == e->fts_statp->st_dev && st.st_ino == e->fts_statp->st_ino;
	sys_close(fd);
	return r;
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
	e = rd(f);
	if (!e || !p->active)
		return e;
	switch (e->fts_info) {
	case FTS_DP: case FTS_DNR: case FTS_ERR: case FTS_NS: case FTS_NSOK: case FTS_DC:
		return e;	/* nothing stat'ed to verify, or already reported */
	case FTS_SL: case FTS_SLNONE:
		if (!entry_ok(p, op, e, 0)) {
			refuse(e);
			return e;
		}
		if (!(f->fts_options & CT_FTS_LOGICAL))
			return e;
		/* the logical walk follows it, if the target is inside */
		{
			struct ct_verdict v;
			int fd = ct_checked_open(p, op, AT_FDCWD, e->fts_accpath, O_PATH | O_CLOEXEC, 0, 0, 1, &v);

			if (fd < 0) {
				if (errno == ENOENT)
					return e;	/* dangling inside: FTS_SLNONE */
				refuse(e);
				return e;
			}
			sys_close(fd);
		}
		if (set(f, e, FTS_FOLLOW) != 0 || (e = rd(f)) == NULL)
			return e;
		if (e->fts_info == FTS_SL || e->fts_info == FTS_SLNONE || e->fts_info == FTS_NS)
			return e;
		break;
	default:
		break;
	}
	/* a directory, file or followed link: the object itself */
	if (!entry_ok(p, op, e, 1)) {
		refuse(e);
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
 * fts_children: the entries of the current directory. In the default mode
 * fts stat'ed them from inside the directory fts_read verified (fts compares
 * it when it changes into it), without following links: nothing to check.
 * With FTS_NOCHDIR it reached them by path: each is checked as fts_read
 * checks it. In a logical walk a link is followed here through the resolver
 * and reported as its target (or FTS_NS/EACCES), as glibc's logical walk
 * reports it.
 */
static FTSENT *children(const char *op, const char *cname, FTS *f, int instr)
{
	FTSENT *(*fn)(FTS *, int) = (FTSENT * (*)(FTS *, int)) real(cname);
	const struct ct_policy *p = ct_policy();
	FTSENT *list;

	if (!fn || !p) {
		errno = !fn ? ENOSYS : EACCES;
		return NULL;
	}
	list = fn(f, instr);
	if (!p->active || instr == FTS_NAMEONLY || !(f->fts_options & FTS_NOCHDIR))
		return list;
	for (FTSENT *e = list; e; e = e->fts_link) {
		int link = e->fts_info == FTS_SL || e->fts_info == FTS_SLNONE;
		int follow = !link || (f->fts_options & CT_FTS_LOGICAL);
		struct ct_verdict v;
		struct stat st;
		char *path;
		int fd;

		if (e->fts_info == FTS_NS || e->fts_info == FTS_NSOK || e->fts_info == FTS_ERR ||
		    e->fts_info == FTS_DNR)
			continue;
		path = child_path(e);
		if (!path) {
			refuse(e);
			continue;
		}
		fd = ct_checked_open(p, op, AT_FDCWD, path, O_PATH | O_CLOEXEC | (follow ? 0 : O_NOFOLLOW),
				     0, 0, follow, &v);
		free(path);
		if (fd < 0) {
			if (!(link && errno == ENOENT))
				refuse(e);
			continue;	/* a dangling link inside stays FTS_SLNONE */
		}
		if (sys_fstatat(fd, "", &st, AT_EMPTY_PATH) != 0 || !e->fts_statp) {
			refuse(e);
		} else if (link && follow) {
			*e->fts_statp = st;	/* the logical walk reports the target */
			e->fts_info = S_ISDIR(st.st_mode) ? FTS_D : S_ISREG(st.st_mode) ? FTS_F : FTS_DEFAULT;
		} else if (st.st_dev != e->fts_statp->st_dev || st.st_ino != e->fts_statp->st_ino) {
			refuse(e);
		}
		sys_close(fd);
	}
	return list;
}

API FTSENT *fts_children(FTS *f, int instr)
{
	return children("fts_children", "fts_children", f, instr);
}

API FTSENT64 *fts64_children(FTS64 *f, int instr)
{
	return (FTSENT64 *)children("fts_children", "fts64_children", (FTS *)f, instr);
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
		int fd = ct_checked_open(p, op, AT_FDCWD, e->fts_accpath, O_PATH | O_CLOEXEC, 0, 0, 1, &v);

		if (fd < 0) {
			if (errno != ENOENT)
				refuse(e);
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
