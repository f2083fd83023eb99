/*
 * compat: a program linked against the old (compat) versions of realpath,
 * glob, nftw and posix_spawn, as a binary built on an old glibc is, plus a
 * binding check for every name@version.
 *
 *   compat bind           read "name@version" lines, print each with the
 *                         object dlvsym finds it in (libcontain.so or libc)
 *   compat realpath PATH  realpath@GLIBC_2.2.5 (buffer), then with NULL
 *   compat glob PATTERN   glob@GLIBC_2.2.5: number of matches or NOMATCH
 *   compat nftw DIR FLAGS nftw@GLIBC_2.2.5 (and @@ for comparison)
 *   compat spawn PATH     posix_spawn@GLIBC_2.2.5, then the default version
 * Errors print as E<errno name>.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <ftw.h>
#include <glob.h>
#include <limits.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

#if defined(__x86_64__) && !defined(__ILP32__)
#define OLD "GLIBC_2.2.5"
char *old_realpath(const char *, char *);
int old_glob(const char *, int, int (*)(const char *, int), glob_t *);
int old_nftw(const char *, int (*)(const char *, const struct stat *, int, struct FTW *), int, int);
int old_posix_spawn(pid_t *, const char *, const posix_spawn_file_actions_t *,
		    const posix_spawnattr_t *, char *const[], char *const[]);
__asm__(".symver old_realpath,realpath@GLIBC_2.2.5");
__asm__(".symver old_glob,glob@GLIBC_2.2.5");
__asm__(".symver old_nftw,nftw@GLIBC_2.2.5");
__asm__(".symver old_posix_spawn,posix_spawn@GLIBC_2.2.5");
#define HAVE_OLD 1
#endif

static const char *ename(int e)
{
	switch (e) {
	case EACCES: return "EACCES";
	case ENOENT: return "ENOENT";
	case EINVAL: return "EINVAL";
	case ENOEXEC: return "ENOEXEC";
	case EPERM: return "EPERM";
	default: return strerror(e);
	}
}

static int count;
static int visit(const char *p, const struct stat *st, int type, struct FTW *f)
{
	(void)p; (void)st; (void)type; (void)f;
	count++;
	return 0;
}

static int bind_check(void)
{
	char line[256];

	while (fgets(line, sizeof line, stdin)) {
		char *at = strchr(line, '@');
		Dl_info info;
		void *s;

		line[strcspn(line, "\n")] = 0;
		if (!at)
			continue;
		*at = 0;
		s = dlvsym(RTLD_DEFAULT, line, at + 1);
		if (!s || !dladdr(s, &info) || !info.dli_fname)
			printf("%s@%s missing\n", line, at + 1);
		else
			printf("%s@%s %s\n", line, at + 1,
			       strstr(info.dli_fname, "libcontain") ? "libcontain" : info.dli_fname);
	}
	return 0;
}

int main(int argc, char **argv)
{
	if (argc >= 2 && !strcmp(argv[1], "bind"))
		return bind_check();
#ifdef HAVE_OLD
	if (argc == 3 && !strcmp(argv[1], "realpath")) {
		char buf[PATH_MAX], *r = old_realpath(argv[2], buf);

		printf("%s ", r ? r : ename(errno));
		r = old_realpath(argv[2], NULL);
		printf("%s\n", r ? r : ename(errno));
		return 0;
	}
	if (argc == 3 && !strcmp(argv[1], "glob")) {
		glob_t g;
		int r = old_glob(argv[2], 0, NULL, &g);

		if (r == GLOB_NOMATCH)
			printf("NOMATCH\n");
		else if (r)
			printf("error %d\n", r);
		else
			printf("%zu\n", g.gl_pathc);
		return 0;
	}
	if (argc == 4 && !strcmp(argv[1], "nftw")) {
		int flags = (int)strtol(argv[3], NULL, 0), r;

		count = 0;
		r = old_nftw(argv[2], visit, 8, flags);
		printf("old %s %d ", r ? ename(errno) : "ok", count);
		count = 0;
		r = nftw(argv[2], visit, 8, flags);
		printf("new %s %d\n", r ? ename(errno) : "ok", count);
		return 0;
	}
	if (argc == 3 && !strcmp(argv[1], "spawn")) {
		char *av[] = { argv[2], NULL };
		pid_t pid;
		int st, r;

		fflush(stdout);
		r = old_posix_spawn(&pid, argv[2], NULL, NULL, av, environ);
		if (r == 0 && waitpid(pid, &st, 0) == pid)
			printf("old exit %d ", WEXITSTATUS(st));
		else
			printf("old %s ", ename(r));
		fflush(stdout);
		r = posix_spawn(&pid, argv[2], NULL, NULL, av, environ);
		if (r == 0 && waitpid(pid, &st, 0) == pid)
			printf("new exit %d\n", WEXITSTATUS(st));
		else
			printf("new %s\n", ename(r));
		return 0;
	}
#endif
	fprintf(stderr, "usage: compat bind | realpath P | glob PAT | nftw DIR FLAGS | spawn P\n");
	return 2;
}
