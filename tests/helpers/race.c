/*
 * race: swap a symlink between an inside and an outside target in a tight
 * loop while opening it, and count escapes.
 * usage: race DIR OUTSIDE_FILE N
 * DIR/inside holds "inside"; OUTSIDE_FILE holds something else. A thread
 * renames prepared links over DIR/link (atomic) as fast as it can; the main
 * thread opens DIR/link N times (absolute path, then relative through a dir
 * link, alternating) and reads it. Any read that does not say "inside" is an
 * escape. Prints "opens=N inside=I denied=D other=O escapes=E"; exit 1 on an
 * escape or when no open saw the inside file (the race never ran).
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static char link_in[4096], link_out[4096], link_path[4096], dir_in[4096], dir_out[4096], dlink[4096];
static volatile int stop;

static const char *outside_target;

static void *swapper2(void *arg)
{
	(void)arg;
	while (!stop) {
		symlink("inside", link_in);
		rename(link_in, link_path);
		symlink(outside_target, link_out);
		rename(link_out, link_path);
		/* a directory link flipping between the dir and outside's dir */
		symlink(".", dir_in);
		rename(dir_in, dlink);
		symlink(dir_out, dir_out + 2048);
		rename(dir_out + 2048, dlink);
	}
	return NULL;
}

int main(int argc, char **argv)
{
	pthread_t th;
	long n, i, inside = 0, denied = 0, other = 0, escapes = 0;
	char rel[4096], *slash;

	if (argc < 4) {
		fprintf(stderr, "usage: race DIR OUTSIDE_FILE N\n");
		return 2;
	}
	outside_target = argv[2];
	n = atol(argv[3]);
	snprintf(link_in, sizeof(link_in), "%s/.l-in", argv[1]);
	snprintf(link_out, sizeof(link_out), "%s/.l-out", argv[1]);
	snprintf(link_path, sizeof(link_path), "%s/link", argv[1]);
	snprintf(dir_in, sizeof(dir_in), "%s/.d-in", argv[1]);
	snprintf(dlink, sizeof(dlink), "%s/dlink", argv[1]);
	/* dir_out: the outside file's directory; dir_out+2048: temp link name */
	snprintf(dir_out, 2048, "%s", argv[2]);
	slash = strrchr(dir_out, '/');
	if (slash)
		*slash = 0;
	snprintf(dir_out + 2048, 2048, "%s/.d-out", argv[1]);
	snprintf(rel, sizeof(rel), "%s/dlink/%s", argv[1], slash ? slash + 1 : argv[2]);
	pthread_create(&th, NULL, swapper2, NULL);
	for (i = 0; i < n; i++) {
		const char *target = (i & 1) ? rel : link_path;
		int fd = open(target, O_RDONLY);
		char buf[64];
		ssize_t k;

		if (fd < 0) {
			denied++;
			continue;
		}
		k = read(fd, buf, sizeof(buf) - 1);
		close(fd);
		buf[k > 0 ? k : 0] = 0;
		if (strncmp(buf, "inside", 6) == 0)
			inside++;
		else if (strncmp(buf, "OUTSIDE", 7) == 0)
			escapes++;
		else
			other++;
	}
	stop = 1;
	pthread_join(th, NULL);
	printf("opens=%ld inside=%ld denied=%ld other=%ld escapes=%ld\n", n, inside, denied, other, escapes);
	return escapes || inside == 0 ? 1 : 0;
}
