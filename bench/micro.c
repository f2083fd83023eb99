/*
 * micro.c: per-call cost of path-taking libc calls, for overhead ratios.
 *
 * usage: micro OP PATH N
 *
 *   open      open(PATH, O_RDONLY) + close
 *   openat    openat(dirfd, basename(PATH), O_RDONLY) + close, with dirfd
 *             the parent directory of PATH, opened once before timing
 *   stat      stat(PATH)
 *   lstat     lstat(PATH)
 *   access    access(PATH, R_OK)
 *   fopen     fopen(PATH, "r") + fclose
 *   readlink  readlink(PATH): PATH must be a symbolic link
 *   opendir   opendir(PATH) + readdir to the end + closedir: PATH must be
 *             a (small) directory
 *   exec      fork + execve(PATH, {PATH, NULL}, environ) + waitpid: PATH
 *             must be a program that exits 0, e.g. a copy of /bin/true
 *
 * Prints "OP NS ns/call" on stdout (NS the mean wall time of one call, from
 * CLOCK_MONOTONIC). Run it bare and under an interposer (LD_PRELOAD) and
 * compare the two numbers: the ratio is the interposer's per-call overhead.
 *
 * The operation is chosen once, before the timed loop, so the loop holds
 * nothing but the calls being measured. A short untimed warm-up (N/100 + 1
 * calls) first resolves the lazily bound symbols and fills the dentry cache.
 * Every call's result is checked: a call that fails (for example, denied by
 * the interposer) stops the run with exit status 1, so a denial can never
 * pass for a fast call.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

extern char **environ;

/* What every operation reads: set up once by main before timing. */
struct ctx {
	const char *path; /* PATH as given */
	const char *base; /* last component of PATH, for openat */
	int dirfd;        /* parent directory of PATH, for openat */
};

typedef int (*op_fn)(const struct ctx *c);

/* fail: report a failed call on stderr; the caller returns its -1. */
static int fail(const char *call, const char *path)
{
	fprintf(stderr, "micro: %s %s: %s\n", call, path, strerror(errno));
	return -1;
}

static int op_open(const struct ctx *c)
{
	int fd = open(c->path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return fail("open", c->path);
	close(fd);
	return 0;
}

static int op_openat(const struct ctx *c)
{
	int fd = openat(c->dirfd, c->base, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return fail("openat", c->path);
	close(fd);
	return 0;
}

static int op_stat(const struct ctx *c)
{
	struct stat st;
	return stat(c->path, &st) ? fail("stat", c->path) : 0;
}

static int op_lstat(const struct ctx *c)
{
	struct stat st;
	return lstat(c->path, &st) ? fail("lstat", c->path) : 0;
}

static int op_access(const struct ctx *c)
{
	return access(c->path, R_OK) ? fail("access", c->path) : 0;
}

static int op_fopen(const struct ctx *c)
{
	FILE *fp = fopen(c->path, "re");
	if (!fp)
		return fail("fopen", c->path);
	fclose(fp);
	return 0;
}

static int op_readlink(const struct ctx *c)
{
	char buf[PATH_MAX];
	return readlink(c->path, buf, sizeof buf) < 0 ? fail("readlink", c->path) : 0;
}

static int op_opendir(const struct ctx *c)
{
	DIR *d = opendir(c->path);
	if (!d)
		return fail("opendir", c->path);
	errno = 0;
	while (readdir(d))
		;
	int err = errno;
	closedir(d);
	if (err) {
		errno = err;
		return fail("readdir", c->path);
	}
	return 0;
}

static int op_exec(const struct ctx *c)
{
	char *argv[] = { (char *)c->path, NULL };
	pid_t pid = fork();
	if (pid < 0)
		return fail("fork", c->path);
	if (pid == 0) {
		execve(c->path, argv, environ);
		_exit(127);
	}
	int status;
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return fail("waitpid", c->path);
	if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
		fprintf(stderr, "micro: exec %s: child %s %d\n", c->path,
		        WIFEXITED(status) ? "exited with status" : "killed by signal",
		        WIFEXITED(status) ? WEXITSTATUS(status) : WTERMSIG(status));
		return -1;
	}
	return 0;
}

static const struct {
	const char *name;
	op_fn fn;
} ops[] = {
	{ "open", op_open },       { "openat", op_openat },   { "stat", op_stat },
	{ "lstat", op_lstat },     { "access", op_access },   { "fopen", op_fopen },
	{ "readlink", op_readlink }, { "opendir", op_opendir }, { "exec", op_exec },
};

static double now_ns(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec * 1e9 + (double)t.tv_nsec;
}

static int usage(void)
{
	fprintf(stderr, "usage: micro OP PATH N\nOP:");
	for (size_t i = 0; i < sizeof ops / sizeof ops[0]; i++)
		fprintf(stderr, " %s", ops[i].name);
	fputc('\n', stderr);
	return 2;
}

/* open_parent: a read-only descriptor of PATH's parent directory; sets *base. */
static int open_parent(const char *path, const char **base)
{
	const char *slash = strrchr(path, '/');
	if (!slash) {
		*base = path;
		return open(".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	}
	*base = slash + 1;
	if (slash == path)
		return open("/", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	char *dir = strndup(path, (size_t)(slash - path));
	if (!dir)
		return -1;
	int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	free(dir);
	return fd;
}

int main(int argc, char **argv)
{
	if (argc != 4)
		return usage();

	op_fn fn = NULL;
	for (size_t i = 0; i < sizeof ops / sizeof ops[0]; i++)
		if (!strcmp(argv[1], ops[i].name))
			fn = ops[i].fn;
	if (!fn) {
		fprintf(stderr, "micro: unknown OP '%s'\n", argv[1]);
		return usage();
	}

	char *end;
	errno = 0;
	long n = strtol(argv[3], &end, 10);
	if (errno || end == argv[3] || *end || n <= 0) {
		fprintf(stderr, "micro: N must be a positive integer, not '%s'\n", argv[3]);
		return 2;
	}

	struct ctx c = { .path = argv[2], .base = argv[2], .dirfd = AT_FDCWD };
	if (fn == op_openat) {
		c.dirfd = open_parent(c.path, &c.base);
		if (c.dirfd < 0) {
			fail("open parent of", c.path);
			return 1;
		}
		if (!*c.base) {
			fprintf(stderr, "micro: openat: PATH '%s' has no last component\n", c.path);
			return 2;
		}
	}

	for (long i = 0, w = n / 100 + 1; i < w; i++)
		if (fn(&c))
			return 1;

	double t0 = now_ns();
	for (long i = 0; i < n; i++)
		if (fn(&c))
			return 1;
	double dt = now_ns() - t0;

	printf("%s %.1f ns/call\n", argv[1], dt / (double)n);
	return 0;
}
