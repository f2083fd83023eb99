/*
 * walk.c: nftw and ftw, on the checked calls.
 *
 * glibc walks with its internal opendir and stat, which no wrapper sees:
 * nftw("/repo") through an outward link listed and stat'ed the outside.
 * This walk uses the interposed lstat/stat/opendir/chdir (the checks) and
 * keeps glibc's interface: FTW_PHYS, FTW_MOUNT, FTW_CHDIR, FTW_DEPTH,
 * FTW_ACTIONRETVAL, the FTW_F/D/DNR/DP/NS/SL/SLN codes, base and level.
 */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "contain.h"
#include "interpose.h"
#include "report.h"
#include "sys.h"

typedef int (*ftw_cb)(const char *, const struct stat *, int);
typedef int (*nftw_cb)(const char *, const struct stat *, int, struct FTW *);

struct walker {
	ftw_cb ftw;		/* ftw: three-argument callback */
	nftw_cb nftw;
	int flags;
	dev_t dev;		/* FTW_MOUNT: stay on it */
	struct visited {
		dev_t dev;
		ino_t ino;
	} *seen;		/* directories on the current branch (link loops) */
	int nseen, cap;
};

/*
 * Close a descriptor of the walk's own, which was open while the caller's
 * callback ran: the callback may have used its number as a dirfd, and an
 * anchor record of it must not outlive it.
 */
static void close_own(int fd)
{
	ct_forget_fd(fd);
	sys_close(fd);
	ct_forget_fd(fd);
}

/* 0: go on; FTW_STOP etc. or another nonzero value: stop with it. */
static int call(struct walker *w, const char *path, const struct stat *st, int type,
		int base, int level)
{
	struct FTW f = { base, level };

	return w->nftw ? w->nftw(path, st, type, &f) : w->ftw(path, st, type);
}

static int stop_value(const struct walker *w, int r)
{
	if (!(w->flags & FTW_ACTIONRETVAL))
		return r;
	return r == FTW_STOP ? r : 0;
}

static int walk_dir(struct walker *w, char **buf, size_t *cap, size_t len, int level);

/* Visit the object named by (*buf)[0..len), its last component at base. */
static int visit(struct walker *w, char **buf, size_t *cap, size_t len, int base, int level)
{
	struct stat st;
	int type, r, follow = !(w->flags & FTW_PHYS);
	const char *name = *buf + base;

	/* with FTW_CHDIR the cwd is the parent: the name alone */
	const char *use = (w->flags & FTW_CHDIR) && level > 0 ? name : *buf;

	if ((follow ? stat(use, &st) : lstat(use, &st)) < 0) {
		if (follow && errno == ENOENT && lstat(use, &st) == 0 && S_ISLNK(st.st_mode))
			type = FTW_SLN;
		else
			type = FTW_NS;
	} else if (S_ISLNK(st.st_mode)) {
		type = FTW_SL;
	} else if (S_ISDIR(st.st_mode)) {
		type = FTW_D;
	} else {
		type = FTW_F;
	}
	if (type == FTW_NS && level == 0)
		return -1;	/* the start itself: errno from stat */
	if (type == FTW_D && (w->flags & FTW_MOUNT) && st.st_dev != w->dev)
		return 0;
	if (type != FTW_D) {
		r = call(w, *buf, type == FTW_NS ? NULL : &st, type, base, level);
		return r == FTW_SKIP_SIBLINGS && (w->flags & FTW_ACTIONRETVAL) ? FTW_SKIP_SIBLINGS
									 : stop_value(w, r);
	}
	/* a directory: not twice on one branch (links can loop) */
	for (r = 0; r < w->nseen; r++)
		if (w->seen[r].dev == st.st_dev && w->seen[r].ino == st.st_ino)
			return 0;
	if (!(w->flags & FTW_DEPTH)) {
		r = call(w, *buf, &st, FTW_D, base, level);
		if ((w->flags & FTW_ACTIONRETVAL) && r == FTW_SKIP_SUBTREE)
			return 0;
		if ((w->flags & FTW_ACTIONRETVAL) && r == FTW_SKIP_SIBLINGS)
			return FTW_SKIP_SIBLINGS;
		if (stop_value(w, r))
			return stop_value(w, r);
	}
	if (w->nseen == w->cap) {
		struct visited *n = realloc(w->seen, (size_t)(w->cap = w->cap ? 2 * w->cap : 32) * sizeof(*n));

		if (!n)
			return -1;
		w->seen = n;
	}
	w->seen[w->nseen].dev = st.st_dev;
	w->seen[w->nseen++].ino = st.st_ino;
	r = walk_dir(w, buf, cap, len, level);
	w->nseen--;
	if (r == -2) {		/* unreadable: FTW_DNR instead */
		r = call(w, *buf, &st, FTW_DNR, base, level);
		return stop_value(w, r);
	}
	if (r)
		return r;
	if (w->flags & FTW_DEPTH) {
		r = call(w, *buf, &st, FTW_DP, base, level);
		if ((w->flags & FTW_ACTIONRETVAL) && r == FTW_SKIP_SIBLINGS)
			return FTW_SKIP_SIBLINGS;
		return stop_value(w, r);
	}
	return 0;
}

/* The entries of the directory (*buf)[0..len). -2: it cannot be read. */
static int walk_dir(struct walker *w, char **buf, size_t *cap, size_t len, int level)
{
	const char *open_as = (w->flags & FTW_CHDIR) && level > 0 ? *buf + len : *buf;
	struct dirent *de;
	DIR *d;
	int r = 0, saved = -1;

	if ((w->flags & FTW_CHDIR) && level > 0) {
		/* the name relative to the parent we stand in */
		const char *b = *buf + len;

		while (b > *buf && b[-1] != '/')
			b--;
		open_as = b;
	}
	d = opendir(open_as);
	if (!d)
		return -2;
	if (w->flags & FTW_CHDIR) {
		saved = (int)syscall(SYS_openat, AT_FDCWD, ".", O_PATH | O_DIRECTORY | O_CLOEXEC);
		if (fchdir(dirfd(d)) < 0) {
			closedir(d);
			if (saved >= 0)
				close_own(saved);
			return -2;
		}
	}
	while ((de = readdir(d)) != NULL) {
		size_t nl = strlen(de->d_name);

		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		if (len + nl + 2 > *cap) {
			char *n = realloc(*buf, *cap = (len + nl + 2) * 2);

			if (!n) {
				r = -1;
				break;
			}
			*buf = n;
		}
		(*buf)[len] = '/';
		memcpy(*buf + len + 1, de->d_name, nl + 1);
		r = visit(w, buf, cap, len + 1 + nl, (int)(len + 1), level + 1);
		(*buf)[len] = 0;
		if (r == FTW_SKIP_SIBLINGS) {
			r = 0;
			break;
		}
		if (r)
			break;
	}
	closedir(d);
	if (saved >= 0) {
		ct_forget_cwd();
		syscall(SYS_fchdir, saved);
		ct_forget_cwd();
		close_own(saved);
	}
	return r;
}

static int start(struct walker *w, const char *path)
{
	size_t len = strlen(path), cap = len + 256, base;
	char *buf;
	int r, cwd = -1;
	struct stat st;

	if (!*path) {
		errno = ENOENT;
		return -1;
	}
	buf = malloc(cap);
	if (!buf)
		return -1;
	memcpy(buf, path, len + 1);
	while (len > 1 && buf[len - 1] == '/')
		buf[--len] = 0;
	base = len;
	while (base > 0 && buf[base - 1] != '/')
		base--;
	if ((w->flags & FTW_MOUNT) && stat(buf, &st) == 0)
		w->dev = st.st_dev;
	if (w->flags & FTW_CHDIR)
		cwd = (int)syscall(SYS_openat, AT_FDCWD, ".", O_PATH | O_DIRECTORY | O_CLOEXEC);
	r = visit(w, &buf, &cap, len, (int)base, 0);
	if (cwd >= 0) {
		ct_forget_cwd();
		syscall(SYS_fchdir, cwd);
		ct_forget_cwd();
		close_own(cwd);
	}
	if (r == FTW_SKIP_SIBLINGS)
		r = 0;
	free(buf);
	free(w->seen);
	return r;
}

#define NFTW_FLAGS (FTW_PHYS | FTW_MOUNT | FTW_CHDIR | FTW_DEPTH)

/* nftw@GLIBC_2.2.5 (src/compat.c): unknown flags and FTW_ACTIONRETVAL are
 * dropped, as that version did; the current one refuses unknown flags. */
int ct_nftw(int compat, const char *path, nftw_cb fn, int flags)
{
	struct walker w = { NULL, fn, 0, 0, NULL, 0, 0 };

	if (compat) {
		flags &= NFTW_FLAGS;
	} else if (flags & ~(NFTW_FLAGS | FTW_ACTIONRETVAL)) {
		errno = EINVAL;
		return -1;
	}
	w.flags = flags;
	return start(&w, path);
}

API int nftw(const char *path, nftw_cb fn, int nopenfd, int flags)
{
	(void)nopenfd;
	return ct_nftw(0, path, fn, flags);
}

API int nftw64(const char *path, int (*fn)(const char *, const struct stat64 *, int, struct FTW *),
	       int nopenfd, int flags)
{
	/* struct stat64 is struct stat on these ABIs (see interpose.c) */
	return nftw(path, (nftw_cb)(void (*)(void))fn, nopenfd, flags);
}

API int ftw(const char *path, ftw_cb fn, int nopenfd)
{
	struct walker w = { fn, NULL, 0, 0, NULL, 0, 0 };

	(void)nopenfd;
	return start(&w, path);
}

API int ftw64(const char *path, int (*fn)(const char *, const struct stat64 *, int), int nopenfd)
{
	return ftw(path, (ftw_cb)(void (*)(void))fn, nopenfd);
}
