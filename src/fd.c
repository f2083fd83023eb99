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
 * Only the process that loaded the library fills records (src/resolve.c
 * checks getpid on a fill): a vfork child shares the memory but not the
 * table. What the records cannot see (a raw close or
 * dup2 system call) is in SECURITY.md. The fd wrappers are as
 * async-signal-safe as their libc originals.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <dlfcn.h>
#include <errno.h>
#include <mntent.h>
#include <pthread.h>
#include <sched.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/single_threaded.h>
#include <unistd.h>

#include "interpose.h"
#include "sys.h"

#ifndef CLOSE_RANGE_UNSHARE
#define CLOSE_RANGE_UNSHARE (1U << 1)
#endif

/* libc's exported aliases, which programs can call too */
int __close(int fd);
int __dup2(int oldfd, int newfd);
int _IO_fclose(FILE *fp);
int __endmntent(FILE *fp);
int __clone(int (*fn)(void *), void *stack, int flags, void *arg, ...);

/*
 * close without calling libc's (we export close, and looking libc's up with
 * dlsym at every start costs page faults and is not async-signal-safe):
 * the system call, and, once the process has threads, a cancellation point
 * on each side of it (glibc lets a cancellation act during a blocked close;
 * here it acts as the call returns).
 */
API int close(int fd)
{
	int threads = !__libc_single_threaded, r, e;

	/* the cancellation point before and after, not during: a thread
	 * cancelled inside the call would skip the second forget */
	if (threads)
		pthread_testcancel();
	ct_forget_fd(fd);
	r = (int)syscall(SYS_close, fd);
	e = errno;
	ct_forget_fd(fd);
	if (threads)
		pthread_testcancel();
	errno = e;
	return r;
}

/* libc exports close, __close, dup2, __dup2, fclose, _IO_fclose, endmntent,
 * __endmntent, _exit, _Exit, clone and __clone: the second names are
 * callable by programs too, so each is the same wrapper under both names */
API int __close(int fd) __attribute__((alias("close")));

/* After the real call that closed or replaced fd returned r: the second
 * forget (a fill may have raced the call), the call's errno kept. */
static int forget_after(int fd, int r)
{
	int e = errno;

	ct_forget_fd(fd);
	errno = e;
	return r;
}

/* A stream's fd closed inside libc (fclose, _IO_fclose, endmntent); *slot
 * caches libc's entry point (neither is async-signal-safe: dlsym may run). */
typedef int (*stream_close_fn)(FILE *);

static int close_stream(stream_close_fn *slot, const char *name, FILE *fp)
{
	stream_close_fn real = __atomic_load_n(slot, __ATOMIC_ACQUIRE);
	int fd = ct_is_null(fp) ? -1 : fileno(fp);

	if (!real) {
		real = (stream_close_fn)dlsym(RTLD_NEXT, name);
		__atomic_store_n(slot, real, __ATOMIC_RELEASE);
	}
	if (!real) {
		errno = ENOSYS;
		return EOF;
	}
	ct_forget_fd(fd);
	return forget_after(fd, real(fp));
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

API int __dup2(int oldfd, int newfd)
{
	if (oldfd == newfd)	/* nothing is closed: EBADF or newfd */
		return (int)syscall(SYS_fcntl, oldfd, F_GETFD) < 0 ? -1 : newfd;
	ct_forget_fd(newfd);
#ifdef SYS_dup2
	return forget_after(newfd, (int)syscall(SYS_dup2, oldfd, newfd));
#else
	return forget_after(newfd, (int)syscall(SYS_dup3, oldfd, newfd, 0));
#endif
}

API int dup2(int oldfd, int newfd) __attribute__((alias("__dup2")));

API int dup3(int oldfd, int newfd, int flags)
{
	ct_forget_fd(newfd);
	return forget_after(newfd, (int)syscall(SYS_dup3, oldfd, newfd, flags));
}

static stream_close_fn real_fclose, real_endmntent, real_pclose;

API int fclose(FILE *fp)
{
	return close_stream(&real_fclose, "fclose", fp);
}

API int _IO_fclose(FILE *fp) __attribute__((alias("fclose")));

/* setmntent's stream is the checked fopen's: it may hold a directory */
API int __endmntent(FILE *fp)
{
	return close_stream(&real_endmntent, "endmntent", fp);
}

API int endmntent(FILE *fp) __attribute__((alias("__endmntent")));

/* popen's stream: glibc's pclose closes its fd without passing through
 * fclose, and the program may have used that number as a directory */
API int pclose(FILE *fp)
{
	return close_stream(&real_pclose, "pclose", fp);
}

int _IO_proc_close(FILE *fp);
API int _IO_proc_close(FILE *fp) __attribute__((alias("pclose")));

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
	int fd = ct_is_null(d) ? -1 : dirfd(d);

	if (!real)
		real = (int (*)(DIR *))dlsym(RTLD_NEXT, "closedir");
	if (!real) {
		errno = ENOSYS;
		return -1;
	}
	ct_forget_fd(fd);
	return forget_after(fd, real(d));
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

API void _Exit(int status) __attribute__((alias("_exit")));

/* joining a mount namespace moves the root and the cwd; a pid namespace
 * makes process ids (which the records' owner check compares) ambiguous */
API int setns(int fd, int nstype)
{
	if (nstype == 0 || (nstype & (CLONE_NEWNS | CLONE_NEWPID)))
		ct_records_off();
	return (int)syscall(SYS_setns, fd, nstype);
}

API int unshare(int flags)
{
	/* a table or cwd of this thread's own: the records (one per address
	 * space) could no longer tell whose number they describe */
	if (flags & (CLONE_FILES | CLONE_FS | CLONE_NEWNS | CLONE_NEWPID))
		ct_records_off();
	return (int)syscall(SYS_unshare, flags);
}

/*
 * clone: a child sharing this memory but not the fd table and cwd, or
 * sharing the table or cwd but not the memory (or in a new pid namespace),
 * would make the records one-sided: off for good. Threads (all three
 * shared) and fork-like children (none) leave them on.
 */
typedef int (*clone_fn)(int (*)(void *), void *, int, void *, ...);

API int __clone(int (*fn)(void *), void *stack, int flags, void *arg, ...)
{
	static clone_fn real;
	int shared = flags & (CLONE_FILES | CLONE_FS);
	pid_t *ptid, *ctid;
	void *tls;
	va_list ap;

	va_start(ap, arg);
	ptid = va_arg(ap, pid_t *);
	tls = va_arg(ap, void *);
	ctid = va_arg(ap, pid_t *);
	va_end(ap);

	/* the records stay true only if the child shares all three (a thread)
	 * or none (a fork): memory with a table or cwd of its own, or a shared
	 * table or cwd with memory of its own, would make them one-sided */
	if ((flags & CLONE_VM) ? shared != (CLONE_FILES | CLONE_FS) : shared != 0)
		ct_records_off();
	if (flags & CLONE_NEWPID)
		ct_records_off();
	if (!real)
		real = (clone_fn)dlsym(RTLD_NEXT, "clone");
	if (!real) {
		errno = ENOSYS;
		return -1;
	}
	return real(fn, stack, flags, arg, ptid, tls, ctid);
}

API int clone(int (*fn)(void *), void *stack, int flags, void *arg, ...)
	__attribute__((alias("__clone")));

/*
 * vfork: the child shares this memory (records included) but not the fd
 * table or cwd, and runs wrappers until its exec or exit. Fills stop from
 * before the system call until the parent resumes (ct_rec_frozen); then
 * everything is forgotten. The child returns on the caller's stack, so this
 * is glibc's vfork (x86-64) with one locked increment before the call and,
 * in the parent only, a tail call to ct_vfork_parent.
 */
long ct_vfork_parent(long r);

long ct_vfork_parent(long r)
{
	__atomic_sub_fetch(&ct_rec_frozen, 1, __ATOMIC_SEQ_CST);
	ct_forget_all();
	if ((unsigned long)r >= (unsigned long)-4095L) {
		errno = (int)-r;
		return -1;
	}
	return r;
}

__asm__(".text\n"
	".globl vfork\n"
	".type vfork, @function\n"
	".globl __vfork\n"
	".type __vfork, @function\n"
	"vfork:\n"
	"__vfork:\n"
	"	.cfi_startproc\n"
	"	endbr64\n"
	"	lock incl ct_rec_frozen(%rip)\n"
	"	popq %rdi\n"		/* the return address survives the child */
	"	.cfi_adjust_cfa_offset -8\n"
	"	.cfi_register %rip, %rdi\n"
	"	movl $58, %eax\n"	/* SYS_vfork */
	"	syscall\n"
	"	pushq %rdi\n"
	"	.cfi_adjust_cfa_offset 8\n"
	"	.cfi_rel_offset %rip, 0\n"
	"	testq %rax, %rax\n"
	"	jz 1f\n"
	"	movq %rax, %rdi\n"
	"	jmp ct_vfork_parent\n"	/* returns to the caller */
	"1:	ret\n"
	"	.cfi_endproc\n"
	".size vfork, .-vfork\n"
	".size __vfork, .-__vfork\n");
