/*
 * floors: what the kernel itself charges for the ways libcontain contains a
 * program, measured with no libcontain loaded. Each row is a floor: the
 * library cannot cost less than its ratio while it uses that mechanism.
 *
 *   cc -O2 -o floors bench/floors.c
 *   cc -shared -o empty.so -x c /dev/null
 *   ./floors --tree /tmp/benchtree/t --empty-so ./empty.so
 *
 * --tree DIR is a tree of files (bench/mktree.sh makes the one the
 * benchmarks use); the per-call rows use its first regular file in sorted
 * order outside hidden directories (pkg00/mod000/f000.c in that tree, the
 * micro rows' target), by its absolute path bare and relative to DIR's
 * descriptor in the floor's form: the relative walk is shorter, so these
 * floors are a few percent lower than the same calls from one place.
 *
 *   stat, access   a bare fstatat/faccessat by absolute path, against the
 *                  race-free form: openat2(RESOLVE_BENEATH) of an O_PATH
 *                  descriptor from the tree's directory, then fstatat or
 *                  faccessat2 on it (AT_EMPTY_PATH), then close. No stat or
 *                  access call takes resolve flags, so containing one costs
 *                  these three calls.
 *   open           openat by absolute path, against openat2(RESOLVE_BENEATH)
 *                  from the tree's directory: the kernel contains an open
 *                  for free.
 *   Landlock walk  open, fstat, read and close of every file of the tree,
 *                  bare against inside a Landlock domain whose one rule
 *                  grants the tree (what a tar or rg does, and what the
 *                  kernel adds to each of its opens).
 *   preload        posix_spawn of /bin/true, bare against with an empty
 *                  LD_PRELOAD: the loader's cost of any preloaded library.
 *
 * Every row runs its two variants side by side for --rounds rounds (default
 * 9), bare first in even rounds and second in odd ones (on these machines
 * the run after another can be systematically faster or slower), the walk's
 * variants each in a fork child, since a domain cannot be left; it prints
 * the median of the per-round ratios and their range: on a noisy machine
 * the ratio of neighbours is the figure, the times are context.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <linux/landlock.h>
#include <linux/openat2.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#ifndef SYS_faccessat2
#define SYS_faccessat2 439
#endif

#define MAX_ROUNDS 99
#define CALLS 100000
#define SPAWNS 200

extern char **environ;

static char **files;		/* absolute paths of the tree's regular files, sorted */
static size_t nfiles, capfiles;
static const char *tree;
static size_t treelen;
static int treefd;

static double now_ns(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec * 1e9 + t.tv_nsec;
}

static __attribute__((noreturn)) void die(const char *what)
{
	fprintf(stderr, "floors: %s: %s\n", what, strerror(errno));
	exit(1);
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

static double median(const double *v, int n)
{
	double s[MAX_ROUNDS];

	memcpy(s, v, sizeof(double) * (size_t)n);
	qsort(s, (size_t)n, sizeof(double), cmp_double);
	return n % 2 ? s[n / 2] : (s[n / 2 - 1] + s[n / 2]) / 2;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static int add_file(const char *path, const struct stat *st, int type, struct FTW *f)
{
	(void)f;
	/* FTW_F is any non-directory: a FIFO would block the walk's open */
	if (type != FTW_F || !S_ISREG(st->st_mode))
		return 0;
	if (nfiles == capfiles) {
		capfiles = capfiles ? 2 * capfiles : 4096;
		files = realloc(files, capfiles * sizeof(*files));
		if (!files)
			die("out of memory");
	}
	if (!(files[nfiles++] = strdup(path)))
		die("out of memory");
	return 0;
}

static int beneath(const char *abs, int flags)
{
	struct open_how how = { .flags = (unsigned long long)flags | O_CLOEXEC,
				.resolve = RESOLVE_BENEATH | RESOLVE_NO_MAGICLINKS };
	/* abs is tree "/" rel; the tree "/" is its own separator */
	const char *rel = abs + treelen + (treelen > 1);

	return (int)syscall(SYS_openat2, treefd, rel, &how, sizeof(how));
}

/* one call of a per-call row; variant 0 bare, 1 the floor's form */
static void one_call(int row, int variant, const char *abs)
{
	struct stat st;
	int fd;

	switch (row * 2 + variant) {
	case 0:
		if (fstatat(AT_FDCWD, abs, &st, AT_SYMLINK_NOFOLLOW) != 0)
			die(abs);
		return;
	case 1:
		if ((fd = beneath(abs, O_PATH | O_NOFOLLOW)) < 0 || fstatat(fd, "", &st, AT_EMPTY_PATH) != 0)
			die(abs);
		close(fd);
		return;
	case 2:
		if (faccessat(AT_FDCWD, abs, R_OK, 0) != 0)
			die(abs);
		return;
	case 3:
		if ((fd = beneath(abs, O_PATH)) < 0 ||
		    syscall(SYS_faccessat2, fd, "", R_OK, AT_EMPTY_PATH) != 0)
			die(abs);
		close(fd);
		return;
	case 4:
		if ((fd = openat(AT_FDCWD, abs, O_RDONLY | O_CLOEXEC)) < 0)
			die(abs);
		close(fd);
		return;
	default:
		if ((fd = beneath(abs, O_RDONLY)) < 0)
			die(abs);
		close(fd);
	}
}

static double time_calls(int row, int variant, const char *abs)
{
	double t = now_ns();

	for (int i = 0; i < CALLS; i++)
		one_call(row, variant, abs);
	return (now_ns() - t) / CALLS;
}

static unsigned long long landlock_rights(void)
{
	long abi = syscall(SYS_landlock_create_ruleset, NULL, 0, LANDLOCK_CREATE_RULESET_VERSION);

	if (abi < 1)
		return 0;
	/* EXECUTE .. MAKE_SYM (v1), REFER (v2), TRUNCATE (v3), IOCTL_DEV (v5) */
	return ((1ULL << 13) - 1) | (abi >= 2 ? 1ULL << 13 : 0) | (abi >= 3 ? 1ULL << 14 : 0) |
	       (abi >= 5 ? 1ULL << 15 : 0);
}

static void enter_domain(unsigned long long rights)
{
	struct landlock_ruleset_attr ra = { .handled_access_fs = rights };
	struct landlock_path_beneath_attr pb = { .allowed_access = rights };
	int rs = (int)syscall(SYS_landlock_create_ruleset, &ra, sizeof(ra), 0);

	pb.parent_fd = treefd;
	if (rs < 0 || syscall(SYS_landlock_add_rule, rs, LANDLOCK_RULE_PATH_BENEATH, &pb, 0) != 0 ||
	    prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0 || syscall(SYS_landlock_restrict_self, rs, 0) != 0)
		die("Landlock");
	close(rs);
}

/* ns per file of the walk, in a fork child (inside a domain when rights) */
static double time_walk(unsigned long long rights)
{
	static char buf[65536];
	int p[2];
	double t = -1;
	pid_t pid;

	if (pipe(p) != 0)
		die("pipe");
	if ((pid = fork()) < 0)
		die("fork");
	if (pid == 0) {
		struct stat st;

		if (rights)
			enter_domain(rights);
		t = now_ns();
		for (size_t i = 0; i < nfiles; i++) {
			int fd = open(files[i], O_RDONLY | O_CLOEXEC);

			if (fd < 0 || fstat(fd, &st) != 0)
				die(files[i]);
			while (read(fd, buf, sizeof(buf)) > 0)
				;
			close(fd);
		}
		t = (now_ns() - t) / (double)nfiles;
		_exit(write(p[1], &t, sizeof(t)) == sizeof(t) ? 0 : 1);
	}
	close(p[1]);
	if (read(p[0], &t, sizeof(t)) != sizeof(t))
		t = -1;
	close(p[0]);
	waitpid(pid, NULL, 0);
	if (t < 0) {
		fprintf(stderr, "floors: the walk's child failed\n");
		exit(1);
	}
	return t;
}

static double time_spawns(char **env)
{
	char *argv[] = { "/bin/true", NULL };
	double t = now_ns();

	for (int i = 0; i < SPAWNS; i++) {
		pid_t pid;
		int st = 0, e = posix_spawn(&pid, argv[0], NULL, NULL, argv, env);

		if (e != 0) {
			errno = e;
			die("posix_spawn /bin/true");
		}
		if (waitpid(pid, &st, 0) != pid)
			die("waitpid");
		if (st != 0) {
			fprintf(stderr, "floors: /bin/true failed (wait status %d)\n", st);
			exit(1);
		}
	}
	return (now_ns() - t) / SPAWNS;
}

static void row(const char *name, const char *with, const char *unit, double scale, const double *a,
		const double *b, int rounds)
{
	double r[MAX_ROUNDS] = { 0 }, lo = b[0] / a[0], hi = lo;

	for (int i = 0; i < rounds; i++) {
		r[i] = b[i] / a[i];
		lo = r[i] < lo ? r[i] : lo;
		hi = r[i] > hi ? r[i] : hi;
	}
	printf("| %s | %s | %s | %.0f | %.0f | %.2f | %.2f-%.2f |\n", name, with, unit, median(a, rounds) / scale,
	       median(b, rounds) / scale, median(r, rounds), lo, hi);
}

/*
 * Fill a (bare, variant 0) and b (variant 1) for rounds rounds, the two side
 * by side, bare first in even rounds and second in odd ones.
 */
typedef double (*variant_fn)(int variant, const void *ctx);

static void alternate(variant_fn f, const void *ctx, double *a, double *b, int rounds)
{
	for (int i = 0; i < rounds; i++) {
		if (i % 2)
			b[i] = f(1, ctx);
		a[i] = f(0, ctx);
		if (!(i % 2))
			b[i] = f(1, ctx);
	}
}

struct calls_ctx {
	int row;
	const char *abs;
};

static double calls_variant(int variant, const void *ctx)
{
	const struct calls_ctx *c = ctx;

	return time_calls(c->row, variant, c->abs);
}

static double walk_variant(int variant, const void *ctx)
{
	return time_walk(variant ? *(const unsigned long long *)ctx : 0);
}

static double spawn_variant(int variant, const void *ctx)
{
	return time_spawns(((char **const *)ctx)[variant]);
}

static void usage(void)
{
	fprintf(stderr, "usage: floors --tree DIR [--empty-so PATH] [--rounds N]\n"
		"  the kernel's own cost of each containment mechanism, no libcontain loaded\n");
	exit(2);
}

int main(int argc, char **argv)
{
	static double a[MAX_ROUNDS], b[MAX_ROUNDS];
	static const char *const names[] = { "stat", "access", "open" };
	static const char *const withs[] = {
		"openat2(O_PATH, RESOLVE_BENEATH) + fstatat(AT_EMPTY_PATH) + close",
		"openat2(O_PATH, RESOLVE_BENEATH) + faccessat2(AT_EMPTY_PATH) + close",
		"openat2(RESOLVE_BENEATH) + close, against openat + close",
	};
	const char *empty_so = NULL;
	int rounds = 9;
	unsigned long long rights;
	char real[4096], so[4096];
	const char *target = NULL;

	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--tree") && i + 1 < argc)
			tree = argv[++i];
		else if (!strcmp(argv[i], "--empty-so") && i + 1 < argc)
			empty_so = argv[++i];
		else if (!strcmp(argv[i], "--rounds") && i + 1 < argc)
			rounds = atoi(argv[++i]);
		else
			usage();
	}
	if (!tree || rounds < 1 || rounds > MAX_ROUNDS)
		usage();
	/* the loader ignores a preload it cannot load (and says so in every
	 * process): make sure it loads, by its absolute path */
	if (empty_so && (!realpath(empty_so, so) || !dlopen(so, RTLD_NOW))) {
		const char *why = dlerror();

		fprintf(stderr, "floors: --empty-so %s does not load: %s\n", empty_so, why ? why : strerror(errno));
		return 1;
	}
	if (empty_so)
		empty_so = so;
	if (!realpath(tree, real))
		die(tree);
	tree = real;
	treelen = strlen(tree);
	if ((treefd = open(tree, O_PATH | O_DIRECTORY | O_CLOEXEC)) < 0)
		die(tree);
	if (nftw(tree, add_file, 64, FTW_PHYS) != 0)
		die(tree);
	if (nfiles == 0) {
		fprintf(stderr, "floors: no regular file under %s\n", tree);
		return 1;
	}
	qsort(files, nfiles, sizeof(*files), cmp_str);
	for (size_t i = 0; i < nfiles; i++)
		if (!strstr(files[i] + treelen, "/.")) {
			target = files[i];
			break;
		}
	if (!target)
		target = files[0];

	printf("per-call rows on %s; %d rounds\n\n", target, rounds);
	printf("| floor | with (against the bare call) | unit | bare | with | ratio | range |\n");
	printf("|---|---|---|--:|--:|--:|--:|\n");
	for (int r = 0; r < 3; r++) {
		struct calls_ctx c = { r, target };

		one_call(r, 0, target);	/* warm-up, and a check that both work */
		one_call(r, 1, target);
		alternate(calls_variant, &c, a, b, rounds);
		row(names[r], withs[r], "ns/call", 1, a, b, rounds);
		fflush(stdout);
	}

	if (!(rights = landlock_rights())) {
		printf("| Landlock walk | (no Landlock in this kernel) | | | | | |\n");
	} else {
		time_walk(0);
		time_walk(rights);
		alternate(walk_variant, &rights, a, b, rounds);
		char what[160];

		snprintf(what, sizeof(what), "a one-rule Landlock domain, open+fstat+read+close of %zu files",
			 nfiles);
		row("Landlock walk", what, "ns/file", 1, a, b, rounds);
	}
	fflush(stdout);

	if (empty_so) {
		size_t n = 0, k = 0;
		char **envs[2], pre[4200];

		while (environ[n])
			n++;
		/* the environment less any LD_PRELOAD, then the same plus ours */
		envs[0] = calloc(n + 1, sizeof(char *));
		envs[1] = calloc(n + 2, sizeof(char *));
		if (!envs[0] || !envs[1])
			die("out of memory");
		for (size_t i = 0; i < n; i++)
			if (strncmp(environ[i], "LD_PRELOAD=", 11) != 0)
				envs[0][k] = envs[1][k] = environ[i], k++;
		snprintf(pre, sizeof(pre), "LD_PRELOAD=%s", empty_so);
		envs[1][k] = pre;
		time_spawns(envs[0]);
		time_spawns(envs[1]);
		alternate(spawn_variant, envs, a, b, rounds);
		row("preload", "an empty LD_PRELOAD library, posix_spawn + wait of /bin/true", "us/spawn", 1000, a,
		    b, rounds);
		free(envs[1]);
		free(envs[0]);
	}
	return 0;
}
