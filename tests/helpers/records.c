/*
 * records.c: the anchor records (src/resolve.c, src/fd.c) under attack.
 *
 * usage: records count DIR NAME N     N x fstatat(dirfd, NAME): prints "ok"
 *        records swap HOW DIR NAME OUTFD
 *             open DIR, check fstatat(dirfd, NAME) works (the twin), then
 *             let the number go by HOW (close, __close, dup2, __dup2, dup3,
 *             close_range, closefrom, closedir, fclose, _IO_fclose,
 *             pclose, _IO_proc_close (popen's number made the directory),
 *             endmntent) and put OUTFD's directory (one
 *             outside, inherited) at that number; prints what fstatat and
 *             openat(dirfd, NAME) answer then: "stat=ERR open=ERR"
 *        records vfork HOW DIR NAME OUTFD
 *             OUTFD's directory at a number A; a vfork child closes A, opens
 *             DIR (inside) at A, checks fstatat(A, NAME), then ends by HOW
 *             (_exit, exit, exec, or execat: execveat(A, "true") with DIR
 *             holding a copy of true); then the parent asks fstatat(A, NAME)
 *        records vforkcwd HOW RODIR RWDIR NAME
 *             cwd RODIR (read-only tree); a vfork child chdirs to RWDIR,
 *             stats a relative name, ends by HOW (_exit, exit, exec, or
 *             execrel: execv("true") relative to RWDIR); then the parent
 *             creates NAME relative to its cwd: "create=ERR". HOW raw and
 *             rawexec: the child comes from a vfork system call made
 *             directly (glibc's sequence, not its vfork: no wrapper sees
 *             it) and ends by exit_group (or exec); x86-64 only, elsewhere
 *             "create=skipped"
 *        records freopen RWDIR RODIR NAME
 *             a stream on RWDIR (writable tree), a create through its fd
 *             (the twin), then freopen(RODIR) on the stream (glibc puts the
 *             new file at the same number) and a create through it again:
 *             "create=ERR"
 *        records ftwcb DIR NAME OUTFD
 *             nftw(DIR, FTW_CHDIR) from DIR's parent; the callback uses the
 *             walk's own cwd descriptor (the lowest free number) as a
 *             dirfd; after the walk, OUTFD's directory goes to that number
 *        records reuse DIR NAME OUTFD
 *             fork a child A and exit; A vforks until a child gets this
 *             process's old pid (the owner the library recorded); that
 *             child puts DIR at OUTFD's number, checks NAME through it and
 *             is killed; then A asks through its own OUTFD (outside):
 *             "pid reused ... stat=ERR open=ERR" (or "pid not reused")
 *        records clonefiles|clonefs RWDIR RODIR NAME
 *             a libc clone() child with its own memory shares the fd table
 *             (or the cwd) and moves the parent's recorded dirfd (or cwd)
 *             from RWDIR to RODIR; then the parent creates NAME through it:
 *             "create=ERR"
 *        records identrace RWDIR RODIR fork|owner
 *             (in a fork child of this process, which keeps no records
 *             and caches directories by identity, or in this process)
 *             20 rounds, round i on RWDIR/d<i> and RODIR/d<i> (fresh
 *             directories: a cache by identity gets one chance each): one
 *             thread switches number 20 between the two with dup2 while
 *             two threads fstatat(20, "x"), for 50 ms; then a fresh
 *             descriptor on RODIR/d<i> creates a file: "create=ERR" (the
 *             first answer that was not EACCES), then the twin through a
 *             fresh RWDIR descriptor: "twin=ERR"
 *        records forkrace RWDIR RODIR N
 *             number 20 flips between RWDIR and RODIR (dup2, one thread)
 *             while two threads fstatat(20, "x") (records filled and taken
 *             back all the time); meanwhile N fork children each look at
 *             what 20 is and create a file through it. Prints "forks=N
 *             stale-creates=K twins=ok|none": K creates in RODIR went
 *             through; twins: some child created in RWDIR
 *        records setns DIR NAME
 *             cwd DIR (inside), a relative stat, then setns into this very
 *             mount namespace (the kernel moves the cwd to /); then
 *             open(NAME) relative: "setns=ERR open=ERR"
 *
 * ERR is "ok" or strerror(errno). Exit status 0 unless the twin failed.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <signal.h>
#include <mntent.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;
int __close(int fd);
int __dup2(int oldfd, int newfd);
int _IO_fclose(FILE *fp);
int _IO_proc_close(FILE *fp);

static const char *res(int r)
{
	return r < 0 ? strerror(errno) : "ok";
}

/* what fstatat and openat through dirfd answer */
static void ask(int fd, const char *name)
{
	struct stat st;
	int r = fstatat(fd, name, &st, AT_SYMLINK_NOFOLLOW), o;

	printf("stat=%s ", res(r));
	o = openat(fd, name, O_RDONLY);
	printf("open=%s\n", res(o));
	if (o >= 0)
		close(o);
}

static int twin(int fd, const char *name)
{
	struct stat st;

	if (fstatat(fd, name, &st, AT_SYMLINK_NOFOLLOW) != 0) {
		perror("records: the twin (inside) failed");
		return -1;
	}
	return 0;
}

static int swap(const char *how, const char *dir, const char *name, int outfd)
{
	int low = fcntl(outfd, F_DUPFD_CLOEXEC, 0);	/* below the inside fd */
	int fd = -1;
	DIR *d = NULL;
	FILE *fp = NULL;

	if (!strcmp(how, "closedir")) {
		d = opendir(dir);
		fd = d ? dirfd(d) : -1;
	} else if (!strcmp(how, "endmntent")) {
		fp = setmntent(dir, "r");	/* the checked fopen, on a directory */
		fd = fp ? fileno(fp) : -1;
	} else if (!strcmp(how, "pclose") || !strcmp(how, "_IO_proc_close")) {
		/* popen's number, made the directory: pclose closes it inside
		 * glibc, not through fclose */
		int dfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);

		fp = popen("true", "r");
		fd = fp ? fileno(fp) : -1;
		if (dfd < 0 || fd < 0 || dup2(dfd, fd) != fd)
			return 1;
		close(dfd);
	} else {
		fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
		if (fd >= 0 && (!strcmp(how, "fclose") || !strcmp(how, "_IO_fclose")))
			fp = fdopen(fd, "r");
	}
	if (low < 0 || fd < 0 || twin(fd, name) < 0)
		return 1;
	if (!strcmp(how, "close"))
		close(fd);
	else if (!strcmp(how, "__close"))
		__close(fd);
	else if (!strcmp(how, "_IO_fclose"))
		_IO_fclose(fp);
	else if (!strcmp(how, "endmntent"))
		endmntent(fp);
	else if (!strcmp(how, "close_range"))
		close_range((unsigned)fd, (unsigned)fd, 0);
	else if (!strcmp(how, "closefrom"))
		closefrom(fd);
	else if (!strcmp(how, "closedir"))
		closedir(d);
	else if (!strcmp(how, "fclose"))
		fclose(fp);
	else if (!strcmp(how, "pclose"))
		pclose(fp);
	else if (!strcmp(how, "_IO_proc_close"))
		_IO_proc_close(fp);
	if (!strcmp(how, "dup2")) {
		if (dup2(low, fd) != fd)
			return 1;
	} else if (!strcmp(how, "__dup2")) {
		if (__dup2(low, fd) != fd)
			return 1;
	} else if (!strcmp(how, "dup3")) {
		if (dup3(low, fd, 0) != fd)
			return 1;
	} else if (fcntl(low, F_DUPFD, fd) != fd) {	/* F_DUPFD: not a wrapper */
		perror("records: the number did not come back");
		return 1;
	}
	ask(fd, name);
	return 0;
}

static int vforked(const char *how, const char *dir, const char *name, int outfd)
{
	int a = fcntl(outfd, F_DUPFD_CLOEXEC, 0), st;
	pid_t pid;

	if (a < 0)
		return 1;
	pid = vfork();
	if (pid == 0) {
		struct stat s;
		char *const argv[] = { "true", NULL };

		close(a);
		if (open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC) != a ||
		    fstatat(a, name, &s, AT_SYMLINK_NOFOLLOW) != 0)
			_exit(3);
		if (!strcmp(how, "exec"))
			execv("/bin/true", argv);
		if (!strcmp(how, "execat"))
			execveat(a, "true", argv, environ, 0);
		if (!strcmp(how, "exit"))
			exit(0);	/* wrong in a vfork child, and done */
		_exit(0);
	}
	if (pid < 0 || waitpid(pid, &st, 0) != pid || !WIFEXITED(st) || WEXITSTATUS(st) != 0) {
		fprintf(stderr, "records: the vfork child failed\n");
		return 1;
	}
	ask(a, name);
	return 0;
}

#if defined(__x86_64__)
/* vfork as glibc makes it (the return address kept in a register, for the
 * child will reuse the stack), but out of every wrapper's sight */
pid_t raw_vfork(void);
__asm__(".text\n.globl raw_vfork\n.type raw_vfork,@function\nraw_vfork:\n"
	"\tpop %rdi\n\tmov $58, %eax\n\tsyscall\n\tpush %rdi\n\tret\n");
#endif

static int vforkcwd(const char *how, const char *ro, const char *rw, const char *name)
{
	struct stat s;
	pid_t pid;
	int st, fd, raw = !strncmp(how, "raw", 3);

	if (chdir(ro) != 0 || stat(".", &s) != 0)
		return 1;
#if defined(__x86_64__)
	pid = raw ? raw_vfork() : vfork();
#else
	if (raw) {
		printf("create=skipped\n");
		return 0;
	}
	pid = vfork();
#endif
	if (pid == 0) {
		char *const argv[] = { "true", NULL };

		if (chdir(rw) != 0 || stat(".", &s) != 0)
			_exit(3);
		if (!strcmp(how, "raw"))
			syscall(SYS_exit_group, 0);
		if (!strcmp(how, "exec") || !strcmp(how, "rawexec"))
			execv("/bin/true", argv);
		if (!strcmp(how, "execrel"))
			execv("true", argv);
		if (!strcmp(how, "exit"))
			exit(0);
		_exit(0);
	}
	if (pid < 0 || waitpid(pid, &st, 0) != pid || !WIFEXITED(st) || WEXITSTATUS(st) != 0) {
		fprintf(stderr, "records: the vfork child failed\n");
		return 1;
	}
	fd = open(name, O_WRONLY | O_CREAT | O_CLOEXEC, 0600);
	printf("create=%s\n", res(fd));
	return 0;
}

static int reopened(const char *rw, const char *ro, const char *name)
{
	FILE *fp = fopen(rw, "r");
	int fd = fp ? fileno(fp) : -1, c;

	if (fd < 0 || (c = openat(fd, name, O_WRONLY | O_CREAT | O_CLOEXEC, 0600)) < 0) {
		perror("records: the twin (create in the writable tree) failed");
		return 1;
	}
	close(c);
	if (!freopen(ro, "r", fp) || fileno(fp) != fd) {
		perror("records: freopen did not keep the number");
		return 1;
	}
	c = openat(fd, name, O_WRONLY | O_CREAT | O_CLOEXEC, 0600);
	printf("create=%s\n", res(c));
	return 0;
}

static int lowest_free;

static int on_entry(const char *path, const struct stat *sb, int type, struct FTW *ftw)
{
	struct stat st;

	(void)path, (void)sb, (void)type, (void)ftw;
	(void)fstatat(lowest_free, "a.txt", &st, AT_SYMLINK_NOFOLLOW);
	return 0;
}

static int ftwcb(const char *dir, const char *name, int outfd)
{
	lowest_free = fcntl(outfd, F_DUPFD_CLOEXEC, 0);	/* a number, freed */
	if (lowest_free < 0)
		return 1;
	close(lowest_free);
	if (nftw(dir, on_entry, 8, FTW_CHDIR) != 0 || fcntl(outfd, F_DUPFD, lowest_free) != lowest_free)
		return 1;
	ask(lowest_free, name);
	return 0;
}

static int reuse(const char *dir, const char *name, int outfd)
{
	pid_t owner = getpid(), c = -1;
	int st = 0;
	long i;

	if (fork() != 0)
		return 0;	/* the owner exits: its pid is free */
	usleep(100000);
	for (i = 0; i < 70000; i++) {
		c = vfork();
		if (c == 0) {
			struct stat s;
			int n;

			if (getpid() != owner)
				_exit(0);
			n = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
			close(outfd);
			if (n < 0 || fcntl(n, F_DUPFD, outfd) != outfd)
				_exit(8);
			(void)fstatat(outfd, name, &s, AT_SYMLINK_NOFOLLOW);
			raise(SIGKILL);
		}
		if (c < 0 || waitpid(c, &st, 0) != c)
			return 1;
		if (c == owner)
			break;
	}
	if (c != owner) {
		puts("pid not reused");
		return 0;
	}
	printf("pid reused, child %s: ", WIFSIGNALED(st) ? "killed" : "exited");
	ask(outfd, name);
	return 0;
}

static int clone_fd = -1;
static const char *clone_dir;

static int clone_child(void *arg)
{
	int n;

	if (arg)	/* the cwd */
		return chdir(clone_dir) == 0 ? 0 : 3;
	n = open(clone_dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	return n >= 0 && dup2(n, clone_fd) == clone_fd ? 0 : 3;
}

static int cloned(const char *how, const char *rw, const char *ro, const char *name)
{
	static char stack[64 * 1024] __attribute__((aligned(16)));
	int fs = !strcmp(how, "clonefs"), st, c;
	struct stat s;
	pid_t pid;

	clone_dir = ro;
	if (fs) {
		if (chdir(rw) != 0 || stat(".", &s) != 0)
			return 1;
	} else {
		clone_fd = open(rw, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
		if (clone_fd < 0 || fstatat(clone_fd, ".", &s, 0) != 0 ||
		    fstatat(clone_fd, "a.txt", &s, AT_SYMLINK_NOFOLLOW) != 0)
			return 1;
	}
	pid = clone(clone_child, stack + sizeof(stack), (fs ? CLONE_FS : CLONE_FILES) | SIGCHLD,
		    fs ? (void *)1 : NULL);
	if (pid < 0 || waitpid(pid, &st, 0) != pid || !WIFEXITED(st) || WEXITSTATUS(st) != 0) {
		fprintf(stderr, "records: the clone child failed\n");
		return 1;
	}
	c = fs ? open(name, O_WRONLY | O_CREAT | O_CLOEXEC, 0600)
	       : openat(clone_fd, name, O_WRONLY | O_CREAT | O_CLOEXEC, 0600);
	printf("create=%s\n", res(c));
	return 0;
}

static int in_ns(const char *dir, const char *name)
{
	struct stat s;
	int ns = open("/proc/self/ns/mnt", O_RDONLY | O_CLOEXEC), r, fd;

	if (ns < 0 || chdir(dir) != 0 || stat(".", &s) != 0)
		return 1;
	r = setns(ns, CLONE_NEWNS);
	printf("setns=%s ", res(r));
	fd = open(name, O_RDONLY | O_CLOEXEC);
	printf("open=%s\n", res(fd));
	return 0;
}

static volatile int race_stop;
static int race_a, race_b;

static void *flipper(void *arg)
{
	(void)arg;
	while (!race_stop) {
		dup2(race_b, 20);
		dup2(race_a, 20);
	}
	return NULL;
}

static void *statter(void *arg)
{
	struct stat st;

	(void)arg;
	while (!race_stop)
		fstatat(20, "x", &st, 0);
	return NULL;
}

static pthread_t race_threads[3];

/* Number 20 on a; one thread flipping it between a and b, two fstatat'ing
 * through it, until race_end. 0, or -1 when it could not start. */
static int race_begin(const char *a, const char *b)
{
	race_a = open(a, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	race_b = open(b, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (race_a < 0 || race_b < 0 || dup2(race_a, 20) != 20)
		return -1;
	race_stop = 0;
	if (pthread_create(&race_threads[0], NULL, flipper, NULL) ||
	    pthread_create(&race_threads[1], NULL, statter, NULL) ||
	    pthread_create(&race_threads[2], NULL, statter, NULL))
		return -1;
	return 0;
}

static void race_end(void)
{
	int i;

	race_stop = 1;
	for (i = 0; i < 3; i++)
		pthread_join(race_threads[i], NULL);
}

static int identrace_rounds(const char *rw, const char *ro)
{
	const char *verdict = "Permission denied";
	char a[4096], b[4096];
	int round, fd, c;

	for (round = 0; round < 20; round++) {
		struct timespec ts = { 0, 50 * 1000 * 1000 };

		snprintf(a, sizeof(a), "%s/d%d", rw, round);
		snprintf(b, sizeof(b), "%s/d%d", ro, round);
		if (race_begin(a, b) < 0)
			return 1;
		nanosleep(&ts, NULL);
		race_end();
		fd = open(b, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
		c = openat(fd, "probe", O_WRONLY | O_CREAT | O_CLOEXEC, 0600);
		if ((c >= 0 || errno != EACCES) && !strcmp(verdict, "Permission denied"))
			verdict = res(c);
		if (c >= 0)
			close(c);
		close(fd);
		close(race_a);
		close(race_b);
	}
	printf("create=%s ", verdict);
	fd = open(rw, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	c = openat(fd, "twin-probe", O_WRONLY | O_CREAT | O_CLOEXEC, 0600);
	printf("twin=%s\n", res(c));
	return 0;
}

static int identrace(const char *rw, const char *ro, const char *where)
{
	pid_t pid;
	int st;

	if (strcmp(where, "fork") != 0)
		return identrace_rounds(rw, ro);
	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		int r = identrace_rounds(rw, ro);

		fflush(stdout);
		_exit(r);
	}
	return pid > 0 && waitpid(pid, &st, 0) == pid && WIFEXITED(st) ? WEXITSTATUS(st) : 1;
}

static int forkrace(const char *rw, const char *ro, int n)
{
	int i, bad = 0, twins = 0;

	if (race_begin(rw, ro) < 0)
		return 1;
	for (i = 0; i < n; i++) {
		pid_t pid = fork();
		int st;

		if (pid == 0) {
			struct stat now, rodir;
			char name[32];

			/* the child's number 20 is whatever it was at the fork */
			int in_ro = fstat(20, &now) == 0 && fstat(race_b, &rodir) == 0 &&
				    now.st_ino == rodir.st_ino && now.st_dev == rodir.st_dev;

			snprintf(name, sizeof(name), "probe-%d", i);
			if (openat(20, name, O_WRONLY | O_CREAT | O_CLOEXEC, 0600) < 0)
				_exit(0);
			_exit(in_ro ? 3 : 4);
		}
		if (pid < 0 || waitpid(pid, &st, 0) != pid)
			return 1;
		if (WIFEXITED(st) && WEXITSTATUS(st) == 3)
			bad++;
		if (WIFEXITED(st) && WEXITSTATUS(st) == 4)
			twins++;
	}
	race_end();
	printf("forks=%d stale-creates=%d twins=%s\n", n, bad, twins ? "ok" : "none");
	return 0;
}

int main(int argc, char **argv)
{
	if (argc == 5 && !strcmp(argv[1], "count")) {
		int fd = open(argv[2], O_RDONLY | O_DIRECTORY | O_CLOEXEC);
		long n = atol(argv[4]);
		struct stat st;

		if (fd < 0)
			return 1;
		for (long i = 0; i < n; i++)
			if (fstatat(fd, argv[3], &st, AT_SYMLINK_NOFOLLOW) != 0)
				return 1;
		puts("ok");
		return 0;
	}
	if (argc == 6 && !strcmp(argv[1], "swap"))
		return swap(argv[2], argv[3], argv[4], atoi(argv[5]));
	if (argc == 6 && !strcmp(argv[1], "vfork"))
		return vforked(argv[2], argv[3], argv[4], atoi(argv[5]));
	if (argc == 5 && (!strcmp(argv[1], "clonefiles") || !strcmp(argv[1], "clonefs")))
		return cloned(argv[1], argv[2], argv[3], argv[4]);
	if (argc == 5 && !strcmp(argv[1], "ftwcb"))
		return ftwcb(argv[2], argv[3], atoi(argv[4]));
	if (argc == 5 && !strcmp(argv[1], "reuse"))
		return reuse(argv[2], argv[3], atoi(argv[4]));
	if (argc == 5 && !strcmp(argv[1], "freopen"))
		return reopened(argv[2], argv[3], argv[4]);
	if (argc == 5 && !strcmp(argv[1], "forkrace"))
		return forkrace(argv[2], argv[3], atoi(argv[4]));
	if (argc == 5 && !strcmp(argv[1], "identrace"))
		return identrace(argv[2], argv[3], argv[4]);
	if (argc == 4 && !strcmp(argv[1], "setns"))
		return in_ns(argv[2], argv[3]);
	if (argc == 6 && !strcmp(argv[1], "vforkcwd"))
		return vforkcwd(argv[2], argv[3], argv[4], argv[5]);
	fprintf(stderr, "usage: records count|swap|vfork|vforkcwd ...\n");
	return 2;
}
