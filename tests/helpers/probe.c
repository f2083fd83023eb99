/*
 * probe: perform one path call and print its outcome, for the integration
 * tests. usage: probe OP PATH [ARG]
 * Prints "ok" (plus data for reads) or the errno name, exits 0 when the
 * call itself ran (the outcome is in the output), 2 on usage errors.
 * probe dlopen LIB / probe dlopen-threaded LIB: load LIB at run time (the
 * second with another thread running), print "loaded".
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <dlfcn.h>
#include <ftw.h>
#include <glob.h>
#include <pthread.h>
#include <fcntl.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

static const char *ename(int e)
{
	switch (e) {
	case EACCES: return "EACCES";
	case ENOENT: return "ENOENT";
	case ENOTDIR: return "ENOTDIR";
	case EEXIST: return "EEXIST";
	case ELOOP: return "ELOOP";
	case EISDIR: return "EISDIR";
	case EPERM: return "EPERM";
	case EINVAL: return "EINVAL";
	case ENOEXEC: return "ENOEXEC";
	case EXDEV: return "EXDEV";
	case ENAMETOOLONG: return "ENAMETOOLONG";
	default: return strerror(e);
	}
}

static int report(int r)
{
	if (r < 0)
		printf("%s\n", ename(errno));
	else
		printf("ok\n");
	return 0;
}

static int read_fd(int fd)
{
	char buf[256];
	ssize_t n;

	if (fd < 0)
		return report(-1);
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n < 0)
		return report(-1);
	buf[n] = 0;
	buf[strcspn(buf, "\n")] = 0;
	printf("ok %s\n", buf);
	return 0;
}

static int print_entry(const char *p, const struct stat *st, int type, struct FTW *f)
{
	(void)st;
	(void)f;
	printf("%s %s\n", type == FTW_D ? "d" : type == FTW_F ? "f" : type == FTW_SL ? "l" :
			  type == FTW_SLN ? "n" : type == FTW_NS ? "?" : type == FTW_DNR ? "r" : "x", p);
	return 0;
}

/* The outcome of posix_spawn (r) and of the child it started. */
static int spawned(int r, pid_t pid)
{
	int s;

	if (r) {
		errno = r;
		return report(-1);
	}
	waitpid(pid, &s, 0);
	printf("ok status %d\n", WIFEXITED(s) ? WEXITSTATUS(s) : 128 + WTERMSIG(s));
	return 0;
}

static void *sleeper(void *arg)
{
	sleep(10);
	return arg;
}

int main(int argc, char **argv)
{
	const char *op, *path;
	struct stat st;

	if (argc < 3) {
		fprintf(stderr, "usage: probe OP PATH [ARG]\n");
		return 2;
	}
	op = argv[1];
	path = argv[2];
	if (!strcmp(op, "dlopen") || !strcmp(op, "dlopen-threaded")) {
		pthread_t t;
		void *h;

		if (op[6] && pthread_create(&t, NULL, sleeper, NULL) != 0) {
			printf("pthread_create failed\n");
			return 1;
		}
		h = dlopen(path, RTLD_NOW);
		printf("%s\n", h ? "loaded" : dlerror());
		fflush(stdout);
		_exit(0);
	}
	setvbuf(stdout, NULL, _IONBF, 0);
	if (!strcmp(op, "read"))
		return read_fd(open(path, O_RDONLY));
	if (!strcmp(op, "read-nofollow"))
		return read_fd(open(path, O_RDONLY | O_NOFOLLOW));
	if (!strcmp(op, "openat")) {	/* probe openat DIR NAME */
		int d = open(path, O_RDONLY | O_DIRECTORY);

		if (d < 0)
			return report(-1);
		return read_fd(openat(d, argc > 3 ? argv[3] : ".", O_RDONLY));
	}
	if (!strcmp(op, "write")) {
		int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);

		if (fd >= 0 && write(fd, "written\n", 8) != 8)
			return report(-1);
		if (fd >= 0)
			close(fd);
		return report(fd);
	}
	if (!strcmp(op, "creat-excl")) {
		int fd = open(path, O_WRONLY | O_CREAT | O_EXCL, 0644);

		if (fd >= 0)
			close(fd);
		return report(fd);
	}
	if (!strcmp(op, "opath")) {
		int fd = open(path, O_PATH);

		if (fd >= 0)
			close(fd);
		return report(fd);
	}
	if (!strcmp(op, "tmpfile")) {
		int fd = open(path, O_TMPFILE | O_RDWR, 0600);

		if (fd >= 0)
			close(fd);
		return report(fd);
	}
	if (!strcmp(op, "opendir")) {
		int fd = open(path, O_RDONLY | O_DIRECTORY);

		if (fd >= 0)
			close(fd);
		return report(fd);
	}
	if (!strcmp(op, "fopen")) {
		FILE *f = fopen(path, argc > 3 ? argv[3] : "r");
		char buf[256] = "";

		if (!f)
			return report(-1);
		if (fgets(buf, sizeof(buf), f))
			buf[strcspn(buf, "\n")] = 0;
		fclose(f);
		printf("ok %s\n", buf);
		return 0;
	}
	if (!strcmp(op, "freopen")) {
		FILE *f = freopen(path, "r", stdin);
		char buf[256] = "";

		if (!f)
			return report(-1);
		if (fgets(buf, sizeof(buf), f))
			buf[strcspn(buf, "\n")] = 0;
		printf("ok %s\n", buf);
		return 0;
	}
	if (!strcmp(op, "freopen-null-w")) {	/* reopen a read stream for writing */
		FILE *f = fopen(path, "r");

		if (!f)
			return report(-1);
		f = freopen(NULL, "w", f);
		if (!f)
			return report(-1);
		fputs("rewritten\n", f);
		fclose(f);
		return report(0);
	}
	if (!strcmp(op, "dupenv-system")) {	/* system() with a second, empty LD_PRELOAD */
		static char *env[4];
		int i, k = 0, s;

		for (i = 0; environ[i] && k < 1; i++)
			if (!strncmp(environ[i], "LD_PRELOAD=", 11))
				env[k++] = environ[i];
		env[k++] = "LD_PRELOAD=";
		env[k++] = "PATH=/usr/bin:/bin";
		env[k] = NULL;
		environ = env;
		s = system(path);
		printf("ok status %d\n", WIFEXITED(s) ? WEXITSTATUS(s) : -1);
		return 0;
	}
	if (!strcmp(op, "glob")) {	/* probe glob PATTERN: the matches, one a line */
		glob_t g;
		size_t i;
		int r = glob(path, 0, NULL, &g);

		if (r == GLOB_NOMATCH) {
			printf("nomatch\n");
			return 0;
		}
		if (r != 0) {
			printf("error %d\n", r);
			return 0;
		}
		for (i = 0; i < g.gl_pathc; i++)
			printf("%s\n", g.gl_pathv[i]);
		globfree(&g);
		return 0;
	}
	if (!strcmp(op, "nftw") || !strcmp(op, "nftw-phys")) {	/* the paths, one a line */
		int r = nftw(path, print_entry, 8, !strcmp(op, "nftw-phys") ? FTW_PHYS : 0);

		if (r < 0)
			return report(-1);
		return 0;
	}
	if (!strcmp(op, "scandir")) {	/* probe scandir DIR: the names, sorted */
		struct dirent **list;
		int n = scandir(path, &list, NULL, alphasort), i;

		if (n < 0)
			return report(-1);
		for (i = 0; i < n; i++) {
			if (list[i]->d_name[0] != '.')
				printf("%s\n", list[i]->d_name);
			free(list[i]);
		}
		free(list);
		return 0;
	}
	if (!strcmp(op, "stat"))
		return report(stat(path, &st));
	if (!strcmp(op, "lstat"))
		return report(lstat(path, &st));
	if (!strcmp(op, "fstatat-nofollow"))
		return report(fstatat(AT_FDCWD, path, &st, AT_SYMLINK_NOFOLLOW));
	if (!strcmp(op, "statx")) {
		struct statx sx;

		return report(statx(AT_FDCWD, path, 0, STATX_BASIC_STATS, &sx));
	}
	if (!strcmp(op, "access"))
		return report(access(path, R_OK));
	if (!strcmp(op, "access-w"))
		return report(access(path, W_OK));
	if (!strcmp(op, "exec")) {
		execv(path, argv + 2);
		return report(-1);
	}
	if (!strcmp(op, "fexecve-fd")) {	/* probe fexecve-fd N ARGV0...: an inherited fd */
		fexecve(atoi(path), argv + 3, environ);
		return report(-1);
	}
	if (!strcmp(op, "execveat")) {	/* probe execveat DIR NAME */
		int d = open(path, O_PATH | O_DIRECTORY);

		if (d < 0)
			return report(-1);
		execveat(d, argv[3], argv + 3, environ, 0);
		return report(-1);
	}
	if (!strcmp(op, "execvp")) {
		execvp(path, argv + 2);
		return report(-1);
	}
	if (!strcmp(op, "spawn")) {
		pid_t pid;
		int r = posix_spawn(&pid, path, NULL, NULL, argv + 2, environ);

		return spawned(r, pid);
	}
	if (!strcmp(op, "spawn-open") || !strcmp(op, "spawn-open-w") || !strcmp(op, "spawn-chdir")) {
		/* probe spawn-open FILE PROG...: PROG with FILE as stdin (a file
		 * action); spawn-open-w: FILE as stdout, created; spawn-chdir DIR
		 * PROG...: PROG (relative) run after a chdir action to DIR */
		posix_spawn_file_actions_t fa;
		pid_t pid;
		int r;

		posix_spawn_file_actions_init(&fa);
		if (!strcmp(op, "spawn-open"))
			posix_spawn_file_actions_addopen(&fa, 0, path, O_RDONLY, 0);
		else if (!strcmp(op, "spawn-open-w"))
			posix_spawn_file_actions_addopen(&fa, 1, path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
		else
			posix_spawn_file_actions_addchdir_np(&fa, path);
		r = posix_spawn(&pid, argv[3], &fa, NULL, argv + 3, environ);
		posix_spawn_file_actions_destroy(&fa);
		return spawned(r, pid);
	}
	if (!strcmp(op, "system")) {
		int s = system(path);

		printf("ok status %d\n", WIFEXITED(s) ? WEXITSTATUS(s) : -1);
		return 0;
	}
	fprintf(stderr, "probe: unknown op %s\n", op);
	return 2;
}
