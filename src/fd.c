/*
 * fd.c: the calls that close, replace or move what a descriptor number or
 * the cwd names. None takes a path; each tells the anchor records
 * (src/resolve.c) to forget what it changes, then does what libc does.
 *
 * Why: a call relative to a dirfd or the cwd (openat(dirfd, name),
 * fstatat(dirfd, name), stat("dir/file")) must know which tree the
 * directory lies in. A statx per call answers that (about a third of such a
 * call's cost on a machine where a system call costs a microsecond); a
 * record kept from the first answer until the number is closed answers it
 * for free. Every wrapper here forgets before and after the real call, so
 * that a check racing the close cannot leave a record behind.
 *
 * What the records cannot see (raw close or dup2 system calls, a vfork
 * child killed between opening a directory and its exec) is in SECURITY.md.
 * All of these are async-signal-safe, as their libc originals are.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <dlfcn.h>
#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "interpose.h"
#include "sys.h"

#ifndef SYS_close_range
#define SYS_close_range 436
#endif
#ifndef CLOSE_RANGE_UNSHARE
#define CLOSE_RANGE_UNSHARE (1U << 1)
#endif

/* libc's own close (a cancellation point, as close is) and fclose, by their
 * exported aliases: no dlsym, nothing to resolve in a signal handler */
extern int __close(int fd);
extern int _IO_fclose(FILE *fp);

API int close(int fd)
{
	int r, e;

	ct_forget_fd(fd);
	r = __close(fd);
	e = errno;
	ct_forget_fd(fd);
	errno = e;
	return r;
}

API int close_range(unsigned int lo, unsigned int hi, int flags)
{
	int r, e;

	if (flags & CLOSE_RANGE_UNSHARE)
		ct_records_off();	/* this thread's table is its own now */
	ct_forget_fds_from(lo, hi);
	r = (int)syscall(SYS_close_range, lo, hi, flags);
	e = errno;
	ct_forget_fds_from(lo, hi);
	errno = e;
	return r;
}

API void closefrom(int lo)
{
	unsigned int from = lo < 0 ? 0 : (unsigned int)lo;

	ct_forget_fds_from(from, ~0U);
	if (syscall(SYS_close_range, from, ~0U, 0) != 0) {
		/* before Linux 5.9: libc's own fallback walks /proc/self/fd */
		void (*real)(int) = (void (*)(int))dlsym(RTLD_NEXT, "closefrom");

		if (real)
			real(lo);
	}
	ct_forget_fds_from(from, ~0U);
}

API int dup2(int oldfd, int newfd)
{
	int r, e;

	if (oldfd == newfd)	/* nothing is closed: EBADF or newfd */
		return (int)syscall(SYS_fcntl, oldfd, F_GETFD) < 0 ? -1 : newfd;
	ct_forget_fd(newfd);
#ifdef SYS_dup2
	r = (int)syscall(SYS_dup2, oldfd, newfd);
#else
	r = (int)syscall(SYS_dup3, oldfd, newfd, 0);
#endif
	e = errno;
	ct_forget_fd(newfd);
	errno = e;
	return r;
}

API int dup3(int oldfd, int newfd, int flags)
{
	int r, e;

	ct_forget_fd(newfd);
	r = (int)syscall(SYS_dup3, oldfd, newfd, flags);
	e = errno;
	ct_forget_fd(newfd);
	errno = e;
	return r;
}

API int fclose(FILE *fp)
{
	int fd = ct_is_null(fp) ? -1 : fileno(fp), r, e;

	ct_forget_fd(fd);
	r = _IO_fclose(fp);
	e = errno;
	ct_forget_fd(fd);
	errno = e;
	return r;
}

API int fcloseall(void)
{
	static int (*real)(void);
	int r;

	if (!real)
		real = (int (*)(void))dlsym(RTLD_NEXT, "fcloseall");
	ct_forget_all();
	r = real ? real() : 0;
	ct_forget_all();
	return r;
}

API int closedir(DIR *d)
{
	static int (*real)(DIR *);
	int fd = ct_is_null(d) ? -1 : dirfd(d), r, e;

	if (!real)
		real = (int (*)(DIR *))dlsym(RTLD_NEXT, "closedir");
	if (!real) {
		errno = ENOSYS;
		return -1;
	}
	ct_forget_fd(fd);
	r = real(d);
	e = errno;
	ct_forget_fd(fd);
	errno = e;
	return r;
}

/* glibc's daemon moves the cwd to / and 0-2 to /dev/null internally */
API int daemon(int nochdir, int noclose)
{
	static int (*real)(int, int);
	int r, e;

	if (!real)
		real = (int (*)(int, int))dlsym(RTLD_NEXT, "daemon");
	if (!real) {
		errno = ENOSYS;
		return -1;
	}
	ct_forget_all();
	r = real(nochdir, noclose);
	e = errno;
	ct_forget_all();
	errno = e;
	return r;
}

/* A vfork child's records live in its parent's memory: they go with it. */
API void _exit(int status)
{
	ct_forget_all();
	for (;;)
		syscall(SYS_exit_group, status);
}

API void _Exit(int status)
{
	ct_forget_all();
	for (;;)
		syscall(SYS_exit_group, status);
}

API int unshare(int flags)
{
	/* a table or cwd of this thread's own: the records (one per address
	 * space) could no longer tell whose number they describe */
	if (flags & (CLONE_FILES | CLONE_FS | CLONE_NEWNS))
		ct_records_off();
	return (int)syscall(SYS_unshare, flags);
}
