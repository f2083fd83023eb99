/*
 * rawio: file access that never passes through libc's path functions, as a
 * Go or static program does: every call is syscall(2). Built dynamic
 * (rawio) and static (rawio-static). Prints one word per operation: ok,
 * or the errno name.
 *
 *   rawio read PATH      openat + read: prints the first line
 *   rawio write PATH     openat(O_WRONLY|O_CREAT|O_TRUNC) + write
 *   rawio stat PATH      newfstatat
 *   rawio list DIR       openat(O_DIRECTORY) + getdents64: entry count
 *   rawio exec PATH ARG  execve
 *   rawio uring PATH     io_uring: IORING_OP_OPENAT of PATH through the ring
 *   rawio handle PATH    name_to_handle_at, then open_by_handle_at
 *   rawio mount DIR      mount a tmpfs on DIR
 *   rawio x32            a system call through the x32 ABI
 *   rawio chmod PATH     fchmodat(0600); chown PATH: fchownat(own ids);
 *   rawio utime PATH     utimensat(NULL); setxattr PATH: user.ct=1;
 *   rawio access PATH    faccessat(R_OK); readlink PATH: readlinkat
 *   rawio loop OP PATH N OP (stat, chmod) N times: prints ok or the errno
 *   rawio opath-chown PATH  open(O_PATH), then fchownat(fd, "", AT_EMPTY_PATH)
 *   rawio fdchmod        fchmod(0, 0600): the descriptor on stdin
 *   rawio threadchmod PATH  fchmodat from a second thread
 *   rawio oddenv PROG ARGS  execve PROG with an environment entry that has
 *                        no equals sign
 *   rawio filters        the Seccomp_filters line of /proc/self/status
 *   rawio ownfilter PATH install a filter of its own (getppid: EPERM), then
 *                        read PATH: "getppid EPERM" and the first line
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <linux/filter.h>
#include <linux/io_uring.h>
#include <linux/seccomp.h>
#include <pthread.h>
#include <stddef.h>
#include <sys/prctl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

static const char *en(int e)
{
	switch (e) {
	case EACCES: return "EACCES";
	case EPERM: return "EPERM";
	case ENOENT: return "ENOENT";
	case ENOSYS: return "ENOSYS";
	case EOPNOTSUPP: return "EOPNOTSUPP";
	case EXDEV: return "EXDEV";
	default: return strerror(e);
	}
}

static int fail(void)
{
	printf("%s\n", en(errno));
	return 0;
}

/* Open path with a raw openat, print its first line (or the errno name). */
static int read_line(const char *path)
{
	char buf[4096];
	int fd = (int)syscall(SYS_openat, AT_FDCWD, path, O_RDONLY);
	long n;

	if (fd < 0)
		return fail();
	n = syscall(SYS_read, fd, buf, sizeof(buf) - 1);
	buf[n > 0 ? n : 0] = 0;
	buf[strcspn(buf, "\n")] = 0;
	printf("%s\n", buf);
	return 0;
}

static void *chmod_thread(void *path)
{
	return (void *)(long)(syscall(SYS_fchmodat, AT_FDCWD, (const char *)path, 0600) < 0 ? errno : 0);
}

static int uring_openat(const char *path)
{
	struct io_uring_params pr;
	int fd;
	void *sq, *cq;
	struct io_uring_sqe *sqes;
	unsigned *tail, *array, *ctail, *chead;
	struct io_uring_cqe *cqes;
	size_t sqsz, cqsz;

	memset(&pr, 0, sizeof(pr));
	fd = (int)syscall(SYS_io_uring_setup, 4, &pr);
	if (fd < 0)
		return fail();
	sqsz = pr.sq_off.array + pr.sq_entries * sizeof(unsigned);
	cqsz = pr.cq_off.cqes + pr.cq_entries * sizeof(struct io_uring_cqe);
	sq = mmap(NULL, sqsz, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_POPULATE, fd, IORING_OFF_SQ_RING);
	cq = mmap(NULL, cqsz, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_POPULATE, fd, IORING_OFF_CQ_RING);
	sqes = mmap(NULL, pr.sq_entries * sizeof(*sqes), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_POPULATE,
		    fd, IORING_OFF_SQES);
	if (sq == MAP_FAILED || cq == MAP_FAILED || sqes == MAP_FAILED)
		return fail();
	tail = (unsigned *)((char *)sq + pr.sq_off.tail);
	array = (unsigned *)((char *)sq + pr.sq_off.array);
	memset(&sqes[0], 0, sizeof(sqes[0]));
	sqes[0].opcode = IORING_OP_OPENAT;
	sqes[0].fd = AT_FDCWD;
	sqes[0].addr = (unsigned long)path;
	sqes[0].open_flags = O_RDONLY;
	array[0] = 0;
	__atomic_store_n(tail, *tail + 1, __ATOMIC_RELEASE);
	if (syscall(SYS_io_uring_enter, fd, 1, 1, IORING_ENTER_GETEVENTS, NULL, 0) < 0)
		return fail();
	chead = (unsigned *)((char *)cq + pr.cq_off.head);
	ctail = (unsigned *)((char *)cq + pr.cq_off.tail);
	cqes = (struct io_uring_cqe *)((char *)cq + pr.cq_off.cqes);
	if (__atomic_load_n(ctail, __ATOMIC_ACQUIRE) == *chead) {
		printf("no completion\n");
		return 0;
	}
	if (cqes[*chead & (pr.cq_entries - 1)].res < 0) {
		errno = -cqes[*chead & (pr.cq_entries - 1)].res;
		return fail();
	}
	printf("ok\n");
	return 0;
}

int main(int argc, char **argv)
{
	char buf[4096];
	long n;
	int fd;

	if (argc < 2)
		return 2;
	if (!strcmp(argv[1], "read") && argc == 3) {
		return read_line(argv[2]);
	}
	if (!strcmp(argv[1], "write") && argc == 3) {
		fd = (int)syscall(SYS_openat, AT_FDCWD, argv[2], O_WRONLY | O_CREAT | O_TRUNC, 0644);
		if (fd < 0 || syscall(SYS_write, fd, "written\n", 8) != 8)
			return fail();
		printf("ok\n");
		return 0;
	}
	if (!strcmp(argv[1], "stat") && argc == 3) {
		struct stat st;

		if (syscall(SYS_newfstatat, AT_FDCWD, argv[2], &st, 0) < 0)
			return fail();
		printf("ok\n");
		return 0;
	}
	if (!strcmp(argv[1], "list") && argc == 3) {
		int count = 0;

		fd = (int)syscall(SYS_openat, AT_FDCWD, argv[2], O_RDONLY | O_DIRECTORY);
		if (fd < 0)
			return fail();
		while ((n = syscall(SYS_getdents64, fd, buf, sizeof(buf))) > 0)
			for (long off = 0; off < n; off += *(unsigned short *)(buf + off + 16))
				count++;
		if (n < 0)
			return fail();
		printf("%d\n", count - 2);
		return 0;
	}
	if (!strcmp(argv[1], "exec") && argc >= 3) {
		extern char **environ;

		fflush(stdout);
		syscall(SYS_execve, argv[2], argv + 2, environ);
		return fail();
	}
	if (!strcmp(argv[1], "uring") && argc == 3)
		return uring_openat(argv[2]);
	if (!strcmp(argv[1], "handle") && argc == 3) {
		struct { struct file_handle h; unsigned char b[128]; } fh;
		int mnt;

		fh.h.handle_bytes = 128;
		if (syscall(SYS_name_to_handle_at, AT_FDCWD, argv[2], &fh.h, &mnt, 0) < 0) {
			printf("name_to_handle_at %s ", en(errno));
			/* a handle made elsewhere: try to open a bogus one */
			fh.h.handle_bytes = 8;
			fh.h.handle_type = 1;
			memset(fh.b, 0, 8);
		}
		fd = (int)syscall(SYS_open_by_handle_at, AT_FDCWD, &fh.h, O_RDONLY);
		printf("open_by_handle_at %s\n", fd >= 0 ? "ok" : en(errno));
		return 0;
	}
	if (!strcmp(argv[1], "mount") && argc == 3) {
		if (syscall(SYS_mount, "none", argv[2], "tmpfs", 0, NULL) < 0)
			return fail();
		printf("ok\n");
		return 0;
	}
	if (!strcmp(argv[1], "x32")) {
		/* getpid through the x32 ABI (bit 30 of the number) */
		if (syscall(0x40000000 | 39) < 0)
			return fail();
		printf("ok\n");
		return 0;
	}
	if (argc == 3 && (!strcmp(argv[1], "chmod") || !strcmp(argv[1], "chown") || !strcmp(argv[1], "utime") ||
			  !strcmp(argv[1], "setxattr") || !strcmp(argv[1], "access") ||
			  !strcmp(argv[1], "readlink"))) {
		long r;

		if (!strcmp(argv[1], "chmod"))
			r = syscall(SYS_fchmodat, AT_FDCWD, argv[2], 0600);
		else if (!strcmp(argv[1], "chown"))
			r = syscall(SYS_fchownat, AT_FDCWD, argv[2], getuid(), getgid(), 0);
		else if (!strcmp(argv[1], "utime"))
			r = syscall(SYS_utimensat, AT_FDCWD, argv[2], NULL, 0);
		else if (!strcmp(argv[1], "setxattr"))
			r = syscall(SYS_setxattr, argv[2], "user.ct", "1", 1, 0);
		else if (!strcmp(argv[1], "access"))
			r = syscall(SYS_faccessat, AT_FDCWD, argv[2], R_OK);
		else {
			r = syscall(SYS_readlinkat, AT_FDCWD, argv[2], buf, sizeof(buf) - 1);
			if (r >= 0) {
				buf[r] = 0;
				printf("%s\n", buf);
				return 0;
			}
		}
		if (r < 0)
			return fail();
		printf("ok\n");
		return 0;
	}
	if (!strcmp(argv[1], "opath-chown") && argc == 3) {
		fd = (int)syscall(SYS_openat, AT_FDCWD, argv[2], O_PATH | O_NOFOLLOW);
		if (fd < 0)
			return fail();
		if (syscall(SYS_fchownat, fd, "", getuid(), getgid(), AT_EMPTY_PATH) < 0)
			return fail();
		printf("ok\n");
		return 0;
	}
	if (!strcmp(argv[1], "fdchmod")) {
		if (syscall(SYS_fchmod, 0, 0600) < 0)
			return fail();
		printf("ok\n");
		return 0;
	}
	if (!strcmp(argv[1], "threadchmod") && argc == 3) {
		pthread_t th;
		void *res;

		if (pthread_create(&th, NULL, chmod_thread, argv[2]) || pthread_join(th, &res))
			return 2;
		errno = (int)(long)res;
		if (errno)
			return fail();
		printf("ok\n");
		return 0;
	}
	if (!strcmp(argv[1], "oddenv") && argc >= 3) {
		char *env[] = { (char *)"CONTAIN_BROKEN", (char *)"PATH=/usr/bin:/bin", NULL };

		syscall(SYS_execve, argv[2], argv + 2, env);
		return fail();
	}
	if (!strcmp(argv[1], "loop") && argc == 5) {
		long count = atol(argv[4]), r = 0;
		struct stat st;

		for (long k = 0; k < count && r >= 0; k++)
			r = !strcmp(argv[2], "chmod") ? syscall(SYS_fchmodat, AT_FDCWD, argv[3], 0644)
						     : syscall(SYS_newfstatat, AT_FDCWD, argv[3], &st, 0);
		if (r < 0)
			return fail();
		printf("ok\n");
		return 0;
	}
	if (!strcmp(argv[1], "ownfilter") && argc == 3) {
		struct sock_filter f[] = {
			BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr)),
			BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_getppid, 0, 1),
			BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | EPERM),
			BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
		};
		struct sock_fprog prog = { 4, f };

		if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) || prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &prog))
			return fail();
		printf("getppid %s ", syscall(SYS_getppid) < 0 ? en(errno) : "ok");
		return read_line(argv[2]);
	}
	if (!strcmp(argv[1], "filters")) {
		FILE *f = fopen("/proc/self/status", "r");

		while (f && fgets(buf, sizeof(buf), f))
			if (!strncmp(buf, "Seccomp_filters:", 16))
				printf("%s", buf + 16 + strspn(buf + 16, " \t"));
		return 0;
	}
	return 2;
}
