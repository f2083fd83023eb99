/*
 * sigopen: a signal handler that calls open() while the interrupted code is
 * inside open(). usage: sigopen FILE LINK N
 * SIGALRM fires every 100us (setitimer); its handler opens FILE (fast path)
 * and LINK (a symlink: the walk) and closes them. The main loop opens both N
 * times. Exits 0 when all opens succeeded and the run ended (no deadlock);
 * prints the count of handler runs.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>
#include <unistd.h>

static const char *file, *lnk;
static volatile sig_atomic_t handled, failed;

static void on_alarm(int sig)
{
	int e = errno, fd;

	(void)sig;
	fd = open(file, O_RDONLY);
	if (fd < 0)
		failed = 1;
	else
		close(fd);
	fd = open(lnk, O_RDONLY);
	if (fd < 0)
		failed = 1;
	else
		close(fd);
	handled++;
	errno = e;
}

int main(int argc, char **argv)
{
	struct itimerval it = { { 0, 100 }, { 0, 100 } };
	struct sigaction sa;
	long n, i;

	if (argc < 4) {
		fprintf(stderr, "usage: sigopen FILE LINK N\n");
		return 2;
	}
	file = argv[1];
	lnk = argv[2];
	n = atol(argv[3]);
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_alarm;
	sa.sa_flags = SA_RESTART;
	sigaction(SIGALRM, &sa, NULL);
	setitimer(ITIMER_REAL, &it, NULL);
	for (i = 0; i < n; i++) {
		int fd = open((i & 1) ? lnk : file, O_RDONLY);

		if (fd < 0) {
			perror("open");
			return 1;
		}
		close(fd);
	}
	memset(&it, 0, sizeof(it));
	setitimer(ITIMER_REAL, &it, NULL);
	printf("opens=%ld handler_runs=%d failed=%d\n", n, (int)handled, (int)failed);
	return failed || handled == 0;
}
