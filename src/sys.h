/*
 * sys.h: raw system calls used by the library itself.
 *
 * The library never calls the libc names it exports (that would re-enter its
 * own wrappers) and never calls malloc or takes locks on a call path: these
 * are thin syscall(2) shims, async-signal-safe, that return -1 and set errno.
 */
#ifndef CONTAIN_SYS_H
#define CONTAIN_SYS_H

#include <fcntl.h>
#include <linux/openat2.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/types.h>
#include <unistd.h>

#ifndef AT_EMPTY_PATH
#define AT_EMPTY_PATH 0x1000
#endif
#ifndef SYS_openat2
#define SYS_openat2 437
#endif
#ifndef SYS_faccessat2
#define SYS_faccessat2 439
#endif
#ifndef SYS_close_range
#define SYS_close_range 436
#endif

static inline int sys_openat(int dirfd, const char *path, int flags, mode_t mode)
{
	return (int)syscall(SYS_openat, dirfd, path, flags, mode);
}

static inline int sys_openat2(int dirfd, const char *path, const struct open_how *how)
{
	return (int)syscall(SYS_openat2, dirfd, path, how, sizeof(*how));
}

static inline int sys_close(int fd)
{
	return (int)syscall(SYS_close, fd);
}

static inline ssize_t sys_readlinkat(int dirfd, const char *path, char *buf, size_t len)
{
	return (ssize_t)syscall(SYS_readlinkat, dirfd, path, buf, len);
}

static inline int sys_fstatat(int dirfd, const char *path, struct stat *st, int flags)
{
	return (int)syscall(SYS_newfstatat, dirfd, path, st, flags);
}

static inline ssize_t sys_write(int fd, const void *buf, size_t len)
{
	return (ssize_t)syscall(SYS_write, fd, buf, len);
}

static inline ssize_t sys_pread(int fd, void *buf, size_t len, off_t off)
{
	return (ssize_t)syscall(SYS_pread64, fd, buf, len, off);
}

static inline long sys_getcwd(char *buf, size_t len)
{
	return syscall(SYS_getcwd, buf, len);
}

static inline pid_t sys_getpid(void)
{
	return (pid_t)syscall(SYS_getpid);
}

static inline pid_t sys_gettid(void)
{
	return (pid_t)syscall(SYS_gettid);
}

#endif
