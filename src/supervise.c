/*
 * supervise.c: the contain launcher's seccomp user-notification supervisor.
 *
 * Landlock does not restrict changing a file's metadata (chmod, chown,
 * utimes, xattrs) nor reading it (stat, access, readlink): a program making
 * raw system calls could use them on any path. The launcher's child
 * installs a filter (libseccomp, SCMP_ACT_NOTIFY) that hands those calls to
 * the launcher, which stays as parent and answers each one:
 *
 *  - it copies the arguments out of the target's memory (never trusting
 *    that memory again: another thread may rewrite it), checks after every
 *    read that the notification is still valid (the target may have died and
 *    its pid been reused), resolves the path with the library's resolver
 *    from the target's cwd or dirfd (taken with pidfd_getfd),
 *  - and performs the operation itself on the object it resolved
 *    (fchownat(fd, "", AT_EMPTY_PATH), statx(fd, ""), utimensat on
 *    /proc/self/fd/N...), returning the result, and for stat/readlink the
 *    data, written into the target's buffer.
 * It never lets the kernel continue a call (SECCOMP_USER_NOTIF_FLAG_CONTINUE):
 * a decision made from memory the target can still change would not hold.
 * A path outside the trees gets EACCES and the library's denial line.
 *
 * chmod/chown/utimes/xattr writes are always supervised; with --strict, the
 * stat, access, readlink and getxattr families too (an existence oracle for
 * raw-system-call programs otherwise). chdir is not: it cannot be performed
 * for another process; a cwd outside gives nothing, since every open below
 * it is Landlock's and every supervised call resolves from it.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/stat.h>
#include <poll.h>
#include <seccomp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <sys/uio.h>
#include <sys/xattr.h>
#include <unistd.h>

#include "contain.h"
#include "report.h"
#include "supervise.h"
#include "sys.h"

#ifndef SYS_pidfd_open
#define SYS_pidfd_open 434
#endif
#ifndef SYS_pidfd_getfd
#define SYS_pidfd_getfd 438
#endif
#ifndef AT_EMPTY_PATH
#define AT_EMPTY_PATH 0x1000
#endif

enum kind { K_CHMOD, K_CHOWN, K_UTIMENS, K_UTIMES, K_UTIME, K_SETXATTR, K_REMOVEXATTR,
	    K_STAT, K_STATX, K_ACCESS, K_READLINK, K_GETXATTR, K_LISTXATTR };

/*
 * Each supervised system call: its name, what it does, where its dirfd and
 * path are (-1: no dirfd, AT_FDCWD), where the flags that mean "do not
 * follow" are, and whether it belongs to --strict.
 */
static const struct sv_call {
	const char *name;
	enum kind kind;
	int dirfd, path, flags;	/* argument indexes, -1 when absent */
	int nofollow;		/* 1: never follows; 0: follows unless flags say */
	int strict;
} calls[] = {
	{ "chmod", K_CHMOD, -1, 0, -1, 0, 0 },
	{ "fchmodat", K_CHMOD, 0, 1, -1, 0, 0 },
	{ "fchmodat2", K_CHMOD, 0, 1, 3, 0, 0 },
	{ "chown", K_CHOWN, -1, 0, -1, 0, 0 },
	{ "lchown", K_CHOWN, -1, 0, -1, 1, 0 },
	{ "fchownat", K_CHOWN, 0, 1, 4, 0, 0 },
	{ "utimensat", K_UTIMENS, 0, 1, 3, 0, 0 },
	{ "utimes", K_UTIMES, -1, 0, -1, 0, 0 },
	{ "futimesat", K_UTIMES, 0, 1, -1, 0, 0 },
	{ "utime", K_UTIME, -1, 0, -1, 0, 0 },
	{ "setxattr", K_SETXATTR, -1, 0, -1, 0, 0 },
	{ "lsetxattr", K_SETXATTR, -1, 0, -1, 1, 0 },
	{ "removexattr", K_REMOVEXATTR, -1, 0, -1, 0, 0 },
	{ "lremovexattr", K_REMOVEXATTR, -1, 0, -1, 1, 0 },
	{ "stat", K_STAT, -1, 0, -1, 0, 1 },
	{ "lstat", K_STAT, -1, 0, -1, 1, 1 },
	{ "newfstatat", K_STAT, 0, 1, 3, 0, 1 },
	{ "statx", K_STATX, 0, 1, 2, 0, 1 },
	{ "access", K_ACCESS, -1, 0, -1, 0, 1 },
	{ "faccessat", K_ACCESS, 0, 1, -1, 0, 1 },
	{ "faccessat2", K_ACCESS, 0, 1, 3, 0, 1 },
	{ "readlink", K_READLINK, -1, 0, -1, 1, 1 },
	{ "readlinkat", K_READLINK, 0, 1, -1, 1, 1 },
	{ "getxattr", K_GETXATTR, -1, 0, -1, 0, 1 },
	{ "lgetxattr", K_GETXATTR, -1, 0, -1, 1, 1 },
	{ "listxattr", K_LISTXATTR, -1, 0, -1, 0, 1 },
	{ "llistxattr", K_LISTXATTR, -1, 0, -1, 1, 1 },
	/* on a descriptor (path -1): the fd is checked against the policy */
	{ "fchmod", K_CHMOD, 0, -1, -1, 0, 0 },
	{ "fchown", K_CHOWN, 0, -1, -1, 0, 0 },
	{ "fsetxattr", K_SETXATTR, 0, -1, -1, 0, 0 },
	{ "fremovexattr", K_REMOVEXATTR, 0, -1, -1, 0, 0 },
	{ "fstat", K_STAT, 0, -1, -1, 0, 1 },
	{ "fgetxattr", K_GETXATTR, 0, -1, -1, 0, 1 },
	{ "flistxattr", K_LISTXATTR, 0, -1, -1, 0, 1 },
};
#define NCALLS (sizeof(calls) / sizeof(calls[0]))

static int nrs[NCALLS];		/* system call numbers, resolved at install */

int sv_install(int strict, char *err, size_t errlen)
{
	scmp_filter_ctx ctx = seccomp_init(SCMP_ACT_ALLOW);
	int rc, fd;

	if (!ctx) {
		snprintf(err, errlen, "supervisor: seccomp_init failed");
		return -1;
	}
	/* another ABI (int 0x80, x32) would reach these calls unsupervised:
	 * ENOSYS, as the errno filter answers, never a kill */
	seccomp_attr_set(ctx, SCMP_FLTATR_ACT_BADARCH, SCMP_ACT_ERRNO(ENOSYS));
	seccomp_attr_set(ctx, SCMP_FLTATR_CTL_NNP, 0);
	/* no speculative store bypass mitigation forced on the whole tree: a
	 * filter that only notifies does not need it */
	seccomp_attr_set(ctx, SCMP_FLTATR_CTL_SSB, 1);
	for (size_t i = 0; i < NCALLS; i++) {
		int nr = seccomp_syscall_resolve_name(calls[i].name);

		if (nr < 0 || (calls[i].strict && !strict))
			continue;
		rc = seccomp_rule_add(ctx, SCMP_ACT_NOTIFY, nr, 0);
		if (rc < 0) {
			snprintf(err, errlen, "supervisor: rule for %s: %s", calls[i].name, strerror(-rc));
			seccomp_release(ctx);
			return -1;
		}
	}
	rc = seccomp_load(ctx);
	if (rc < 0) {
		snprintf(err, errlen, "supervisor: cannot install the notifying filter: %s", strerror(-rc));
		seccomp_release(ctx);
		return -1;
	}
	fd = seccomp_notify_fd(ctx);
	seccomp_release(ctx);	/* the filter stays; so does the listener fd */
	if (fd < 0) {
		snprintf(err, errlen, "supervisor: no listener fd");
		return -1;
	}
	return fd;
}

int sv_available(void)
{
	return seccomp_api_get() >= 5;
}

/* ---- the target's memory ---- */

/* Copy a NUL-terminated string (at most len bytes with the NUL). */
static int read_string(pid_t pid, unsigned long addr, char *buf, size_t len)
{
	size_t got = 0;

	while (got < len) {
		/* never across a page boundary in one read: the next page may
		 * be unmapped while the string ends on this one */
		size_t chunk = 4096 - ((addr + got) & 4095);
		struct iovec local, remote;
		ssize_t n;

		if (chunk > len - got)
			chunk = len - got;
		local.iov_base = buf + got;
		local.iov_len = chunk;
		remote.iov_base = (void *)(addr + got);
		remote.iov_len = chunk;
		n = process_vm_readv(pid, &local, 1, &remote, 1, 0);
		if (n <= 0)
			return -EFAULT;
		if (memchr(buf + got, 0, (size_t)n))
			return 0;
		got += (size_t)n;
	}
	return -ENAMETOOLONG;
}

static int read_mem(pid_t pid, unsigned long addr, void *buf, size_t len)
{
	struct iovec local = { buf, len }, remote = { (void *)addr, len };

	return process_vm_readv(pid, &local, 1, &remote, 1, 0) == (ssize_t)len ? 0 : -EFAULT;
}

static int write_mem(pid_t pid, unsigned long addr, const void *buf, size_t len)
{
	struct iovec local = { (void *)buf, len }, remote = { (void *)addr, len };

	if (!len)
		return 0;
	return process_vm_writev(pid, &local, 1, &remote, 1, 0) == (ssize_t)len ? 0 : -EFAULT;
}

/*
 * Who made the call: its thread group (pidfd_open takes a process, not a
 * thread) and whether it has the launcher's own credentials. The
 * supervisor acts with its own; a caller with other ones (a process that
 * dropped privileges, another user in a namespace) would gain them, so its
 * calls are refused (EPERM) instead.
 */
struct caller {
	pid_t tgid;
	int same_creds;
};

static char own_creds[512];

/* "Uid", "Gid", "Groups" and "CapEff" lines of a status file, joined */
static int creds_of(const char *status, pid_t *tgid, char *out, size_t len)
{
	char buf[4096];
	int fd = sys_openat(AT_FDCWD, status, O_RDONLY | O_CLOEXEC, 0);
	ssize_t n;
	size_t k = 0;

	if (fd < 0)
		return -1;
	n = read(fd, buf, sizeof(buf) - 1);
	sys_close(fd);
	if (n <= 0)
		return -1;
	buf[n] = 0;
	out[0] = 0;
	for (char *l = buf; l && *l;) {
		char *nl = strchr(l, '\n');
		size_t ll = nl ? (size_t)(nl - l) : strlen(l);

		if (!strncmp(l, "Tgid:", 5) && tgid)
			*tgid = (pid_t)atoi(l + 5);
		if ((!strncmp(l, "Uid:", 4) || !strncmp(l, "Gid:", 4) || !strncmp(l, "Groups:", 7) ||
		     !strncmp(l, "CapEff:", 7)) && k + ll + 1 < len) {
			memcpy(out + k, l, ll);
			k += ll;
			out[k++] = ';';
			out[k] = 0;
		}
		l = nl ? nl + 1 : NULL;
	}
	return 0;
}

static int caller_of(pid_t tid, struct caller *c)
{
	char name[64], creds[512];

	if (!own_creds[0] && creds_of("/proc/self/status", NULL, own_creds, sizeof(own_creds)) < 0)
		return -1;
	snprintf(name, sizeof(name), "/proc/%d/status", (int)tid);
	c->tgid = tid;
	if (creds_of(name, &c->tgid, creds, sizeof(creds)) < 0)
		return -1;
	c->same_creds = !strcmp(creds, own_creds);
	return 0;
}

/* Is path one of the libraries in the policy's LD_PRELOAD? */
static int is_preload(const struct ct_policy *p, const char *path)
{
	size_t len = strlen(path);

	for (const char *s = p->preload; s && *s;) {
		size_t n = strcspn(s, ": ");

		if (n == len && !memcmp(s, path, n))
			return 1;
		s += n;
		s += strspn(s, ": ");
	}
	return 0;
}

/*
 * May the supervisor act on fd, a descriptor the target holds? Its path
 * must resolve, inside, to the same object. A descriptor with no path
 * (pipe, socket) carries nothing the policy names. need: CT_W to modify.
 */
static int fd_allowed(const struct ct_policy *p, const char *op, int fd, unsigned need)
{
	char name[40], *text = malloc(4096);
	struct stat a, b;
	struct ct_verdict v;
	ssize_t n;
	int chk, ok;

	if (!text)
		return 0;
	snprintf(name, sizeof(name), "/proc/self/fd/%d", fd);
	n = sys_readlinkat(AT_FDCWD, name, text, 4095);
	if (n <= 0 || text[0] != '/') {
		free(text);
		return n > 0;	/* anon:[...], pipe:[...], socket:[...] */
	}
	text[n] = 0;
	if (!need && is_preload(p, text)) {
		free(text);	/* the loader reading the preloaded library (Landlock grants it) */
		return 1;
	}
	chk = ct_checked_open(p, op, AT_FDCWD, text, O_PATH | O_NOFOLLOW | O_CLOEXEC, 0, need, 0, &v);
	ok = chk >= 0 && sys_fstatat(chk, "", &a, AT_EMPTY_PATH) == 0 &&
	     sys_fstatat(fd, "", &b, AT_EMPTY_PATH) == 0 && a.st_dev == b.st_dev && a.st_ino == b.st_ino;
	if (chk >= 0)
		sys_close(chk);
	free(text);
	return ok;
}

/* The directory a relative path of the target starts from: its dirfd
 * (a copy, through pidfd_getfd) or its cwd. -1 with *e set. */
static int start_dir(int pidfd, pid_t pid, int dirfd, int *e)
{
	char name[64];
	int fd;

	if (dirfd == AT_FDCWD) {
		snprintf(name, sizeof(name), "/proc/%d/cwd", (int)pid);
		fd = sys_openat(AT_FDCWD, name, O_PATH | O_DIRECTORY | O_CLOEXEC, 0);
	} else {
		fd = (int)syscall(SYS_pidfd_getfd, pidfd, dirfd, 0);
	}
	if (fd < 0)
		*e = dirfd == AT_FDCWD ? EACCES : EBADF;
	return fd;
}

/*
 * Answer one notification. Returns the value or -errno for the target.
 */
static long answer(const struct ct_policy *p, int nfd, struct seccomp_notif *req, const struct sv_call *c)
{
	const unsigned long long *a = req->data.args;
	pid_t tid = (pid_t)req->pid, pid;
	char *path = NULL, fdname[40];
	int dirfd = -1, pidfd = -1, fd = -1, follow, flags = 0, e = 0, r;
	long ret = -EINVAL;
	struct ct_verdict v;
	struct caller who;

	if (caller_of(tid, &who) < 0)
		return -ESRCH;
	if (!who.same_creds) {
		static int told;

		if (!told++)
			ct_config_note("supervisor: a process with other credentials than contain's "
				       "(dropped privileges?) gets EPERM for the supervised calls");
		return -EPERM;
	}
	pid = who.tgid;
	path = malloc(CT_PATH_BUDGET);
	if (!path)
		return -ENOMEM;
	if (c->flags >= 0)
		flags = (int)a[c->flags];
	if (c->path < 0) {
		path[0] = 0;	/* fchmod, fstat...: the descriptor itself */
		flags |= AT_EMPTY_PATH;
	} else if (c->kind == K_UTIMENS && !a[c->path] && (int)a[0] == AT_FDCWD) {
		ret = -EFAULT;	/* as the kernel: no path and no fd */
		goto out;
	} else if (c->kind == K_UTIMENS && !a[c->path]) {
		path[0] = 0;	/* utimensat(fd, NULL, ...): futimens on the dirfd */
		flags |= AT_EMPTY_PATH;
	} else if ((r = read_string(pid, (unsigned long)a[c->path], path, CT_PATH_BUDGET - 64)) < 0) {
		ret = r;
		goto out;
	}
	/* /proc/self is the target's, not ours: name it by number */
	for (int k = 0; k < 2; k++) {
		const char *pre = k ? "/proc/thread-self" : "/proc/self";
		size_t pl = strlen(pre), rest;
		char num[32];
		int nl;

		if (strncmp(path, pre, pl) != 0 || (path[pl] && path[pl] != '/'))
			continue;
		nl = k ? snprintf(num, sizeof(num), "/proc/%d/task/%d", (int)pid, (int)tid)
		       : snprintf(num, sizeof(num), "/proc/%d", (int)pid);
		rest = strlen(path + pl);
		memmove(path + nl, path + pl, rest + 1);
		memcpy(path, num, (size_t)nl);
		break;
	}
	follow = !c->nofollow;
	if (c->kind == K_STATX || c->kind == K_STAT || c->kind == K_CHOWN || c->kind == K_UTIMENS ||
	    c->kind == K_CHMOD)
		if (c->flags >= 0 && (flags & AT_SYMLINK_NOFOLLOW))
			follow = 0;
	if (c->kind == K_ACCESS && c->flags >= 0 && (flags & AT_SYMLINK_NOFOLLOW))
		follow = 0;
	/* an empty path with AT_EMPTY_PATH (readlinkat: always) names the
	 * dirfd itself: an fd the target holds, opened under Landlock */
	if (!*path && c->dirfd >= 0 &&
	    (c->kind == K_READLINK || ((c->flags >= 0 || c->path < 0) && (flags & AT_EMPTY_PATH)))) {
		int tfd = (int)a[c->dirfd];
		char cwd[64];

		pidfd = (int)syscall(SYS_pidfd_open, pid, 0);
		if (pidfd < 0) {
			ret = -ESRCH;
			goto out;
		}
		if (tfd == AT_FDCWD && c->path >= 0) {
			snprintf(cwd, sizeof(cwd), "/proc/%d/cwd", (int)tid);
			fd = sys_openat(AT_FDCWD, cwd, O_PATH | O_CLOEXEC, 0);
		} else {
			fd = (int)syscall(SYS_pidfd_getfd, pidfd, tfd, 0);
		}
		if (fd < 0 || seccomp_notify_id_valid(nfd, req->id) != 0) {
			ret = fd < 0 ? -EBADF : -ESRCH;
			goto out;
		}
		/* an fd opened O_PATH is not checked by Landlock: the policy
		 * decides here, by the object's path and identity */
		if (!fd_allowed(p, c->name, fd, c->kind <= K_REMOVEXATTR ? CT_W : 0)) {
			ret = -EACCES;
			goto out;
		}
	} else {
		int d = c->dirfd >= 0 ? (int)a[c->dirfd] : AT_FDCWD;

		if (path[0] != '/') {
			pidfd = (int)syscall(SYS_pidfd_open, pid, 0);
			if (pidfd < 0) {
				ret = -ESRCH;
				goto out;
			}
			dirfd = start_dir(pidfd, pid, d, &e);
			if (dirfd < 0) {
				ret = -e;
				goto out;
			}
		}
		/* the pid still names the process that made the call */
		if (seccomp_notify_id_valid(nfd, req->id) != 0) {
			ret = -ESRCH;
			goto out;
		}
		ct_resolve_as(pid);	/* the thread group: /proc/<tgid> is its own */
		fd = ct_checked_open(p, c->name, path[0] == '/' ? AT_FDCWD : dirfd, path,
				     O_PATH | O_CLOEXEC | (follow ? 0 : O_NOFOLLOW), 0,
				     c->kind <= K_REMOVEXATTR ? CT_W : 0, follow, &v);
		ct_resolve_as(0);
		if (fd < 0) {
			ret = v.reason != CT_OK ? -EACCES : -errno;
			goto out;
		}
	}
	snprintf(fdname, sizeof(fdname), "/proc/self/fd/%d", fd);
	switch (c->kind) {
	case K_CHMOD: {
		struct stat st;
		mode_t mode = (mode_t)a[c->path < 0 ? 1 : c->dirfd >= 0 ? 2 : 1];

		if (!follow && sys_fstatat(fd, "", &st, AT_EMPTY_PATH) == 0 && S_ISLNK(st.st_mode))
			ret = -EOPNOTSUPP;	/* as the kernel: links have no mode */
		else
			ret = chmod(fdname, mode) == 0 ? 0 : -errno;
		break;
	}
	case K_CHOWN: {
		int base = c->path < 0 ? 1 : c->dirfd >= 0 ? 2 : 1;

		ret = fchownat(fd, "", (uid_t)a[base], (gid_t)a[base + 1], AT_EMPTY_PATH) == 0 ? 0 : -errno;
		break;
	}
	case K_UTIMENS: {
		struct timespec ts[2];

		if (a[2] && read_mem(pid, (unsigned long)a[2], ts, sizeof(ts)) < 0) {
			ret = -EFAULT;
			break;
		}
		ret = utimensat(fd, "", a[2] ? ts : NULL, AT_EMPTY_PATH) == 0 ? 0 : -errno;
		break;
	}
	case K_UTIMES:
	case K_UTIME: {
		unsigned long at = (unsigned long)a[c->dirfd >= 0 ? 2 : 1];
		struct timespec ts[2];

		if (at && c->kind == K_UTIMES) {
			struct timeval tv[2];

			if (read_mem(pid, at, tv, sizeof(tv)) < 0) {
				ret = -EFAULT;
				break;
			}
			for (int i = 0; i < 2; i++) {
				ts[i].tv_sec = tv[i].tv_sec;
				ts[i].tv_nsec = tv[i].tv_usec * 1000;
			}
		} else if (at) {
			long ut[2];	/* struct utimbuf: actime, modtime */

			if (read_mem(pid, at, ut, sizeof(ut)) < 0) {
				ret = -EFAULT;
				break;
			}
			ts[0].tv_sec = ut[0];
			ts[1].tv_sec = ut[1];
			ts[0].tv_nsec = ts[1].tv_nsec = 0;
		}
		ret = utimensat(fd, "", at ? ts : NULL, AT_EMPTY_PATH) == 0 ? 0 : -errno;
		break;
	}
	case K_SETXATTR:
	case K_REMOVEXATTR:
	case K_GETXATTR: {
		char xname[256];
		size_t size = c->kind == K_REMOVEXATTR ? 0 : (size_t)a[3];
		void *val = NULL;
		struct stat st;

		if (read_string(pid, (unsigned long)a[1], xname, sizeof(xname)) < 0) {
			ret = -ERANGE;
			break;
		}
		if (size > 65536) {
			if (c->kind == K_SETXATTR) {
				ret = -E2BIG;	/* as the kernel: XATTR_SIZE_MAX */
				break;
			}
			size = 65536;
		}
		if (size && !(val = malloc(size))) {
			ret = -ENOMEM;
			break;
		}
		if (c->kind == K_SETXATTR && size && read_mem(pid, (unsigned long)a[2], val, size) < 0) {
			ret = -EFAULT;
		} else if (!follow && sys_fstatat(fd, "", &st, AT_EMPTY_PATH) == 0 && S_ISLNK(st.st_mode)) {
			/* l*xattr of a link itself: user attributes are not
			 * allowed on links (other namespaces need privilege) */
			ret = c->kind == K_GETXATTR ? -ENODATA : -EPERM;
		} else if (c->kind == K_SETXATTR) {
			ret = setxattr(fdname, xname, val, size, (int)a[4]) == 0 ? 0 : -errno;
		} else if (c->kind == K_REMOVEXATTR) {
			ret = removexattr(fdname, xname) == 0 ? 0 : -errno;
		} else {
			ssize_t n = getxattr(fdname, xname, val, size);

			ret = n < 0 ? -errno : n;
			if (n > 0 && size && write_mem(pid, (unsigned long)a[2], val, (size_t)n) < 0)
				ret = -EFAULT;
		}
		free(val);
		break;
	}
	case K_LISTXATTR: {
		size_t size = (size_t)a[2] > 65536 ? 65536 : (size_t)a[2];
		char *list = size ? malloc(size) : NULL;
		ssize_t n;

		if (size && !list) {
			ret = -ENOMEM;
			break;
		}
		n = listxattr(fdname, list, size);
		ret = n < 0 ? -errno : n;
		if (n > 0 && size && write_mem(pid, (unsigned long)a[1], list, (size_t)n) < 0)
			ret = -EFAULT;
		free(list);
		break;
	}
	case K_STAT: {
		struct stat st;

		ret = sys_fstatat(fd, "", &st, AT_EMPTY_PATH) == 0 ? 0 : -errno;
		if (!ret)
			ret = write_mem(pid, (unsigned long)a[c->path < 0 ? 1 : c->dirfd >= 0 ? 2 : 1], &st,
					sizeof(st));
		break;
	}
	case K_STATX: {
		struct statx stx;

		ret = syscall(SYS_statx, fd, "", AT_EMPTY_PATH | (flags & AT_STATX_SYNC_TYPE),
			      (unsigned)a[3], &stx) == 0 ? 0 : -errno;
		if (!ret)
			ret = write_mem(pid, (unsigned long)a[4], &stx, sizeof(stx));
		break;
	}
	case K_ACCESS: {
		int mode = (int)a[c->dirfd >= 0 ? 2 : 1];
		int af = AT_EMPTY_PATH | (c->flags >= 0 ? (flags & AT_EACCESS) : 0);

		ret = syscall(SYS_faccessat2, fd, "", mode, af) == 0 ? 0 : -errno;
		break;
	}
	case K_READLINK: {
		size_t size = (size_t)a[c->dirfd >= 0 ? 3 : 2];
		unsigned long buf = (unsigned long)a[c->dirfd >= 0 ? 2 : 1];
		char *link = malloc(4096);
		ssize_t n;

		if ((long long)size <= 0 || size > 0x7fffffff) {
			free(link);
			ret = -EINVAL;	/* as the kernel: a buffer of 1 to INT_MAX */
			break;
		}
		if (!link) {
			ret = -ENOMEM;
			break;
		}
		n = sys_readlinkat(fd, "", link, 4096);
		if (n < 0) {
			ret = -errno;
		} else {
			if ((size_t)n > size)
				n = (ssize_t)size;
			ret = write_mem(pid, buf, link, (size_t)n);
			if (!ret)
				ret = n;
		}
		free(link);
		break;
	}
	}
out:
	if (fd >= 0)
		sys_close(fd);
	if (dirfd >= 0)
		sys_close(dirfd);
	if (pidfd >= 0)
		sys_close(pidfd);
	free(path);
	return ret;
}

int sv_handle(int nfd, const struct ct_policy *p)
{
	struct seccomp_notif *req;
	struct seccomp_notif_resp *resp;
	const struct sv_call *c = NULL;
	long ret;

	if (seccomp_notify_alloc(&req, &resp) != 0)
		return -1;
	if (seccomp_notify_receive(nfd, req) != 0) {
		seccomp_notify_free(req, resp);
		return errno == ENOENT || errno == EINTR ? 0 : -1;	/* the target died */
	}
	for (size_t i = 0; i < NCALLS && !c; i++) {
		if (!nrs[i])
			nrs[i] = seccomp_syscall_resolve_name(calls[i].name);
		if (nrs[i] == req->data.nr)
			c = &calls[i];
	}
	ret = c ? answer(p, nfd, req, c) : -ENOSYS;
	memset(resp, 0, sizeof(*resp));
	resp->id = req->id;
	resp->flags = 0;	/* never SECCOMP_USER_NOTIF_FLAG_CONTINUE */
	if (ret < 0) {
		resp->val = -1;
		resp->error = (int)ret;
	} else {
		resp->val = ret;
		resp->error = 0;
	}
	seccomp_notify_respond(nfd, resp);	/* fails only if the target is gone */
	seccomp_notify_free(req, resp);
	return 0;
}

/* ---- passing the listener from the child to the launcher ---- */

int sv_send_fd(int sock, int fd)
{
	char c = 'F';
	struct iovec iov = { &c, 1 };
	union {
		struct cmsghdr h;
		char buf[CMSG_SPACE(sizeof(int))];
	} u;
	struct msghdr m;
	struct cmsghdr *cm;

	memset(&m, 0, sizeof(m));
	memset(&u, 0, sizeof(u));
	m.msg_iov = &iov;
	m.msg_iovlen = 1;
	m.msg_control = u.buf;
	m.msg_controllen = sizeof(u.buf);
	cm = CMSG_FIRSTHDR(&m);
	cm->cmsg_level = SOL_SOCKET;
	cm->cmsg_type = SCM_RIGHTS;
	cm->cmsg_len = CMSG_LEN(sizeof(int));
	memcpy(CMSG_DATA(cm), &fd, sizeof(int));
	return sendmsg(sock, &m, 0) == 1 ? 0 : -1;
}

int sv_recv_fd(int sock)
{
	char c;
	struct iovec iov = { &c, 1 };
	union {
		struct cmsghdr h;
		char buf[CMSG_SPACE(sizeof(int))];
	} u;
	struct msghdr m;
	struct cmsghdr *cm;
	int fd = -1;

	memset(&m, 0, sizeof(m));
	m.msg_iov = &iov;
	m.msg_iovlen = 1;
	m.msg_control = u.buf;
	m.msg_controllen = sizeof(u.buf);
	if (recvmsg(sock, &m, MSG_CMSG_CLOEXEC) != 1)
		return -1;
	cm = CMSG_FIRSTHDR(&m);
	if (!cm || cm->cmsg_type != SCM_RIGHTS)
		return -1;
	memcpy(&fd, CMSG_DATA(cm), sizeof(int));
	return fd;
}
