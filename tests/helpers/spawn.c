/*
 * spawn: start PROGRAM with a scrubbed environment in one of several ways and
 * let it print its environment. usage: spawn MODE PROGRAM [ARGS]
 * MODE: execle (own envp), execve-null (NULL envp), spawn-empty (posix_spawn,
 * empty envp), unsetenv (unsetenv LD_PRELOAD + CONTAIN_ROOT, then execv),
 * system (unsetenv, then system()), popen (unsetenv, then popen()).
 */
#define _GNU_SOURCE
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	char *empty[] = { NULL };
	char *own[] = { "FOO=bar", "LD_PRELOAD=", "CONTAIN_ROOT=/", "CONTAIN_OPTOUT=1", NULL };

	if (argc < 3) {
		fprintf(stderr, "usage: spawn MODE PROGRAM [ARGS]\n");
		return 2;
	}
	if (!strcmp(argv[1], "execle")) {
		execle(argv[2], argv[2], (char *)NULL, own);
	} else if (!strcmp(argv[1], "execve-null")) {
		execve(argv[2], argv + 2, NULL);
	} else if (!strcmp(argv[1], "spawn-empty")) {
		pid_t pid;
		int s, r = posix_spawn(&pid, argv[2], NULL, NULL, argv + 2, empty);

		if (r) {
			fprintf(stderr, "posix_spawn: %s\n", strerror(r));
			return 1;
		}
		waitpid(pid, &s, 0);
		return WIFEXITED(s) ? WEXITSTATUS(s) : 1;
	} else if (!strcmp(argv[1], "unsetenv")) {
		unsetenv("LD_PRELOAD");
		unsetenv("CONTAIN_ROOT");
		setenv("CONTAIN_OPTOUT", "1", 1);
		execv(argv[2], argv + 2);
	} else if (!strcmp(argv[1], "system")) {
		unsetenv("LD_PRELOAD");
		unsetenv("CONTAIN_ROOT");
		return WEXITSTATUS(system(argv[2]));
	} else if (!strcmp(argv[1], "popen")) {
		char line[4096];
		FILE *f;

		unsetenv("LD_PRELOAD");
		unsetenv("CONTAIN_ROOT");
		f = popen(argv[2], "r");
		if (!f)
			return 1;
		while (fgets(line, sizeof(line), f))
			fputs(line, stdout);
		return WEXITSTATUS(pclose(f));
	} else {
		fprintf(stderr, "spawn: unknown mode %s\n", argv[1]);
		return 2;
	}
	perror(argv[2]);
	return 1;
}
