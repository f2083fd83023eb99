/*
 * ftswalk MODE ROOT...: walk with glibc's fts and print one line per entry:
 * "INFO PATH" (INFO: D F SL SLNONE NS:errno DNR DC DP...), postorder omitted.
 * MODE: logical | physical | nochdir | follow (physical, fts_set(FTS_FOLLOW)
 * on every link) | children (logical, fts_children of each directory).
 * nostat (physical, FTS_NOSTAT);
 * swap NAME TARGET ROOT: physical, FTS_NOCHDIR; when directory NAME is
 * returned, replace it by a link to TARGET (the program's own swap) and go
 * on; swapnames NAME TARGET ROOT: the same in the default mode, then
 * fts_children(FTS_NAMEONLY) of it.
 * fts_open failing prints "open: errno name".
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fts.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char *info(const FTSENT *e)
{
	static char buf[32];

	switch (e->fts_info) {
	case FTS_D: return "D";
	case FTS_F: return "F";
	case FTS_SL: return "SL";
	case FTS_SLNONE: return "SLNONE";
	case FTS_DC: return "DC";
	case FTS_DNR: return "DNR";
	case FTS_NS:
		snprintf(buf, sizeof buf, "NS:%s", e->fts_errno == EACCES ? "EACCES" : strerror(e->fts_errno));
		return buf;
	case FTS_ERR: return "ERR";
	default:
		snprintf(buf, sizeof buf, "info%d", e->fts_info);
		return buf;
	}
}

int main(int argc, char **argv)
{
	int opts = FTS_LOGICAL, follow = 0, kids = 0, names = 0;
	const char *swap = NULL, *target = NULL;
	FTS *f;
	FTSENT *e;

	if (argc < 3) {
		fprintf(stderr, "usage: ftswalk logical|physical|nochdir|follow|children ROOT...\n");
		return 2;
	}
	if (!strcmp(argv[1], "physical"))
		opts = FTS_PHYSICAL;
	else if (!strcmp(argv[1], "nochdir"))
		opts = FTS_PHYSICAL | FTS_NOCHDIR;
	else if (!strcmp(argv[1], "follow"))
		opts = FTS_PHYSICAL | FTS_NOCHDIR, follow = 1;
	else if (!strcmp(argv[1], "children"))
		kids = 1;
	else if (!strcmp(argv[1], "nostat"))
		opts = FTS_PHYSICAL | FTS_NOSTAT;
	else if ((!strcmp(argv[1], "swap") || !strcmp(argv[1], "swapnames")) && argc >= 5) {
		names = !strcmp(argv[1], "swapnames");
		opts = names ? FTS_PHYSICAL : FTS_PHYSICAL | FTS_NOCHDIR;
		swap = argv[2];
		target = argv[3];
		argv += 2;
	}
	f = fts_open(argv + 2, opts, NULL);
	if (!f) {
		printf("open: %s\n", errno == EACCES ? "EACCES" : strerror(errno));
		return 0;
	}
	while ((e = fts_read(f))) {
		if (e->fts_info == FTS_DP)
			continue;
		printf("%s %s\n", info(e), e->fts_path);
		if (follow && e->fts_info == FTS_SL)	/* SLNONE again: a loop */
			fts_set(f, e, FTS_FOLLOW);
		if (swap && e->fts_info == FTS_D && !strcmp(e->fts_name, swap)) {
			char old[4200];

			snprintf(old, sizeof(old), "%s.old", e->fts_accpath);
			if (rename(e->fts_accpath, old) || symlink(target, e->fts_accpath))
				perror("swap");
			if (names)
				for (FTSENT *c = fts_children(f, FTS_NAMEONLY); c; c = c->fts_link)
					printf("  name %s\n", c->fts_name);
		}
		if (kids && e->fts_info == FTS_D)
			for (FTSENT *c = fts_children(f, 0); c; c = c->fts_link)
				printf("  child %s %s\n", info(c), c->fts_name);
	}
	fts_close(f);
	return 0;
}
