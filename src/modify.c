/*
 * modify.c: calls that create, remove, rename or change a name (mkdir,
 * unlink, rename, link, symlink, chmod, chown, truncate), open a directory
 * stream (opendir) or move the cwd (chdir).
 *
 * A call that acts on a name is done on that name below an O_PATH fd of its
 * parent directory, which the resolver opened and checked: what is checked
 * is what is changed. The final object must lie in a writable tree (a deny
 * entry or a read-only nested tree there refuses it).
 */
#include "config.h"

#include <dirent.h>
#include <dlfcn.h>
#include <glob.h>
#include <stddef.h>
#include <stdio_ext.h>
#include <mntent.h>
#include <sys/ipc.h>
#include <utmp.h>
#include <utmpx.h>
#include <libintl.h>
#include <locale.h>
#include <nl_types.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <limits.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/statvfs.h>
#include <sys/time.h>
#include <sys/xattr.h>
#include <unistd.h>
#include <utime.h>

#include "contain.h"
#include "interpose.h"
#include "report.h"
#include "sys.h"

#define NAME_BUF 260	/* a name (NAME_MAX) and a trailing slash */

/* The real path of the parent fd, then "/" and name, into real; -1 if none. */
static long object_path(int fd, const char *name, char *real, size_t len)
{
	char fdname[40];
	size_t nl = strlen(name);
	ssize_t rl;

	snprintf(fdname, sizeof(fdname), "/proc/self/fd/%d", fd);
	rl = sys_readlinkat(AT_FDCWD, fdname, real, len - nl - 2);
	if (rl <= 0 || real[0] != '/')
		return -1;
	if (rl == 1)
		rl = 0;		/* "/" */
	real[rl] = '/';
	memcpy(real + rl + 1, name, nl + 1);
	return rl;
}

/*
 * Open the parent directory of path and check that its last component may
 * be changed with need. Returns an O_PATH fd on the parent (caller closes)
 * and the last component in name (with a trailing '/' if path had one), or
 * -1 with errno (a denial is reported as op).
 */
static int open_parent(const struct ct_policy *p, const char *op, int dirfd, const char *path,
		       unsigned need, char *name)
{
	char dir[4096], real[4096];
	struct ct_verdict v;
	size_t n, end, start;
	int fd, t, trailing;

	if (!path) {
		errno = EFAULT;
		return -1;
	}
	n = strlen(path);
	if (n == 0) {
		errno = ENOENT;
		return -1;
	}
	end = n;
	while (end > 1 && path[end - 1] == '/')
		end--;
	trailing = end < n;
	start = end;
	while (start > 0 && path[start - 1] != '/')
		start--;
	if (end - start + 2 > NAME_BUF) {
		errno = ENAMETOOLONG;
		return -1;
	}
	if (start >= sizeof(dir)) {
		errno = ENAMETOOLONG;
		return -1;
	}
	if (end == 1 && path[0] == '/') {	/* "/" itself */
		memcpy(name, ".", 2);
		memcpy(dir, "/", 2);
	} else {
		memcpy(name, path + start, end - start);
		name[end - start] = 0;
		if (trailing)
			memcpy(name + (end - start), "/", 2);
		if (start == 0) {
			memcpy(dir, ".", 2);
		} else {
			memcpy(dir, path, start);
			dir[start] = 0;
		}
	}
	fd = ct_checked_open(p, op, dirfd, dir, O_PATH | O_DIRECTORY | O_CLOEXEC, 0, 0, 1, &v);
	if (fd < 0)
		return -1;
	t = v.tree;
	if (t < 0 && need == CT_R) {
		/* readlink of a directory above a tree or of a tree's root (as
		 * readlink -f asks on the way): implied by the policy */
		if (object_path(fd, name, real, sizeof(real)) >= 0 &&
		    (ct_is_ancestor(p, real, strlen(real)) ||
		     ct_tree_exact(p, real, strlen(real), sys_getpid()) >= 0))
			return fd;
	}
	if (t < 0) {
		/* a directory above the trees: nothing in it may change */
		sys_close(fd);
		v.reason = CT_OUTSIDE;
		v.detail = NULL;
		snprintf(v.resolved, sizeof(v.resolved), "%s", path);
		ct_report(p, op, path, &v);
		errno = EACCES;
		return -1;
	}
	if (!p->trees[t].fast) {
		/* nested trees or deny entries below: find the object's own */
		long rl = object_path(fd, name, real, sizeof(real));
		int deny;

		if (rl < 0) {
			sys_close(fd);
			v.reason = CT_UNVERIFIABLE;
			v.detail = "the parent directory has no path";
			v.resolved[0] = 0;
			ct_report(p, op, path, &v);
			errno = EACCES;
			return -1;
		}
		if (trailing)	/* the name's own slash: not part of the object */
			real[rl + strlen(name)] = 0;
		deny = ct_is_denied(p, real, strlen(real), sys_getpid());
		t = ct_tree_for(p, real, strlen(real), sys_getpid());
		if (deny || t < 0) {
			sys_close(fd);
			v.reason = deny ? CT_DENIED : CT_OUTSIDE;
			v.detail = NULL;
			snprintf(v.resolved, sizeof(v.resolved), "%s", real);
			ct_report(p, op, path, &v);
			errno = EACCES;
			return -1;
		}
	}
	if ((p->trees[t].acc & need) != need) {
		sys_close(fd);
		v.reason = (need & CT_W) && !(p->trees[t].acc & CT_W) ? CT_READONLY : CT_NOEXEC;
		v.detail = NULL;
		snprintf(v.resolved, sizeof(v.resolved), "%s", path);
		ct_report(p, op, path, &v);
		errno = EACCES;
		return -1;
	}
	return fd;
}

/* Close fd keeping errno, and return r. */
static int done(int fd, int r)
{
	int e = errno;

	sys_close(fd);
	errno = e;
	return r;
}

#define POLICY_OR_FAIL(p)                       \
	const struct ct_policy *p = ct_policy(); \
	if (!p) {                               \
		errno = EACCES;                 \
		return -1;                      \
	}

/* ---- mkdir ---- */

static int mkdir_at(const char *op, int dirfd, const char *path, mode_t mode)
{
	char name[NAME_BUF];
	int fd;

	POLICY_OR_FAIL(p);
	if (!p->active)
		return (int)syscall(SYS_mkdirat, dirfd, path, mode);
	fd = open_parent(p, op, dirfd, path, CT_W, name);
	if (fd < 0)
		return -1;
	return done(fd, (int)syscall(SYS_mkdirat, fd, name, mode));
}

API int mkdir(const char *path, mode_t mode)
{
	return mkdir_at("mkdir", AT_FDCWD, path, mode);
}

API int mkdirat(int dirfd, const char *path, mode_t mode)
{
	return mkdir_at("mkdirat", dirfd, path, mode);
}

/* ---- unlink, rmdir, remove ---- */

static int unlink_at(const char *op, int dirfd, const char *path, int flags)
{
	char name[NAME_BUF];
	int fd;

	POLICY_OR_FAIL(p);
	if (!p->active)
		return (int)syscall(SYS_unlinkat, dirfd, path, flags);
	fd = open_parent(p, op, dirfd, path, CT_W, name);
	if (fd < 0)
		return -1;
	return done(fd, (int)syscall(SYS_unlinkat, fd, name, flags));
}

API int unlink(const char *path)
{
	return unlink_at("unlink", AT_FDCWD, path, 0);
}

API int unlinkat(int dirfd, const char *path, int flags)
{
	return unlink_at("unlinkat", dirfd, path, flags);
}

API int rmdir(const char *path)
{
	return unlink_at("rmdir", AT_FDCWD, path, AT_REMOVEDIR);
}

API int remove(const char *path)
{
	int r = unlink_at("remove", AT_FDCWD, path, 0);

	/* glibc: a directory is removed with rmdir */
	if (r < 0 && errno == EISDIR)
		r = unlink_at("remove", AT_FDCWD, path, AT_REMOVEDIR);
	return r;
}

/* ---- rename ---- */

static int rename_at(const char *op, int olddirfd, const char *oldpath, int newdirfd,
		     const char *newpath, unsigned flags)
{
	char oname[NAME_BUF], nname[NAME_BUF];
	int ofd, nfd, r;

	POLICY_OR_FAIL(p);
	if (!p->active)
		return (int)syscall(SYS_renameat2, olddirfd, oldpath, newdirfd, newpath, flags);
	ofd = open_parent(p, op, olddirfd, oldpath, CT_W, oname);
	if (ofd < 0)
		return -1;
	nfd = open_parent(p, op, newdirfd, newpath, CT_W, nname);
	if (nfd < 0)
		return done(ofd, -1);
	r = (int)syscall(SYS_renameat2, ofd, oname, nfd, nname, flags);
	done(nfd, 0);
	return done(ofd, r);
}

API int rename(const char *oldpath, const char *newpath)
{
	return rename_at("rename", AT_FDCWD, oldpath, AT_FDCWD, newpath, 0);
}

API int renameat(int olddirfd, const char *oldpath, int newdirfd, const char *newpath)
{
	return rename_at("renameat", olddirfd, oldpath, newdirfd, newpath, 0);
}

API int renameat2(int olddirfd, const char *oldpath, int newdirfd, const char *newpath,
		  unsigned int flags)
{
	return rename_at("renameat2", olddirfd, oldpath, newdirfd, newpath, flags);
}

/* ---- link, symlink ---- */

/*
 * A hard link makes the old object reachable by a new name: it must lie in
 * a writable tree too (a link in the root to a read-only file would let
 * writes through the new name change it).
 */
static int link_at(const char *op, int olddirfd, const char *oldpath, int newdirfd,
		   const char *newpath, int flags)
{
	char oname[NAME_BUF], nname[NAME_BUF];
	int ofd, nfd, r;

	POLICY_OR_FAIL(p);
	if (!p->active)
		return (int)syscall(SYS_linkat, olddirfd, oldpath, newdirfd, newpath, flags);
	nfd = open_parent(p, op, newdirfd, newpath, CT_W, nname);
	if (nfd < 0)
		return -1;
	if (flags & AT_SYMLINK_FOLLOW) {
		struct ct_verdict v;
		char fdname[40];

		ofd = ct_checked_open(p, op, olddirfd, oldpath, O_PATH | O_CLOEXEC, 0, CT_W, 1, &v);
		if (ofd < 0)
			return done(nfd, -1);
		/* the checked object itself, through its magic link */
		snprintf(fdname, sizeof(fdname), "/proc/self/fd/%d", ofd);
		r = (int)syscall(SYS_linkat, AT_FDCWD, fdname, nfd, nname, AT_SYMLINK_FOLLOW);
	} else {
		ofd = open_parent(p, op, olddirfd, oldpath, CT_W, oname);
		if (ofd < 0)
			return done(nfd, -1);
		r = (int)syscall(SYS_linkat, ofd, oname, nfd, nname, 0);
	}
	done(ofd, 0);
	return done(nfd, r);
}

API int link(const char *oldpath, const char *newpath)
{
	return link_at("link", AT_FDCWD, oldpath, AT_FDCWD, newpath, 0);
}

API int linkat(int olddirfd, const char *oldpath, int newdirfd, const char *newpath, int flags)
{
	return link_at("linkat", olddirfd, oldpath, newdirfd, newpath, flags);
}

/* The target is only text: following the link later is checked like any path. */
static int symlink_at(const char *op, const char *target, int dirfd, const char *path)
{
	char name[NAME_BUF];
	int fd;

	POLICY_OR_FAIL(p);
	if (!p->active)
		return (int)syscall(SYS_symlinkat, target, dirfd, path);
	fd = open_parent(p, op, dirfd, path, CT_W, name);
	if (fd < 0)
		return -1;
	return done(fd, (int)syscall(SYS_symlinkat, target, fd, name));
}

API int symlink(const char *target, const char *path)
{
	return symlink_at("symlink", target, AT_FDCWD, path);
}

API int symlinkat(const char *target, int dirfd, const char *path)
{
	return symlink_at("symlinkat", target, dirfd, path);
}

/* ---- chmod, chown, truncate: on the checked object ---- */

static int chmod_at(const char *op, int dirfd, const char *path, mode_t mode, int flags)
{
	struct ct_verdict v;
	char fdname[40];
	struct stat st;
	int nofollow = flags & AT_SYMLINK_NOFOLLOW, fd;

	POLICY_OR_FAIL(p);
	if (!p->active)
		return (int)syscall(SYS_fchmodat, dirfd, path, mode);
	fd = ct_checked_open(p, op, dirfd, path, O_PATH | O_CLOEXEC | (nofollow ? O_NOFOLLOW : 0), 0,
			     CT_W, !nofollow, &v);
	if (fd < 0)
		return -1;
	if (nofollow && sys_fstatat(fd, "", &st, AT_EMPTY_PATH) == 0 && S_ISLNK(st.st_mode)) {
		errno = EOPNOTSUPP;	/* Linux has no modes on symlinks */
		return done(fd, -1);
	}
	snprintf(fdname, sizeof(fdname), "/proc/self/fd/%d", fd);
	return done(fd, (int)syscall(SYS_fchmodat, AT_FDCWD, fdname, mode));
}

API int chmod(const char *path, mode_t mode)
{
	return chmod_at("chmod", AT_FDCWD, path, mode, 0);
}

API int fchmodat(int dirfd, const char *path, mode_t mode, int flags)
{
	return chmod_at("fchmodat", dirfd, path, mode, flags);
}

static int chown_at(const char *op, int dirfd, const char *path, uid_t uid, gid_t gid, int flags)
{
	struct ct_verdict v;
	int nofollow = flags & AT_SYMLINK_NOFOLLOW, fd;

	POLICY_OR_FAIL(p);
	if (!p->active)
		return (int)syscall(SYS_fchownat, dirfd, path, uid, gid, flags);
	if ((flags & AT_EMPTY_PATH) && path && !*path)
		return (int)syscall(SYS_fchownat, dirfd, "", uid, gid, flags);
	fd = ct_checked_open(p, op, dirfd, path, O_PATH | O_CLOEXEC | (nofollow ? O_NOFOLLOW : 0), 0,
			     CT_W, !nofollow, &v);
	if (fd < 0)
		return -1;
	return done(fd, (int)syscall(SYS_fchownat, fd, "", uid, gid, AT_EMPTY_PATH));
}

API int chown(const char *path, uid_t uid, gid_t gid)
{
	return chown_at("chown", AT_FDCWD, path, uid, gid, 0);
}

API int lchown(const char *path, uid_t uid, gid_t gid)
{
	return chown_at("lchown", AT_FDCWD, path, uid, gid, AT_SYMLINK_NOFOLLOW);
}

API int fchownat(int dirfd, const char *path, uid_t uid, gid_t gid, int flags)
{
	return chown_at("fchownat", dirfd, path, uid, gid, flags);
}

static int truncate_path(const char *op, const char *path, off_t len)
{
	struct ct_verdict v;
	int fd;

	POLICY_OR_FAIL(p);
	if (!p->active)
		return (int)syscall(SYS_truncate, path, len);
	fd = ct_checked_open(p, op, AT_FDCWD, path, O_WRONLY | O_NONBLOCK | O_CLOEXEC, 0, CT_W, 1, &v);
	if (fd < 0)
		return -1;
	return done(fd, (int)syscall(SYS_ftruncate, fd, len));
}

API int truncate(const char *path, off_t len)
{
	return truncate_path("truncate", path, len);
}

API int truncate64(const char *path, off_t len)
{
	return truncate_path("truncate64", path, len);
}

/* ---- opendir, chdir ---- */

API DIR *opendir(const char *path)
{
	struct ct_verdict v;
	const struct ct_policy *p = ct_policy();
	DIR *d;
	int fd;

	if (!p) {
		errno = EACCES;
		return NULL;
	}
	fd = p->active ? ct_checked_open(p, "opendir", AT_FDCWD, path,
					 O_RDONLY | O_DIRECTORY | O_CLOEXEC, 0, CT_R, 1, &v)
		       : sys_openat(AT_FDCWD, path, O_RDONLY | O_DIRECTORY | O_CLOEXEC, 0);
	if (fd < 0)
		return NULL;
	d = fdopendir(fd);
	if (!d)
		done(fd, 0);
	return d;
}

/* fchdir(fd) with the cwd's anchor record forgotten before and after */
static int cwd_change(int fd)
{
	int r, e;

	ct_forget_cwd();
	r = (int)syscall(SYS_fchdir, fd);
	e = errno;
	ct_forget_cwd();
	errno = e;
	return r;
}

/*
 * chdir into a tree, or into a directory above one (the walk resolves
 * relative paths from there lexically); nowhere else. Done with fchdir on
 * the checked directory.
 */
API int chdir(const char *path)
{
	struct ct_verdict v;
	int fd;

	POLICY_OR_FAIL(p);
	if (!p->active)
		return (int)syscall(SYS_chdir, path);
	fd = ct_checked_open(p, "chdir", AT_FDCWD, path, O_PATH | O_DIRECTORY | O_CLOEXEC, 0, 0, 1, &v);
	if (fd < 0)
		return -1;
	return done(fd, cwd_change(fd));
}

/* ---- readlink ---- */

static ssize_t readlink_at(const char *op, int dirfd, const char *path, char *buf, size_t len)
{
	char name[NAME_BUF];
	int fd;

	POLICY_OR_FAIL(p);
	if (!p->active)
		return (ssize_t)syscall(SYS_readlinkat, dirfd, path, buf, len);
	fd = open_parent(p, op, dirfd, path, CT_R, name);
	if (fd < 0)
		return -1;
	return done(fd, (int)syscall(SYS_readlinkat, fd, name, buf, len));
}

API ssize_t readlink(const char *path, char *buf, size_t len)
{
	return readlink_at("readlink", AT_FDCWD, path, buf, len);
}

API ssize_t readlinkat(int dirfd, const char *path, char *buf, size_t len)
{
	return readlink_at("readlinkat", dirfd, path, buf, len);
}

ssize_t __readlink_chk(const char *path, char *buf, size_t len, size_t buflen);
ssize_t __readlinkat_chk(int dirfd, const char *path, char *buf, size_t len, size_t buflen);

API ssize_t __readlink_chk(const char *path, char *buf, size_t len, size_t buflen)
{
	if (len > buflen)
		abort();	/* _FORTIFY_SOURCE: buffer overflow detected */
	return readlink_at("__readlink_chk", AT_FDCWD, path, buf, len);
}

API ssize_t __readlinkat_chk(int dirfd, const char *path, char *buf, size_t len, size_t buflen)
{
	if (len > buflen)
		abort();
	return readlink_at("__readlinkat_chk", dirfd, path, buf, len);
}

/*
 * realpath: the checked object's own path, from /proc/self/fd (glibc's
 * realpath walks with its internal readlink, which no wrapper sees, and
 * would lstat and read links outside).
 */
static char *realpath_common(const char *op, const char *path, char *resolved)
{
	struct ct_verdict v;
	char fdname[40], buf[4096];
	ssize_t n;
	int fd;
	const struct ct_policy *p = ct_policy();

	if (!p) {
		errno = EACCES;
		return NULL;
	}
	if (!path) {
		errno = EINVAL;
		return NULL;
	}
	fd = p->active ? ct_checked_open(p, op, AT_FDCWD, path, O_PATH | O_CLOEXEC, 0, 0, 1, &v)
		       : sys_openat(AT_FDCWD, path, O_PATH | O_CLOEXEC, 0);
	if (fd < 0)
		return NULL;
	snprintf(fdname, sizeof(fdname), "/proc/self/fd/%d", fd);
	n = sys_readlinkat(AT_FDCWD, fdname, buf, sizeof(buf) - 1);
	done(fd, 0);
	if (n <= 0 || buf[0] != '/') {
		errno = n >= (ssize_t)sizeof(buf) - 1 ? ENAMETOOLONG : ENOENT;
		return NULL;
	}
	buf[n] = 0;
	if (!resolved)
		return strdup(buf);
	if (n >= PATH_MAX) {
		errno = ENAMETOOLONG;
		return NULL;
	}
	memcpy(resolved, buf, (size_t)n + 1);
	return resolved;
}

API char *realpath(const char *path, char *resolved)
{
	return realpath_common("realpath", path, resolved);
}

API char *canonicalize_file_name(const char *path)
{
	return realpath_common("canonicalize_file_name", path, NULL);
}

/* ---- times, special files, file systems ---- */

static int utimens_at(const char *op, int dirfd, const char *path, const struct timespec ts[2],
		      int flags)
{
	struct ct_verdict v;
	char fdname[40];
	int nofollow = flags & AT_SYMLINK_NOFOLLOW, fd;

	POLICY_OR_FAIL(p);
	if (!p->active || !path)	/* NULL path: the fd itself (futimens) */
		return (int)syscall(SYS_utimensat, dirfd, path, ts, flags);
	if ((flags & AT_EMPTY_PATH) && !*path)
		return (int)syscall(SYS_utimensat, dirfd, path, ts, flags);
	fd = ct_checked_open(p, op, dirfd, path, O_PATH | O_CLOEXEC | (nofollow ? O_NOFOLLOW : 0), 0,
			     CT_W, !nofollow, &v);
	if (fd < 0)
		return -1;
	if (nofollow)	/* the link itself: by its name below the checked fd */
		return done(fd, (int)syscall(SYS_utimensat, fd, "", ts, AT_EMPTY_PATH | AT_SYMLINK_NOFOLLOW));
	snprintf(fdname, sizeof(fdname), "/proc/self/fd/%d", fd);
	return done(fd, (int)syscall(SYS_utimensat, AT_FDCWD, fdname, ts, 0));
}

static const struct timespec *tv_to_ts(const struct timeval tv[2], struct timespec ts[2])
{
	if (!tv)
		return NULL;
	ts[0].tv_sec = tv[0].tv_sec;
	ts[0].tv_nsec = tv[0].tv_usec * 1000;
	ts[1].tv_sec = tv[1].tv_sec;
	ts[1].tv_nsec = tv[1].tv_usec * 1000;
	return ts;
}

API int utimensat(int dirfd, const char *path, const struct timespec ts[2], int flags)
{
	return utimens_at("utimensat", dirfd, path, ts, flags);
}

API int utimes(const char *path, const struct timeval tv[2])
{
	struct timespec ts[2];

	return utimens_at("utimes", AT_FDCWD, path, tv_to_ts(tv, ts), 0);
}

API int lutimes(const char *path, const struct timeval tv[2])
{
	struct timespec ts[2];

	return utimens_at("lutimes", AT_FDCWD, path, tv_to_ts(tv, ts), AT_SYMLINK_NOFOLLOW);
}

API int futimesat(int dirfd, const char *path, const struct timeval tv[2])
{
	struct timespec ts[2];

	return utimens_at("futimesat", dirfd, path, tv_to_ts(tv, ts), 0);
}

API int utime(const char *path, const struct utimbuf *t)
{
	struct timespec ts[2];

	if (t) {
		ts[0].tv_sec = t->actime;
		ts[0].tv_nsec = 0;
		ts[1].tv_sec = t->modtime;
		ts[1].tv_nsec = 0;
	}
	return utimens_at("utime", AT_FDCWD, path, t ? ts : NULL, 0);
}

static int mknod_at(const char *op, int dirfd, const char *path, mode_t mode, dev_t dev)
{
	char name[NAME_BUF];
	int fd;

	POLICY_OR_FAIL(p);
	if (!p->active)
		return (int)syscall(SYS_mknodat, dirfd, path, mode, dev);
	fd = open_parent(p, op, dirfd, path, CT_W, name);
	if (fd < 0)
		return -1;
	return done(fd, (int)syscall(SYS_mknodat, fd, name, mode, dev));
}

API int mknod(const char *path, mode_t mode, dev_t dev)
{
	return mknod_at("mknod", AT_FDCWD, path, mode, dev);
}

API int mknodat(int dirfd, const char *path, mode_t mode, dev_t dev)
{
	return mknod_at("mknodat", dirfd, path, mode, dev);
}

API int mkfifo(const char *path, mode_t mode)
{
	return mknod_at("mkfifo", AT_FDCWD, path, (mode & 07777) | S_IFIFO, 0);
}

API int mkfifoat(int dirfd, const char *path, mode_t mode)
{
	return mknod_at("mkfifoat", dirfd, path, (mode & 07777) | S_IFIFO, 0);
}

/* statfs and statvfs: about the checked object's file system */
static int fs_fd(const char *op, const char *path)
{
	struct ct_verdict v;
	const struct ct_policy *p = ct_policy();

	if (!p) {
		errno = EACCES;
		return -1;
	}
	if (!p->active)
		return sys_openat(AT_FDCWD, path, O_PATH | O_CLOEXEC, 0);
	return ct_checked_open(p, op, AT_FDCWD, path, O_PATH | O_CLOEXEC, 0, 0, 1, &v);
}

API int statfs(const char *path, struct statfs *buf)
{
	int fd = fs_fd("statfs", path);

	return fd < 0 ? -1 : done(fd, fstatfs(fd, buf));
}

API int statfs64(const char *path, struct statfs64 *buf)
{
	int fd = fs_fd("statfs64", path);

	return fd < 0 ? -1 : done(fd, fstatfs64(fd, buf));
}

API int statvfs(const char *path, struct statvfs *buf)
{
	int fd = fs_fd("statvfs", path);

	return fd < 0 ? -1 : done(fd, fstatvfs(fd, buf));
}

API int statvfs64(const char *path, struct statvfs64 *buf)
{
	int fd = fs_fd("statvfs64", path);

	return fd < 0 ? -1 : done(fd, fstatvfs64(fd, buf));
}

/* ---- temporary files: glibc creates them with its internal open ---- */

/*
 * Replace the six X before suffixlen trailing bytes with random letters and
 * create the file (or directory) through the checked open, as glibc's
 * __gen_tempname does, up to 238328 tries (glibc's TMP_MAX).
 */
static int gen_temp(const char *op, char *tmpl, int suffixlen, int flags, int dir)
{
	static const char letters[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
	size_t len;
	char *x;
	unsigned tries;

	if (!tmpl || suffixlen < 0) {
		errno = EINVAL;
		return -1;
	}
	len = strlen(tmpl);
	if (len < 6 + (size_t)suffixlen || memcmp(tmpl + len - suffixlen - 6, "XXXXXX", 6) != 0) {
		errno = EINVAL;
		return -1;
	}
	x = tmpl + len - suffixlen - 6;
	for (tries = 0; tries < 238328; tries++) {
		unsigned char r[6];
		int i, fd;

		if (syscall(SYS_getrandom, r, sizeof(r), 0) != (long)sizeof(r))
			return -1;
		for (i = 0; i < 6; i++)
			x[i] = letters[r[i] % (sizeof(letters) - 1)];
		if (dir) {
			fd = mkdir_at(op, AT_FDCWD, tmpl, 0700);
		} else {
			const struct ct_policy *p = ct_policy();
			struct ct_verdict v;
			int fl = (flags & ~O_ACCMODE) | O_RDWR | O_CREAT | O_EXCL;

			if (!p) {
				errno = EACCES;
				return -1;
			}
			fd = p->active ? ct_checked_open(p, op, AT_FDCWD, tmpl, fl, 0600, CT_R | CT_W, 0, &v)
				       : sys_openat(AT_FDCWD, tmpl, fl, 0600);
		}
		if (fd >= 0 || errno != EEXIST)
			return fd;
	}
	errno = EEXIST;
	return -1;
}

API int mkstemp(char *tmpl)
{
	return gen_temp("mkstemp", tmpl, 0, 0, 0);
}

API int mkstemp64(char *tmpl)
{
	return gen_temp("mkstemp64", tmpl, 0, 0, 0);
}

API int mkostemp(char *tmpl, int flags)
{
	return gen_temp("mkostemp", tmpl, 0, flags, 0);
}

API int mkostemp64(char *tmpl, int flags)
{
	return gen_temp("mkostemp64", tmpl, 0, flags, 0);
}

API int mkstemps(char *tmpl, int suffixlen)
{
	return gen_temp("mkstemps", tmpl, suffixlen, 0, 0);
}

API int mkstemps64(char *tmpl, int suffixlen)
{
	return gen_temp("mkstemps64", tmpl, suffixlen, 0, 0);
}

API int mkostemps(char *tmpl, int suffixlen, int flags)
{
	return gen_temp("mkostemps", tmpl, suffixlen, flags, 0);
}

API int mkostemps64(char *tmpl, int suffixlen, int flags)
{
	return gen_temp("mkostemps64", tmpl, suffixlen, flags, 0);
}

API char *mkdtemp(char *tmpl)
{
	return gen_temp("mkdtemp", tmpl, 0, 0, 1) == 0 ? tmpl : NULL;
}

/*
 * tmpfile: an unnamed file in the private temp dir (glibc's goes to /tmp,
 * which is not allowed, through its internal open).
 */
static FILE *tmpfile_common(const char *op)
{
	const struct ct_policy *p = ct_policy();
	const char *dir;
	FILE *f;
	int fd;

	if (!p) {
		errno = EACCES;
		return NULL;
	}
	dir = p->active && p->tmpdir ? p->tmpdir : "/tmp";
	if (p->active) {
		struct ct_verdict v;

		fd = ct_checked_open(p, op, AT_FDCWD, dir, O_TMPFILE | O_RDWR, 0600, CT_R | CT_W, 1, &v);
	} else {
		fd = sys_openat(AT_FDCWD, dir, O_TMPFILE | O_RDWR, 0600);
	}
	if (fd < 0)
		return NULL;
	f = fdopen(fd, "w+");
	if (!f)
		done(fd, 0);
	return f;
}

API FILE *tmpfile(void)
{
	return tmpfile_common("tmpfile");
}

API FILE *tmpfile64(void)
{
	return tmpfile_common("tmpfile64");
}

/* ---- directory walkers that glibc runs on its internal opendir ---- */

typedef int (*glob_fn)(const char *, int, int (*)(const char *, int), glob_t *);

static void *glob_opendir(const char *path)
{
	return opendir(path);
}

static struct dirent *glob_readdir(void *d)
{
	return readdir(d);
}

static void glob_closedir(void *d)
{
	closedir(d);
}

/*
 * glob: glibc's own directory reading would not pass through opendir; with
 * GLOB_ALTDIRFUNC it calls the functions it is given, ours. A caller that
 * brings its own functions keeps them (they reach the wrappers anyway).
 */
int ct_glob(const char *version, const char *pattern, int flags,
	    int (*errfunc)(const char *, int), glob_t *pglob)
{
	const struct ct_policy *p = ct_policy();
	glob_fn real = (glob_fn)(version ? dlvsym(RTLD_NEXT, "glob", version) : dlsym(RTLD_NEXT, "glob"));

	if (!real || !p) {
		errno = !real ? ENOSYS : EACCES;
		return GLOB_ABORTED;
	}
	if (p->active && !(flags & GLOB_ALTDIRFUNC)) {
		pglob->gl_opendir = glob_opendir;
		pglob->gl_readdir = glob_readdir;
		pglob->gl_closedir = glob_closedir;
		pglob->gl_stat = stat;
		pglob->gl_lstat = lstat;
		flags |= GLOB_ALTDIRFUNC;
	}
	return real(pattern, flags, errfunc, pglob);
}

API int glob(const char *pattern, int flags, int (*errfunc)(const char *, int), glob_t *pglob)
{
	return ct_glob(NULL, pattern, flags, errfunc, pglob);
}

/* scandir: read through the checked opendir, then filter and sort as glibc. */
static int scan_dir(DIR *d, struct dirent ***namelist, int (*filter)(const struct dirent *),
		    int (*compar)(const struct dirent **, const struct dirent **))
{
	struct dirent **list = NULL, *de;
	size_t n = 0, cap = 0;
	int e;

	if (!d)
		return -1;
	errno = 0;
	while ((de = readdir(d)) != NULL) {
		struct dirent *copy;
		size_t sz;

		if (filter && !filter(de)) {
			errno = 0;
			continue;
		}
		if (n == cap) {
			struct dirent **nl = realloc(list, (cap = cap ? 2 * cap : 16) * sizeof(*list));

			if (!nl)
				goto fail;
			list = nl;
		}
		sz = offsetof(struct dirent, d_name) + strlen(de->d_name) + 1;
		copy = malloc(sz);
		if (!copy)
			goto fail;
		memcpy(copy, de, sz);
		list[n++] = copy;
		errno = 0;
	}
	if (errno)
		goto fail;
	closedir(d);
	if (compar && n > 1)
		qsort(list, n, sizeof(*list), (int (*)(const void *, const void *))compar);
	*namelist = list;
	return (int)n;
fail:
	e = errno ? errno : ENOMEM;
	while (n)
		free(list[--n]);
	free(list);
	closedir(d);
	errno = e;
	return -1;
}

API int scandir(const char *dir, struct dirent ***namelist, int (*filter)(const struct dirent *),
		int (*compar)(const struct dirent **, const struct dirent **))
{
	return scan_dir(opendir(dir), namelist, filter, compar);
}

API int scandirat(int dirfd, const char *dir, struct dirent ***namelist,
		  int (*filter)(const struct dirent *),
		  int (*compar)(const struct dirent **, const struct dirent **))
{
	struct ct_verdict v;
	const struct ct_policy *p = ct_policy();
	int fd;
	DIR *d;

	if (!p) {
		errno = EACCES;
		return -1;
	}
	fd = p->active ? ct_checked_open(p, "scandirat", dirfd, dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC,
					 0, CT_R, 1, &v)
		       : sys_openat(dirfd, dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC, 0);
	if (fd < 0)
		return -1;
	d = fdopendir(fd);
	if (!d)
		return done(fd, -1);
	return scan_dir(d, namelist, filter, compar);
}

/* ---- extended attributes: on the checked object, through its fd ---- */

/*
 * Open the object (following the last link unless nofollow) with need and
 * name it as /proc/self/fd/N in fdname: the *xattr calls then act on that
 * very inode (a magic link jumps to it, a symlink's own included).
 */
static int xattr_fd(const char *op, const char *path, int nofollow, unsigned need, char *fdname)
{
	struct ct_verdict v;
	const struct ct_policy *p = ct_policy();
	int fd;

	if (!p) {
		errno = EACCES;
		return -1;
	}
	if (!p->active)
		return -2;
	fd = ct_checked_open(p, op, AT_FDCWD, path, O_PATH | O_CLOEXEC | (nofollow ? O_NOFOLLOW : 0), 0,
			     need, !nofollow, &v);
	if (fd >= 0)
		snprintf(fdname, 40, "/proc/self/fd/%d", fd);
	return fd;
}

#define XATTR_GET(fn, sysno, nofollow)                                                     \
	API ssize_t fn(const char *path, const char *name, void *value, size_t size)       \
	{                                                                                  \
		char fdname[40];                                                           \
		int fd = xattr_fd(#fn, path, nofollow, 0, fdname);                         \
		if (fd == -2)                                                              \
			return (ssize_t)syscall(sysno, path, name, value, size);           \
		if (fd < 0)                                                                \
			return -1;                                                         \
		return done(fd, (int)syscall(SYS_getxattr, fdname, name, value, size));    \
	}

XATTR_GET(getxattr, SYS_getxattr, 0)
XATTR_GET(lgetxattr, SYS_lgetxattr, 1)

#define XATTR_LIST(fn, sysno, nofollow)                                                    \
	API ssize_t fn(const char *path, char *list, size_t size)                          \
	{                                                                                  \
		char fdname[40];                                                           \
		int fd = xattr_fd(#fn, path, nofollow, 0, fdname);                         \
		if (fd == -2)                                                              \
			return (ssize_t)syscall(sysno, path, list, size);                  \
		if (fd < 0)                                                                \
			return -1;                                                         \
		return done(fd, (int)syscall(SYS_listxattr, fdname, list, size));          \
	}

XATTR_LIST(listxattr, SYS_listxattr, 0)
XATTR_LIST(llistxattr, SYS_llistxattr, 1)

#define XATTR_SET(fn, sysno, nofollow)                                                       \
	API int fn(const char *path, const char *name, const void *value, size_t size, int flags) \
	{                                                                                    \
		char fdname[40];                                                             \
		int fd = xattr_fd(#fn, path, nofollow, CT_W, fdname);                        \
		if (fd == -2)                                                                \
			return (int)syscall(sysno, path, name, value, size, flags);          \
		if (fd < 0)                                                                  \
			return -1;                                                           \
		return done(fd, (int)syscall(SYS_setxattr, fdname, name, value, size, flags)); \
	}

XATTR_SET(setxattr, SYS_setxattr, 0)
XATTR_SET(lsetxattr, SYS_lsetxattr, 1)

#define XATTR_REMOVE(fn, sysno, nofollow)                                                  \
	API int fn(const char *path, const char *name)                                     \
	{                                                                                  \
		char fdname[40];                                                           \
		int fd = xattr_fd(#fn, path, nofollow, CT_W, fdname);                      \
		if (fd == -2)                                                              \
			return (int)syscall(sysno, path, name);                            \
		if (fd < 0)                                                                \
			return -1;                                                         \
		return done(fd, (int)syscall(SYS_removexattr, fdname, name));              \
	}

XATTR_REMOVE(removexattr, SYS_removexattr, 0)
XATTR_REMOVE(lremovexattr, SYS_lremovexattr, 1)

/* ---- fchdir, chroot ---- */

/* fchdir: only to a directory in a tree or above one, like chdir. */
API int fchdir(int fd)
{
	struct ct_verdict v;
	struct stat a, b;
	char fdname[40], path[4096];
	ssize_t n;
	int cfd;

	POLICY_OR_FAIL(p);
	if (!p->active)
		return (int)syscall(SYS_fchdir, fd);
	snprintf(fdname, sizeof(fdname), "/proc/self/fd/%d", fd);
	n = sys_readlinkat(AT_FDCWD, fdname, path, sizeof(path) - 1);
	if (n <= 0 || path[0] != '/')	/* not a directory fd: the kernel says so */
		return cwd_change(fd);
	path[n] = 0;
	cfd = ct_checked_open(p, "fchdir", AT_FDCWD, path, O_PATH | O_DIRECTORY | O_CLOEXEC, 0, 0, 1, &v);
	if (cfd < 0)
		return -1;
	if (sys_fstatat(fd, "", &a, AT_EMPTY_PATH) < 0 || sys_fstatat(cfd, "", &b, AT_EMPTY_PATH) < 0 ||
	    a.st_dev != b.st_dev || a.st_ino != b.st_ino) {
		v.reason = CT_UNVERIFIABLE;
		v.detail = "the directory moved";
		ct_report(p, "fchdir", path, &v);
		errno = EACCES;
		return done(cfd, -1);
	}
	return done(cfd, cwd_change(cfd));
}

/*
 * chroot would change what every absolute path means to the kernel but not
 * to the policy: refused inside a contained process.
 */
API int chroot(const char *path)
{
	struct ct_verdict v = { CT_DENIED, -1, NULL, "", 0 };

	POLICY_OR_FAIL(p);
	if (!p->active)
		return (int)syscall(SYS_chroot, path);
	v.detail = NULL;
	ct_report(p, "chroot", path, &v);
	errno = EPERM;
	return -1;
}

/* ---- more aliases and small calls of the same kinds ---- */

int __statfs(const char *path, struct statfs *buf);
int __xmknod(int ver, const char *path, mode_t mode, dev_t *dev);
int __xmknodat(int ver, int dirfd, const char *path, mode_t mode, dev_t *dev);
char *__realpath_chk(const char *path, char *resolved, size_t resolvedlen);

API int __statfs(const char *path, struct statfs *buf)
{
	int fd = fs_fd("__statfs", path);

	return fd < 0 ? -1 : done(fd, fstatfs(fd, buf));
}

API long pathconf(const char *path, int name)
{
	int fd = fs_fd("pathconf", path);

	return fd < 0 ? -1 : (long)done(fd, (int)fpathconf(fd, name));
}

API int __xmknod(int ver, const char *path, mode_t mode, dev_t *dev)
{
	(void)ver;
	return mknod_at("__xmknod", AT_FDCWD, path, mode, dev ? *dev : 0);
}

API int __xmknodat(int ver, int dirfd, const char *path, mode_t mode, dev_t *dev)
{
	(void)ver;
	return mknod_at("__xmknodat", dirfd, path, mode, dev ? *dev : 0);
}

API char *__realpath_chk(const char *path, char *resolved, size_t resolvedlen)
{
	if (resolved && resolvedlen < PATH_MAX)
		abort();	/* _FORTIFY_SOURCE: buffer overflow detected */
	return realpath_common("__realpath_chk", path, resolved);
}

API int lchmod(const char *path, mode_t mode)
{
	return chmod_at("lchmod", AT_FDCWD, path, mode, AT_SYMLINK_NOFOLLOW);
}

/*
 * mktemp, tmpnam, tempnam only make names; glibc probes each with its
 * internal stat (in /tmp, outside the trees). The names are made here: in
 * the template's directory (mktemp, probed through the checked lstat) or in
 * the private temp dir.
 */
static int temp_name(char *tmpl, size_t suffixlen)
{
	static const char letters[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
	size_t len = strlen(tmpl);
	int tries;

	if (len < 6 + suffixlen || memcmp(tmpl + len - suffixlen - 6, "XXXXXX", 6) != 0) {
		errno = EINVAL;
		return -1;
	}
	for (tries = 0; tries < 100; tries++) {
		unsigned char r[6];
		struct stat st;
		int i;

		if (syscall(SYS_getrandom, r, sizeof(r), 0) != (long)sizeof(r))
			return -1;
		for (i = 0; i < 6; i++)
			tmpl[len - suffixlen - 6 + i] = letters[r[i] % (sizeof(letters) - 1)];
		if (lstat(tmpl, &st) < 0)
			return errno == ENOENT ? 0 : -1;
	}
	errno = EEXIST;
	return -1;
}

API char *mktemp(char *tmpl)
{
	if (temp_name(tmpl, 0) < 0)
		tmpl[0] = 0;
	return tmpl;
}

static char *private_name(const char *pfx, char *out, size_t len)
{
	const struct ct_policy *p = ct_policy();
	const char *dir = p && p->active && p->tmpdir ? p->tmpdir : "/tmp";

	if (snprintf(out, len, "%s/%.5sXXXXXX", dir, pfx ? pfx : "file") >= (int)len) {
		errno = ENAMETOOLONG;
		return NULL;
	}
	return temp_name(out, 0) < 0 ? NULL : out;
}

API char *tmpnam(char s[L_tmpnam])
{
	static char buf[L_tmpnam > 512 ? L_tmpnam : 512];
	char tmp[512];

	if (!private_name(NULL, tmp, sizeof(tmp)))
		return NULL;
	if (s) {
		if (strlen(tmp) >= L_tmpnam) {
			errno = ENAMETOOLONG;
			return NULL;
		}
		memcpy(s, tmp, strlen(tmp) + 1);
		return s;
	}
	memcpy(buf, tmp, strlen(tmp) + 1);
	return buf;
}

API char *tmpnam_r(char s[L_tmpnam])
{
	return s ? tmpnam(s) : NULL;
}

API char *tempnam(const char *dir, const char *pfx)
{
	char tmp[512];

	(void)dir;	/* always the private temp dir, as TMPDIR would say */
	return private_name(pfx, tmp, sizeof(tmp)) ? strdup(tmp) : NULL;
}

/* ---- 64-bit aliases (the same layouts on these ABIs) and a few more ---- */

typedef int (*glob64_fn)(const char *, int, int (*)(const char *, int), glob64_t *);

static struct dirent64 *glob64_readdir(void *d)
{
	return readdir64(d);
}

int ct_glob64(const char *version, const char *pattern, int flags,
	      int (*errfunc)(const char *, int), glob64_t *pglob)
{
	const struct ct_policy *p = ct_policy();
	glob64_fn real = (glob64_fn)(version ? dlvsym(RTLD_NEXT, "glob64", version)
					     : dlsym(RTLD_NEXT, "glob64"));

	if (!real || !p) {
		errno = !real ? ENOSYS : EACCES;
		return GLOB_ABORTED;
	}
	if (p->active && !(flags & GLOB_ALTDIRFUNC)) {
		pglob->gl_opendir = glob_opendir;
		pglob->gl_readdir = glob64_readdir;
		pglob->gl_closedir = glob_closedir;
		pglob->gl_stat = stat64;
		pglob->gl_lstat = lstat64;
		flags |= GLOB_ALTDIRFUNC;
	}
	return real(pattern, flags, errfunc, pglob);
}

API int glob64(const char *pattern, int flags, int (*errfunc)(const char *, int), glob64_t *pglob)
{
	return ct_glob64(NULL, pattern, flags, errfunc, pglob);
}

API int scandir64(const char *dir, struct dirent64 ***namelist, int (*filter)(const struct dirent64 *),
		  int (*compar)(const struct dirent64 **, const struct dirent64 **))
{
	/* struct dirent64 is struct dirent on these ABIs */
	return scandir(dir, (struct dirent ***)namelist, (int (*)(const struct dirent *))(void (*)(void))filter,
		       (int (*)(const struct dirent **, const struct dirent **))(void (*)(void))compar);
}

API int scandirat64(int dirfd, const char *dir, struct dirent64 ***namelist,
		    int (*filter)(const struct dirent64 *),
		    int (*compar)(const struct dirent64 **, const struct dirent64 **))
{
	return scandirat(dirfd, dir, (struct dirent ***)namelist,
			 (int (*)(const struct dirent *))(void (*)(void))filter,
			 (int (*)(const struct dirent **, const struct dirent **))(void (*)(void))compar);
}

/* ftok: the key from the checked stat (glibc uses its internal stat) */
API key_t ftok(const char *path, int proj)
{
	struct stat st;

	if (stat(path, &st) < 0)
		return (key_t)-1;
	return (key_t)((st.st_ino & 0xffff) | ((st.st_dev & 0xff) << 16) | (((unsigned)proj & 0xff) << 24));
}

/* setmntent: a mount table file opened through the checked fopen */
static FILE *setmnt(const char *file, const char *mode)
{
	char m[16];
	size_t n = strlen(mode);
	FILE *f;

	if (n + 3 > sizeof(m)) {
		errno = EINVAL;
		return NULL;
	}
	memcpy(m, mode, n);
	memcpy(m + n, "ce", 3);	/* as glibc: no cancellation point, close on exec */
	f = fopen(file, m);
	if (f)
		__fsetlocking(f, FSETLOCKING_BYCALLER);
	return f;
}

FILE *__setmntent(const char *file, const char *mode);

API FILE *setmntent(const char *file, const char *mode)
{
	return setmnt(file, mode);
}

API FILE *__setmntent(const char *file, const char *mode)
{
	return setmnt(file, mode);
}

/* utmpname: later getut* calls open it with glibc's internal open */
static int utmp_name(const char *op, const char *file, const char *fn)
{
	static int (*real_utmp)(const char *);
	const struct ct_policy *p = ct_policy();
	struct ct_verdict v;
	int fd;

	if (!p) {
		errno = EACCES;
		return -1;
	}
	real_utmp = (int (*)(const char *))dlsym(RTLD_NEXT, fn);
	if (!real_utmp) {
		errno = ENOSYS;
		return -1;
	}
	if (p->active) {
		fd = ct_checked_open(p, op, AT_FDCWD, file, O_PATH | O_CLOEXEC, 0, CT_R, 1, &v);
		if (fd < 0 && v.reason != CT_OK)
			return -1;
		if (fd >= 0)
			sys_close(fd);
	}
	return real_utmp(file);
}

API int utmpname(const char *file)
{
	return utmp_name("utmpname", file, "utmpname");
}

API int utmpxname(const char *file)
{
	return utmp_name("utmpxname", file, "utmpxname");
}

/*
 * updwtmp(x): glibc appends to the file with its internal open. The file is
 * opened here, checked for writing, and glibc is handed /proc/self/fd/N: it
 * reopens the very file that was checked (no second lookup of the name).
 */
static void upd_wtmp(const char *op, const char *fn, const char *file, const void *ut)
{
	void (*real_upd)(const char *, const void *) =
		(void (*)(const char *, const void *))dlsym(RTLD_NEXT, fn);
	const struct ct_policy *p = ct_policy();
	struct ct_verdict v;
	char name[40];
	int fd, e;

	if (!real_upd || !p)
		return;
	if (!p->active || !file) {
		real_upd(file, ut);
		return;
	}
	fd = ct_checked_open(p, op, AT_FDCWD, file, O_WRONLY | O_CLOEXEC | O_NOCTTY, 0, CT_W, 1, &v);
	if (fd < 0)
		return;	/* updwtmp reports nothing: the denial is on stderr/log */
	snprintf(name, sizeof(name), "/proc/self/fd/%d", fd);
	real_upd(name, ut);
	e = errno;
	sys_close(fd);
	errno = e;
}

API void updwtmp(const char *file, const struct utmp *ut)
{
	upd_wtmp("updwtmp", "updwtmp", file, ut);
}

API void updwtmpx(const char *file, const struct utmpx *ut)
{
	upd_wtmp("updwtmpx", "updwtmpx", file, ut);
}

/*
 * catopen: a name with a '/' is a catalog path, opened here and handed to
 * glibc as /proc/self/fd/N (glibc reads the catalog whole and closes its
 * own fd); a bare name is looked up through NLSPATH, checked at load.
 */
API nl_catd catopen(const char *name, int flag)
{
	nl_catd (*real_cat)(const char *, int) = (nl_catd(*)(const char *, int))dlsym(RTLD_NEXT, "catopen");
	const struct ct_policy *p = ct_policy();
	struct ct_verdict v;
	char fdname[40];
	nl_catd c;
	int fd, e;

	if (!real_cat || !p) {
		errno = !real_cat ? ENOSYS : EACCES;
		return (nl_catd)-1;
	}
	if (!p->active || ct_is_null(name) || !strchr(name, '/'))
		return real_cat(name, flag);
	fd = ct_checked_open(p, "catopen", AT_FDCWD, name, O_RDONLY | O_CLOEXEC, 0, CT_R, 1, &v);
	if (fd < 0)
		return (nl_catd)-1;
	snprintf(fdname, sizeof(fdname), "/proc/self/fd/%d", fd);
	c = real_cat(fdname, flag);
	e = errno;
	sys_close(fd);
	errno = e;
	return c;
}

/*
 * gettext domains: glibc opens DIR/LOCALE/LC_MESSAGES/DOMAIN.mo with its
 * internal open, so a domain name holding a '/' climbs out of the
 * directory bindtextdomain checked. Such a domain is not translated (the
 * message comes back as given, as when no catalog exists) and reported;
 * textdomain and bindtextdomain refuse it (NULL, EACCES).
 */
static int bad_domain(const char *op, const char *domain)
{
	const struct ct_policy *p = ct_policy();

	if (!p || !p->active || ct_is_null(domain) || !strchr(domain, '/'))
		return !p;
	{
		struct ct_verdict v = { CT_OUTSIDE, -1, "a message domain is a name, not a path", "", 0 };

		ct_report(p, op, domain, &v);
	}
	return 1;
}

/*
 * bindtextdomain: gettext opens DIR/LOCALE/LC_MESSAGES/DOMAIN.mo later with
 * glibc's internal open. A directory outside the trees is refused here
 * (NULL, errno EACCES; glibc's NULL means "could not record"); one that is
 * missing inside is recorded, as glibc does. The later open re-resolves the
 * name: a link swapped in afterwards is the kernel backstop's (SECURITY.md).
 */
API char *bindtextdomain(const char *domain, const char *dir)
{
	char *(*real_bind)(const char *, const char *) =
		(char *(*)(const char *, const char *))dlsym(RTLD_NEXT, "bindtextdomain");
	const struct ct_policy *p = ct_policy();
	struct ct_verdict v;
	int fd;

	if (!real_bind || !p) {
		errno = !real_bind ? ENOSYS : EACCES;
		return NULL;
	}
	if (bad_domain("bindtextdomain", domain)) {
		errno = EACCES;
		return NULL;
	}
	if (p->active && dir && *dir) {
		fd = ct_checked_open(p, "bindtextdomain", AT_FDCWD, dir, O_PATH | O_DIRECTORY | O_CLOEXEC,
				     0, CT_R, 1, &v);
		if (fd < 0 && v.reason != CT_OK)
			return NULL;
		if (fd >= 0)
			sys_close(fd);
	}
	return real_bind(domain, dir);
}

/* libintl.h maps these to dcgettext when optimizing: the real names here */
#undef dgettext
#undef dngettext
#undef dcgettext
#undef dcngettext
/* looked up once: dcgettext runs for every translated message */
#define GT_REAL(type, name, ...)                          \
	static type (*real_gt)(__VA_ARGS__);              \
	if (!real_gt)                                     \
		real_gt = (type (*)(__VA_ARGS__))dlsym(RTLD_NEXT, name)

API char *textdomain(const char *domain)
{
	GT_REAL(char *, "textdomain", const char *);

	if (bad_domain("textdomain", domain)) {
		errno = EACCES;
		return NULL;
	}
	return real_gt ? real_gt(domain) : NULL;
}

API char *dcgettext(const char *domain, const char *msgid, int category)
{
	GT_REAL(char *, "dcgettext", const char *, const char *, int);

	if (bad_domain("dcgettext", domain) || !real_gt)
		return (char *)msgid;
	return real_gt(domain, msgid, category);
}

API char *__dcgettext(const char *domain, const char *msgid, int category)
{
	return dcgettext(domain, msgid, category);
}

API char *dgettext(const char *domain, const char *msgid)
{
	return dcgettext(domain, msgid, LC_MESSAGES);
}

API char *__dgettext(const char *domain, const char *msgid)
{
	return dcgettext(domain, msgid, LC_MESSAGES);
}

API char *dcngettext(const char *domain, const char *msgid1, const char *msgid2, unsigned long n,
		     int category)
{
	GT_REAL(char *, "dcngettext", const char *, const char *, const char *, unsigned long, int);

	if (bad_domain("dcngettext", domain) || !real_gt)
		return (char *)(n == 1 ? msgid1 : msgid2);
	return real_gt(domain, msgid1, msgid2, n, category);
}

API char *dngettext(const char *domain, const char *msgid1, const char *msgid2, unsigned long n)
{
	return dcngettext(domain, msgid1, msgid2, n, LC_MESSAGES);
}
