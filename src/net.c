/*
 * net.c: unix socket addresses, dlopen, and calls that watch or name a
 * path (inotify, fanotify, name_to_handle_at).
 *
 * A pathname unix socket (/var/run/docker.sock) is a file: connect and
 * sendto need it in a writable tree (connecting is writing to it); bind
 * creates it, which needs its directory in a writable tree. The call is
 * made on the checked object through /proc/self/fd/N (the kernel follows
 * the magic link to that very inode). Abstract addresses (a leading NUL)
 * name no file and pass unchanged.
 */
#include "config.h"

#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <mqueue.h>
#include <semaphore.h>
#include <stdarg.h>
#include <sys/mman.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/fanotify.h>
#include <sys/inotify.h>
#include <sys/socket.h>
#include <sys/un.h>

#include "contain.h"
#include "interpose.h"
#include "report.h"
#include "sys.h"

/* The path in a unix address, NUL-terminated in out; 0 when there is none. */
static int unix_path(const struct sockaddr *addr, socklen_t len, char *out, size_t outlen)
{
	const struct sockaddr_un *un = (const struct sockaddr_un *)addr;
	size_t n;

	if (!addr || len <= offsetof(struct sockaddr_un, sun_path) || addr->sa_family != AF_UNIX ||
	    un->sun_path[0] == 0)
		return 0;
	n = len - offsetof(struct sockaddr_un, sun_path);
	if (n > sizeof(un->sun_path))
		n = sizeof(un->sun_path);
	n = strnlen(un->sun_path, n);
	if (n >= outlen)
		return 0;
	memcpy(out, un->sun_path, n);
	out[n] = 0;
	return 1;
}

/*
 * The address to use instead of addr: /proc/self/fd/N for the checked
 * socket file (connect, sendto), or /proc/self/fd/N/name for its checked
 * directory (bind). Returns the fd to close after the call, -2 when addr
 * is not a pathname address (use it as is), -1 on denial.
 */
static int checked_addr(const char *op, const struct sockaddr *addr, socklen_t len, int create,
			struct sockaddr_un *out, socklen_t *outlen)
{
	char path[sizeof(out->sun_path) + 1], *slash;
	const struct ct_policy *p = ct_policy();
	struct ct_verdict v;
	int fd, k;

	if (!p) {
		errno = EACCES;
		return -1;
	}
	if (!p->active || !unix_path(addr, len, path, sizeof(path)))
		return -2;
	memset(out, 0, sizeof(*out));
	out->sun_family = AF_UNIX;
	if (!create) {
		fd = ct_checked_open(p, op, AT_FDCWD, path, O_PATH | O_CLOEXEC, 0, CT_W, 1, &v);
		if (fd < 0)
			return -1;
		k = snprintf(out->sun_path, sizeof(out->sun_path), "/proc/self/fd/%d", fd);
	} else {
		const char *name;
		char dir[sizeof(path)];

		slash = strrchr(path, '/');
		name = slash ? slash + 1 : path;
		if (!slash)
			memcpy(dir, ".", 2);
		else if (slash == path)
			memcpy(dir, "/", 2);
		else {
			memcpy(dir, path, (size_t)(slash - path));
			dir[slash - path] = 0;
		}
		fd = ct_checked_open(p, op, AT_FDCWD, dir, O_PATH | O_DIRECTORY | O_CLOEXEC, 0, CT_W, 1, &v);
		if (fd < 0)
			return -1;
		k = snprintf(out->sun_path, sizeof(out->sun_path), "/proc/self/fd/%d/%s", fd, name);
	}
	if (k < 0 || (size_t)k >= sizeof(out->sun_path)) {
		int e = ENAMETOOLONG;

		sys_close(fd);
		errno = e;
		return -1;
	}
	*outlen = (socklen_t)(offsetof(struct sockaddr_un, sun_path) + (size_t)k + 1);
	return fd;
}

static int finish(int fd, int r)
{
	int e = errno;

	if (fd >= 0)
		sys_close(fd);
	errno = e;
	return r;
}

API int connect(int sock, const struct sockaddr *addr, socklen_t len)
{
	struct sockaddr_un un;
	socklen_t ul;
	int fd = checked_addr("connect", addr, len, 0, &un, &ul);

	if (fd == -1)
		return -1;
	if (fd == -2)
		return (int)syscall(SYS_connect, sock, addr, len);
	return finish(fd, (int)syscall(SYS_connect, sock, &un, ul));
}

API int bind(int sock, const struct sockaddr *addr, socklen_t len)
{
	struct sockaddr_un un;
	socklen_t ul;
	int fd = checked_addr("bind", addr, len, 1, &un, &ul);

	if (fd == -1)
		return -1;
	if (fd == -2)
		return (int)syscall(SYS_bind, sock, addr, len);
	return finish(fd, (int)syscall(SYS_bind, sock, &un, ul));
}

API ssize_t sendto(int sock, const void *buf, size_t n, int flags, const struct sockaddr *addr,
		   socklen_t len)
{
	struct sockaddr_un un;
	socklen_t ul;
	int fd = checked_addr("sendto", addr, len, 0, &un, &ul);

	if (fd == -1)
		return -1;
	if (fd == -2)
		return (ssize_t)syscall(SYS_sendto, sock, buf, n, flags, addr, len);
	return finish(fd, (int)syscall(SYS_sendto, sock, buf, n, flags, &un, ul));
}

API ssize_t sendmsg(int sock, const struct msghdr *msg, int flags)
{
	struct sockaddr_un un;
	struct msghdr m;
	socklen_t ul;
	int fd = msg ? checked_addr("sendmsg", msg->msg_name, msg->msg_namelen, 0, &un, &ul) : -2;

	if (fd == -1)
		return -1;
	if (fd == -2)
		return (ssize_t)syscall(SYS_sendmsg, sock, msg, flags);
	m = *msg;
	m.msg_name = &un;
	m.msg_namelen = ul;
	return finish(fd, (int)syscall(SYS_sendmsg, sock, &m, flags));
}

/*
 * dlopen of a path (one with a slash) needs it in a tree; the loader opens
 * it again itself (see SECURITY.md). A bare name is searched by the loader
 * in its own path and passes unchanged. $ORIGIN is expanded here, for the
 * caller's object: the loader would take this library for the caller.
 */
static const char *expand_origin(const char *path, const void *caller, char *buf, size_t len)
{
	const char *o = strstr(path, "$ORIGIN"), *ob = strstr(path, "${ORIGIN}");
	const char *at = o ? o : ob;
	size_t tok = o ? 7 : 9, dl;
	Dl_info info;
	const char *slash;

	if (!at)
		return path;
	if (!dladdr(caller, &info) || !info.dli_fname || !(slash = strrchr(info.dli_fname, '/')))
		return NULL;
	dl = (size_t)(slash - info.dli_fname);
	if ((size_t)(at - path) + dl + strlen(at + tok) + 1 > len)
		return NULL;
	memcpy(buf, path, (size_t)(at - path));
	memcpy(buf + (at - path), info.dli_fname, dl);
	memcpy(buf + (at - path) + dl, at + tok, strlen(at + tok) + 1);
	return buf;
}

static int dl_check(const struct ct_policy *p, const char *op, const char *path)
{
	struct ct_verdict v;
	int fd;

	if (!p || !p->active || !path || !strchr(path, '/'))
		return 0;
	fd = ct_checked_open(p, op, AT_FDCWD, path, O_RDONLY | O_CLOEXEC, 0, CT_R, 1, &v);
	if (fd < 0)
		return -1;
	sys_close(fd);
	return 0;
}

API void *dlopen(const char *path, int mode)
{
	static void *(*real)(const char *, int);
	const struct ct_policy *p = ct_policy();
	char buf[4096];

	if (!real)
		real = (void *(*)(const char *, int))dlsym(RTLD_NEXT, "dlopen");
	if (!real || !p)
		return NULL;
	if (path && p->active && !(path = expand_origin(path, __builtin_return_address(0), buf, sizeof(buf))))
		return NULL;
	if (dl_check(p, "dlopen", path) < 0)
		return NULL;	/* dlerror() has nothing to say: see errno */
	return real(path, mode);
}

API void *dlmopen(Lmid_t lmid, const char *path, int mode)
{
	static void *(*real)(Lmid_t, const char *, int);
	const struct ct_policy *p = ct_policy();
	char buf[4096];

	if (!real)
		real = (void *(*)(Lmid_t, const char *, int))dlsym(RTLD_NEXT, "dlmopen");
	if (!real || !p)
		return NULL;
	if (path && p->active && !(path = expand_origin(path, __builtin_return_address(0), buf, sizeof(buf))))
		return NULL;
	if (dl_check(p, "dlmopen", path) < 0)
		return NULL;
	return real(lmid, path, mode);
}

/* sendmmsg: each message's address, as sendmsg */
API int sendmmsg(int sock, struct mmsghdr *msgs, unsigned int n, int flags)
{
	unsigned i;
	int sent = 0;

	for (i = 0; i < n; i++) {
		ssize_t r = sendmsg(sock, &msgs[i].msg_hdr, flags);

		if (r < 0)
			return sent ? sent : -1;
		msgs[i].msg_len = (unsigned)r;
		sent++;
	}
	return sent;
}

/* fanotify_mark: the checked object, as dirfd with a NULL path */
API int fanotify_mark(int ffd, unsigned int flags, uint64_t mask, int dirfd, const char *path)
{
	const struct ct_policy *p = ct_policy();
	struct ct_verdict v;
	int nofollow = (flags & FAN_MARK_DONT_FOLLOW) != 0, fd;

	if (!p) {
		errno = EACCES;
		return -1;
	}
	if (!p->active || !path)
		return (int)syscall(SYS_fanotify_mark, ffd, flags, mask, dirfd, path);
	fd = ct_checked_open(p, "fanotify_mark", dirfd, path,
			     O_PATH | O_CLOEXEC | (nofollow ? O_NOFOLLOW : 0), 0, 0, !nofollow, &v);
	if (fd < 0)
		return -1;
	{
		char fdname[40];

		/* through the magic link to the checked inode (an O_PATH fd is
		 * not taken as dirfd with a NULL path) */
		snprintf(fdname, sizeof(fdname), "/proc/self/fd/%d", fd);
		return finish(fd, (int)syscall(SYS_fanotify_mark, ffd, flags & ~FAN_MARK_DONT_FOLLOW, mask,
					       AT_FDCWD, fdname));
	}
}

/* inotify_add_watch: the checked object, through its magic link. */
API int inotify_add_watch(int ifd, const char *path, uint32_t mask)
{
	const struct ct_policy *p = ct_policy();
	struct ct_verdict v;
	char fdname[40];
	int nofollow = (mask & IN_DONT_FOLLOW) != 0, fd;

	if (!p) {
		errno = EACCES;
		return -1;
	}
	if (!p->active)
		return (int)syscall(SYS_inotify_add_watch, ifd, path, mask);
	fd = ct_checked_open(p, "inotify_add_watch", AT_FDCWD, path,
			     O_PATH | O_CLOEXEC | (nofollow ? O_NOFOLLOW : 0), 0, 0, !nofollow, &v);
	if (fd < 0)
		return -1;
	snprintf(fdname, sizeof(fdname), "/proc/self/fd/%d", fd);
	return finish(fd, (int)syscall(SYS_inotify_add_watch, ifd, fdname, mask & ~IN_DONT_FOLLOW));
}

/* name_to_handle_at: a handle for the checked object (AT_EMPTY_PATH on its fd). */
API int name_to_handle_at(int dirfd, const char *path, struct file_handle *h, int *mount_id, int flags)
{
	const struct ct_policy *p = ct_policy();
	struct ct_verdict v;
	int follow = (flags & AT_SYMLINK_FOLLOW) != 0, fd;

	if (!p) {
		errno = EACCES;
		return -1;
	}
	if (!p->active || ((flags & AT_EMPTY_PATH) && path && !*path))
		return (int)syscall(SYS_name_to_handle_at, dirfd, path, h, mount_id, flags);
	fd = ct_checked_open(p, "name_to_handle_at", dirfd, path,
			     O_PATH | O_CLOEXEC | (follow ? 0 : O_NOFOLLOW), 0, 0, follow, &v);
	if (fd < 0)
		return -1;
	return finish(fd, (int)syscall(SYS_name_to_handle_at, fd, "", h, mount_id,
				       AT_EMPTY_PATH | (flags & ~(AT_SYMLINK_FOLLOW | AT_EMPTY_PATH))));
}

/*
 * POSIX IPC names (shm_open, sem_open, mq_open and their unlink) are no
 * path in the trees: they name objects every process on the machine shares
 * (/dev/shm, the mqueue fs). A contained process gets a namespace of its
 * own: each name is prefixed with a tag of the root, so processes of one
 * root share their objects and see no one else's.
 */
static const char *ipc_name(const struct ct_policy *p, const char *name, char *buf, size_t len)
{
	unsigned long long h = 1469598103934665603ULL;
	const char *s;
	int k;

	if (!p || !p->active || !name)
		return name;
	/* the tag: the root's real path, as every process of the run has it */
	for (k = 0; k < p->nenv; k++)
		if (strncmp(p->env[k], "CONTAIN_ROOT=", 13) == 0)
			for (s = p->env[k]; *s; s++)
				h = (h ^ (unsigned char)*s) * 1099511628211ULL;
	k = snprintf(buf, len, "/ct%012llx.%s", h & 0xffffffffffffULL, name[0] == '/' ? name + 1 : name);
	return k > 0 && (size_t)k < len ? buf : NULL;
}

#define IPC_REAL(type, name, ...)                                   \
	static type (*real)(__VA_ARGS__);                           \
	if (!real)                                                  \
		real = (type (*)(__VA_ARGS__))dlsym(RTLD_NEXT, name)

API int shm_open(const char *name, int oflag, mode_t mode)
{
	char buf[300];
	const char *n;

	IPC_REAL(int, "shm_open", const char *, int, mode_t);
	n = ipc_name(ct_policy(), name, buf, sizeof(buf));
	if (!real || !n) {
		errno = !real ? ENOSYS : ENAMETOOLONG;
		return -1;
	}
	return real(n, oflag, mode);
}

API int shm_unlink(const char *name)
{
	char buf[300];
	const char *n;

	IPC_REAL(int, "shm_unlink", const char *);
	n = ipc_name(ct_policy(), name, buf, sizeof(buf));
	if (!real || !n) {
		errno = !real ? ENOSYS : ENAMETOOLONG;
		return -1;
	}
	return real(n);
}

API sem_t *sem_open(const char *name, int oflag, ...)
{
	char buf[300];
	const char *n;
	mode_t mode = 0;
	unsigned value = 0;

	IPC_REAL(sem_t *, "sem_open", const char *, int, ...);
	if (oflag & O_CREAT) {
		va_list ap;

		va_start(ap, oflag);
		mode = va_arg(ap, mode_t);
		value = va_arg(ap, unsigned);
		va_end(ap);
	}
	n = ipc_name(ct_policy(), name, buf, sizeof(buf));
	if (!real || !n) {
		errno = !real ? ENOSYS : ENAMETOOLONG;
		return SEM_FAILED;
	}
	return (oflag & O_CREAT) ? real(n, oflag, mode, value) : real(n, oflag);
}

API int sem_unlink(const char *name)
{
	char buf[300];
	const char *n;

	IPC_REAL(int, "sem_unlink", const char *);
	n = ipc_name(ct_policy(), name, buf, sizeof(buf));
	if (!real || !n) {
		errno = !real ? ENOSYS : ENAMETOOLONG;
		return -1;
	}
	return real(n);
}

API mqd_t mq_open(const char *name, int oflag, ...)
{
	char buf[300];
	const char *n;
	mode_t mode = 0;
	struct mq_attr *attr = NULL;

	IPC_REAL(mqd_t, "mq_open", const char *, int, ...);
	if (oflag & O_CREAT) {
		va_list ap;

		va_start(ap, oflag);
		mode = va_arg(ap, mode_t);
		attr = va_arg(ap, struct mq_attr *);
		va_end(ap);
	}
	n = ipc_name(ct_policy(), name, buf, sizeof(buf));
	if (!real || !n) {
		errno = !real ? ENOSYS : ENAMETOOLONG;
		return (mqd_t)-1;
	}
	return (oflag & O_CREAT) ? real(n, oflag, mode, attr) : real(n, oflag);
}

/* _FORTIFY_SOURCE's mq_open(name, oflag): glibc calls its internal mq_open,
 * which would skip the per-root name; O_CREAT without a mode aborts there. */
API mqd_t __mq_open_2(const char *name, int oflag);
API mqd_t __mq_open_2(const char *name, int oflag)
{
	if (oflag & O_CREAT) {
		mqd_t (*chk)(const char *, int) = (mqd_t(*)(const char *, int))dlsym(RTLD_NEXT, "__mq_open_2");

		if (chk)
			return chk(name, oflag);	/* glibc's fortify failure */
		abort();
	}
	return mq_open(name, oflag);
}

API int mq_unlink(const char *name)
{
	char buf[300];
	const char *n;

	IPC_REAL(int, "mq_unlink", const char *);
	n = ipc_name(ct_policy(), name, buf, sizeof(buf));
	if (!real || !n) {
		errno = !real ? ENOSYS : ENAMETOOLONG;
		return -1;
	}
	return real(n);
}

int __connect(int sock, const struct sockaddr *addr, socklen_t len);

API int __connect(int sock, const struct sockaddr *addr, socklen_t len)
{
	return connect(sock, addr, len);
}
