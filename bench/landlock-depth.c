/*
 * landlock-depth: what Landlock adds to one open(2)+close(2), against how
 * deep the file lies below the directory its rule names and how many rules
 * the ruleset holds. Landlock checks an open by walking from the file up to
 * a directory whose rule grants the access, looking each one up among the
 * rules; libcontain's ruleset holds ~170 rules (a rule per entry of /etc, the
 * default secrets carved out) and grants the root by one rule.
 *
 *   cc -O2 -o landlock-depth bench/landlock-depth.c && ./landlock-depth [DIR]
 *
 * DIR (default: a new directory in /tmp, removed after) gets a chain of 12
 * directories with a file at depths 1, 4, 8 and 12, and 999 sibling
 * directories for the extra rules. Each configuration runs in its own fork
 * child (a ruleset cannot be taken off), 40,000 opens per depth, 9 rounds
 * alternating the configurations; the medians are printed (ns per
 * open+close). Needs Landlock (Linux 5.13+).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <linux/landlock.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define ROUNDS 9
#define OPENS 40000
#define NDEPTH 4
#define NCONF 4

static const int depths[NDEPTH] = { 1, 4, 8, 12 };
static const int nrules[NCONF] = { -1, 1, 150, 1000 };	/* -1: no Landlock */
static char base[256], chain[512], files[NDEPTH][600];

static double now(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec * 1e9 + t.tv_nsec;
}

static __attribute__((noreturn)) void die(const char *what)
{
	perror(what);
	exit(1);
}

static void rule(int rs, const char *path, unsigned long long acc)
{
	struct landlock_path_beneath_attr pb = { .allowed_access = acc };

	pb.parent_fd = open(path, O_PATH | O_CLOEXEC);
	if (pb.parent_fd < 0 || syscall(SYS_landlock_add_rule, rs, LANDLOCK_RULE_PATH_BENEATH, &pb, 0))
		die(path);
	close(pb.parent_fd);
}

static void measure(int nr, double *out)
{
	if (nr >= 0) {
		/* the rights of Landlock ABI 1 (every kernel that has it) */
		unsigned long long all = (1ULL << 13) - 1;
		struct landlock_ruleset_attr a = { .handled_access_fs = all };
		int rs = (int)syscall(SYS_landlock_create_ruleset, &a, sizeof(a), 0);
		char p[600];

		if (rs < 0)
			die("landlock_create_ruleset");
		snprintf(p, sizeof(p), "%s/c", base);
		rule(rs, p, all);
		for (int i = 1; i < nr; i++) {
			snprintf(p, sizeof(p), "%s/x/e%d", base, i);
			rule(rs, p, all);
		}
		if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) || syscall(SYS_landlock_restrict_self, rs, 0))
			die("landlock_restrict_self");
	}
	for (int d = 0; d < NDEPTH; d++) {
		double t0 = now();

		for (int i = 0; i < OPENS; i++) {
			int fd = open(files[d], O_RDONLY);

			if (fd < 0)
				die(files[d]);
			close(fd);
		}
		out[d] = (now() - t0) / OPENS;
	}
}

static double median(double *v, int n)
{
	for (int i = 0; i < n; i++)
		for (int j = i + 1; j < n; j++)
			if (v[j] < v[i]) {
				double t = v[i];

				v[i] = v[j];
				v[j] = t;
			}
	return v[n / 2];
}

static void mkdir_ok(const char *path)
{
	if (mkdir(path, 0755) != 0 && errno != EEXIST)
		die(path);
}

int main(int argc, char **argv)
{
	static double res[NCONF][NDEPTH][ROUNDS];
	char p[600];
	int k = 0;

	if (argc > 1)
		snprintf(base, sizeof(base), "%s", argv[1]);
	else if (!mkdtemp(strcpy(base, "/tmp/landlock-depth.XXXXXX")))
		die("mkdtemp");
	if (syscall(SYS_landlock_create_ruleset, NULL, 0, LANDLOCK_CREATE_RULESET_VERSION) < 1) {
		fprintf(stderr, "landlock-depth: this kernel has no Landlock\n");
		return 77;
	}
	mkdir_ok(base);
	snprintf(p, sizeof(p), "%s/x", base);
	mkdir_ok(p);
	for (int i = 1; i < 1000; i++) {
		snprintf(p, sizeof(p), "%s/x/e%d", base, i);
		mkdir_ok(p);
	}
	snprintf(chain, sizeof(chain), "%s/c", base);
	mkdir_ok(chain);
	for (int d = 1; d <= 12; d++) {
		strcat(chain, "/d");
		mkdir_ok(chain);
		if (k < NDEPTH && d == depths[k]) {
			int fd;

			snprintf(files[k], sizeof(files[k]), "%s/f", chain);
			if ((fd = open(files[k], O_CREAT | O_WRONLY | O_CLOEXEC, 0644)) < 0)
				die(files[k]);
			close(fd);
			k++;
		}
	}
	for (int r = 0; r < ROUNDS; r++)
		for (int c = 0; c < NCONF; c++) {
			double o[NDEPTH];
			int pfd[2], st;
			pid_t pid;

			if (pipe(pfd) != 0 || (pid = fork()) < 0)
				die("fork");
			if (pid == 0) {
				measure(nrules[c], o);
				_exit(write(pfd[1], o, sizeof(o)) == (ssize_t)sizeof(o) ? 0 : 1);
			}
			close(pfd[1]);
			if (read(pfd[0], o, sizeof(o)) != (ssize_t)sizeof(o) || waitpid(pid, &st, 0) != pid ||
			    !WIFEXITED(st) || WEXITSTATUS(st) != 0) {
				fprintf(stderr, "landlock-depth: a measuring child failed\n");
				return 1;
			}
			close(pfd[0]);
			for (int d = 0; d < NDEPTH; d++)
				res[c][d][r] = o[d];
		}
	printf("ns per open+close, median of %d rounds; depth below the directory the rule grants\n",
	       ROUNDS);
	printf("%-12s", "rules");
	for (int d = 0; d < NDEPTH; d++)
		printf("  depth %-3d", depths[d]);
	printf("\n");
	for (int c = 0; c < NCONF; c++) {
		if (nrules[c] < 0)
			printf("%-12s", "no Landlock");
		else
			printf("%-12d", nrules[c]);
		for (int d = 0; d < NDEPTH; d++)
			printf("  %9.0f", median(res[c][d], ROUNDS));
		printf("\n");
	}
	if (argc < 2) {
		char cmd[300];

		snprintf(cmd, sizeof(cmd), "rm -rf -- '%s'", base);
		if (system(cmd) != 0)
			fprintf(stderr, "landlock-depth: could not remove %s\n", base);
	}
	return 0;
}
