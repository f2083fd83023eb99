/*
 * policy.c: build the containment policy from the environment, once, at load.
 *
 * Every tree is opened (O_PATH) and resolved to its real path here; the
 * resolver later works only from these fds and strings. Symlinks met on the
 * way to a configured tree (merged-usr /lib -> usr/lib, /var/run -> /run) are
 * recorded as aliases so that the walk can follow them lexically without
 * touching anything outside the trees.
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/magic.h>
#include <sys/statfs.h>
#include <sys/syscall.h>
#include <sys/sysmacros.h>

#include "contain.h"
#include "sys.h"

struct builder {
	struct ct_policy *p;
	char *err;
	size_t errlen;
	int nuser;		/* trees from the user come first */
	/* lstat results of path prefixes during this load (/dev, /proc...) */
	int nseen;
	struct {
		char path[64];
		int kind;	/* 0 directory, 1 other non-link, 2 symlink, 3 missing */
	} seen[32];
};

/* The kind of one path (lstat, remembered for short paths). */
static int prefix_kind(struct builder *b, const char *path, struct stat *st, int cached)
{
	size_t n = strlen(path);
	int i, kind;

	for (i = 0; cached && i < b->nseen && n < sizeof(b->seen[0].path); i++)
		if (strcmp(b->seen[i].path, path) == 0 && b->seen[i].kind == 0)
			return 0;
	if (sys_fstatat(AT_FDCWD, path, st, AT_SYMLINK_NOFOLLOW) < 0)
		kind = 3;
	else
		kind = S_ISLNK(st->st_mode) ? 2 : S_ISDIR(st->st_mode) ? 0 : 1;
	if (kind == 0 && n < sizeof(b->seen[0].path) && b->nseen < 32) {
		memcpy(b->seen[b->nseen].path, path, n + 1);
		b->seen[b->nseen++].kind = kind;
	}
	return kind;
}

/*
 * v in decimal, or as 16 hex digits, at out (room for 20); its length.
 * Not snprintf: stdio's formatting code would be paged in at every first
 * start for the few numbers the policy writes (~5 page faults here).
 */
static size_t put_num(char *out, unsigned long long v, int hex16)
{
	char t[20];
	size_t n = 0, k;

	do {
		t[n++] = "0123456789abcdef"[hex16 ? v % 16 : v % 10];
		v = hex16 ? v / 16 : v / 10;
	} while (v || (hex16 && n < 16));
	for (k = 0; k < n; k++)
		out[k] = t[n - 1 - k];
	return n;
}

/* Absolute, no empty, "." or ".." component, no trailing slash. */
static int is_clean(const char *path, size_t n)
{
	if (path[0] != '/' || strstr(path, "//") || strstr(path, "/./") || strstr(path, "/../") ||
	    (n > 1 && path[n - 1] == '/'))
		return 0;
	return !((n >= 2 && strcmp(path + n - 2, "/.") == 0) || (n >= 3 && strcmp(path + n - 3, "/..") == 0));
}

static void note_alias(struct ct_policy *p, const char *from, size_t len, const char *to, size_t tolen);

/*
 * Is path (absolute, clean) its own real path? 1: every component exists
 * and none is a symlink (*st: the last one); 2: the same, but the last
 * component is missing; 0: a symlink on the way, or not clean (resolve it
 * the slow way); -1: a directory on the way is missing. lstat only: the
 * loader of every first process runs this for the default set.
 *
 * With real (cap bytes), a link on the way is followed instead, the last
 * component's too: its text (clean, no "." or ".." in it) replaces the
 * link and the walk starts again, so 1 leaves the real path in real. Each
 * link is noted as an alias (what add_aliases notes), when the walk
 * ends in 1. Links in /proc (magic, or moving with the process) and more
 * than 40 of them: 0.
 */
static int lexically_real(struct builder *b, const char *path, struct stat *st, char *real, size_t cap)
{
	char cur[4096], text[4096];
	size_t n = strlen(path), i;
	int links = 0, nalias = b->p->nalias, r;

	if (n >= sizeof(cur) || !is_clean(path, n))
		return 0;
	memcpy(cur, path, n + 1);
again:
	for (i = 1; i <= n; i++) {
		int kind;
		long t;
		size_t d;
		char c;

		if (i < n && cur[i] != '/')
			continue;
		c = cur[i];
		cur[i] = 0;	/* the prefix, in place (no third page of stack) */
		/* the last component always for real: the caller uses *st */
		kind = prefix_kind(b, cur, st, i < n);
		r = kind == 3 ? (i == n ? 2 : -1) : kind == 1 && i < n ? -1 : 1;
		if (r != 1)
			goto out;	/* missing; a file on the way is ENOTDIR, as missing */
		if (kind != 2) {
			cur[i] = c;
			continue;
		}
		r = 0;
		if (!real || ++links > 40 || ct_path_under(cur, i, "/proc", 5))
			goto out;
		t = sys_readlinkat(AT_FDCWD, cur, text, sizeof(text) - 1);
		if (t <= 0)
			goto out;
		text[t] = 0;
		note_alias(b->p, cur, i, text, (size_t)t);
		cur[i] = c;
		/* the link's directory, then its text, then the rest */
		d = i;
		while (d > 0 && cur[d - 1] != '/')
			d--;
		if (text[0] == '/')
			d = 0;
		if (d + (size_t)t + (n - i) >= sizeof(cur))
			goto out;
		memmove(cur + d + t, cur + i, n - i + 1);
		memcpy(cur + d, text, (size_t)t);
		n = d + (size_t)t + (n - i);
		if (!is_clean(cur, n))
			goto out;
		goto again;
	}
	r = 1;
	if (real) {
		if (n < cap)
			memcpy(real, cur, n + 1);
		else
			r = 0;
	}
out:
	if (r != 1)
		b->p->nalias = nalias;	/* the links of a walk that did not end */
	return r;
}

static char *arena_alloc(struct ct_policy *p, size_t n)
{
	char *s;

	if (p->arena_used + n > p->arena_len)
		return NULL;
	s = p->arena + p->arena_used;
	p->arena_used += n;
	return s;
}

static char *arena_strndup(struct ct_policy *p, const char *s, size_t n)
{
	char *d = arena_alloc(p, n + 1);

	if (d) {
		memcpy(d, s, n);
		d[n] = 0;
	}
	return d;
}

static int fail(struct builder *b, const char *var, const char *value, const char *why)
{
	snprintf(b->err, b->errlen, "%s=\"%s\": %s", var, value ? value : "", why);
	return -1;
}

static const char *errno_text(int e)
{
	switch (e) {
	case ENOENT: return "no such file or directory";
	case ENOTDIR: return "not a directory";
	case EACCES: return "permission denied";
	case ELOOP: return "too many levels of symbolic links";
	case ENAMETOOLONG: return "path too long";
	default: return "cannot be opened";
	}
}

/* Real path of an O_PATH fd, through /proc/self/fd. Length, or -1. */
static long fd_realpath(int fd, char *buf, size_t len)
{
	char name[40];
	long n;

	snprintf(name, sizeof(name), "/proc/self/fd/%d", fd);
	n = sys_readlinkat(AT_FDCWD, name, buf, len - 1);
	if (n <= 0 || (size_t)n >= len - 1 || buf[0] != '/')
		return -1;
	if (n == 1)
		n = 0;
	buf[n] = 0;
	return n;
}

/* One symlink met on the way to a tree (once). */
static void note_alias(struct ct_policy *p, const char *from, size_t len, const char *to, size_t tolen)
{
	struct ct_alias *a;
	int k;

	for (k = 0; k < p->nalias; k++)
		if (p->alias[k].len == len && memcmp(p->alias[k].from, from, len) == 0)
			return;
	if (p->nalias >= CT_MAX_ALIAS)
		return;
	a = &p->alias[p->nalias];
	a->from = arena_strndup(p, from, len);
	a->len = len;
	a->to = arena_strndup(p, to, tolen);
	if (a->from && a->to)
		p->nalias++;
}

/* Record the symlinks met on the way from / to path (outside the trees). */
static void add_aliases(struct ct_policy *p, const char *path, int depth)
{
	char prefix[4096], text[4096], next[8192];
	size_t i, len = strlen(path);

	if (depth > 8 || len >= sizeof(prefix))
		return;
	for (i = 1; i <= len; i++) {
		struct stat st;
		ssize_t n;

		if (i < len && path[i] != '/')
			continue;
		memcpy(prefix, path, i);
		prefix[i] = 0;
		if (sys_fstatat(AT_FDCWD, prefix, &st, AT_SYMLINK_NOFOLLOW) < 0)
			return;
		if (!S_ISLNK(st.st_mode))
			continue;
		n = sys_readlinkat(AT_FDCWD, prefix, text, sizeof(text) - 1);
		if (n <= 0)
			return;
		text[n] = 0;
		note_alias(p, prefix, i, text, (size_t)n);
		/* continue along the link's target: it may hold more links */
		if (text[0] == '/') {
			snprintf(next, sizeof(next), "%s%s", text, path + i);
		} else {
			size_t d = i;

			while (d > 0 && prefix[d - 1] != '/')
				d--;
			snprintf(next, sizeof(next), "%.*s%s%s", (int)d, prefix, text, path + i);
		}
		add_aliases(p, next, depth + 1);
		return;
	}
}

/* (fd -1: resolved without one) */
#define CLOSE_IF_OPEN(fd) do { if ((fd) >= 0) sys_close(fd); } while (0)

/*
 * Add the tree at path with access acc. required: a missing path is an
 * error (CONTAIN_ROOT) rather than skipped.
 */
static int add_tree(struct builder *b, const char *var, const char *path, size_t plen,
		    unsigned acc, int required)
{
	struct ct_policy *p = b->p;
	char given[4096], real[4096];
	struct stat st;
	struct ct_tree *t;
	long n;
	int fd, i;

	if (plen == 0)
		return 0;
	if (path[0] != '/') {
		memcpy(given, path, plen < sizeof(given) ? plen : sizeof(given) - 1);
		given[plen < sizeof(given) ? plen : sizeof(given) - 1] = 0;
		return fail(b, var, given, "not an absolute path");
	}
	if (plen >= sizeof(given))
		return fail(b, var, "...", "path too long");
	memcpy(given, path, plen);
	given[plen] = 0;
	if (!required) {
		/* the default set: most entries are their own real path, the
		 * rest (/bin, /lib64...) a link or two away from it */
		int r = lexically_real(b, given, &st, real, sizeof(real));

		if (r == -1 || r == 2)
			return 0;	/* missing: skipped */
		if (r == 1) {
			fd = -1;
			n = (long)strlen(real);
			goto resolved;
		}
	} else if (lexically_real(b, given, &st, real, sizeof(real)) == 1 && S_ISDIR(st.st_mode) &&
		   syscall(SYS_faccessat, AT_FDCWD, real, R_OK | X_OK) == 0) {
		/* CONTAIN_ROOT, the temp dir: found and checked by their real
		 * path (no first look into /proc/self/fd, ~70 us); anything
		 * else takes the way below, for its exact error */
		fd = -1;
		n = (long)strlen(real);
		goto resolved;
	}
	fd = sys_openat(AT_FDCWD, given, O_PATH | O_CLOEXEC, 0);
	if (fd < 0) {
		if (!required)
			return 0;
		return fail(b, var, given, errno_text(errno));
	}
	if (sys_fstatat(fd, "", &st, AT_EMPTY_PATH) < 0 ||
	    (n = fd_realpath(fd, real, sizeof(real))) < 0) {
		sys_close(fd);
		return fail(b, var, given, "its real path cannot be found (is /proc mounted?)");
	}
	if (required) {
		if (!S_ISDIR(st.st_mode)) {
			sys_close(fd);
			return fail(b, var, given, "not a directory");
		}
		if (syscall(SYS_faccessat2, fd, "", R_OK | X_OK, AT_EMPTY_PATH) < 0 && errno != ENOSYS) {
			sys_close(fd);
			return fail(b, var, given, "not readable");
		}
	}
	add_aliases(p, given, 0);
resolved:
	/* "/" is the empty path (length 0), however it was reached: a tree
	 * "/" of length 1 would hold nothing below it */
	if (n == 1) {
		n = 0;
		real[0] = 0;
	}
	/* the same tree twice: grant the union */
	for (i = 0; i < p->ntrees; i++) {
		if (p->trees[i].len == (size_t)n && memcmp(p->trees[i].path, real, (size_t)n) == 0) {
			p->trees[i].acc |= acc;
			CLOSE_IF_OPEN(fd);
			return 0;
		}
	}
	/* a default tree inside a user tree that grants as much: redundant */
	if (!required && b->nuser >= 0) {
		for (i = 0; i < b->nuser; i++) {
			const struct ct_tree *u = &p->trees[i];

			if (u->kind == CT_TREE_DIR && ct_path_under(real, (size_t)n, u->path, u->len) &&
			    (u->acc & acc) == acc) {
				CLOSE_IF_OPEN(fd);
				return 0;
			}
		}
	}
	if (p->ntrees >= CT_MAX_TREES) {
		CLOSE_IF_OPEN(fd);
		return fail(b, var, given, "too many trees");
	}
	t = &p->trees[p->ntrees];
	memset(t, 0, sizeof(*t));
	t->path = arena_strndup(p, real, (size_t)n);
	t->len = (size_t)n;
	t->acc = acc;
	if (!t->path) {
		CLOSE_IF_OPEN(fd);
		return fail(b, var, given, "policy too large");
	}

	/* the fd is opened again on first use (ct_tree_fd) */
	CLOSE_IF_OPEN(fd);
	if (S_ISDIR(st.st_mode)) {
		t->kind = CT_TREE_DIR;
	} else {
		/* a single file: reached through its parent, never the
		 * parent's other entries */
		t->kind = CT_TREE_FILE;
		t->name = strrchr(t->path, '/') + 1;
	}
	p->ntrees++;
	return 0;
}

/* Add every colon-separated entry of list. */
static int add_list(struct builder *b, const char *var, const char *list, unsigned acc)
{
	const char *s = list;

	while (s && *s) {
		const char *e = strchr(s, ':');
		size_t n = e ? (size_t)(e - s) : strlen(s);

		if (add_tree(b, var, s, n, acc, 0) < 0)
			return -1;
		s = e ? e + 1 : NULL;
	}
	return 0;
}

/*
 * The real path of given: the real path of its longest existing prefix (all
 * links in it followed), then the rest as written. The last component is
 * not followed. Length, or -1.
 */
static long canon_path(const char *given, char *real, size_t len)
{
	char tmp[4096];
	size_t n = strlen(given), k = n;

	if (n >= sizeof(tmp))
		return -1;
	memcpy(tmp, given, n + 1);
	for (;;) {
		int fd;
		long rl;

		tmp[k] = 0;
		fd = k ? sys_openat(AT_FDCWD, tmp, O_PATH | O_CLOEXEC | (k == n ? O_NOFOLLOW : O_DIRECTORY), 0)
		       : sys_openat(AT_FDCWD, "/", O_PATH | O_DIRECTORY | O_CLOEXEC, 0);
		if (fd >= 0) {
			rl = fd_realpath(fd, real, len);
			sys_close(fd);
			if (rl < 0 || (size_t)rl + (n - k) + 1 > len)
				return -1;
			memcpy(real + rl, given + k, n - k + 1);
			return rl + (long)(n - k);
		}
		if (k == 0)
			return -1;
		/* strip the last name and the slashes before it; k = 0 is "/" */
		while (k > 0 && tmp[k - 1] != '/')
			k--;
		while (k > 0 && tmp[k - 1] == '/')
			k--;
	}
}

static int push_deny(struct builder *b, const char *var, const char *given, const char *real, long rl)
{
	struct ct_policy *p = b->p;
	int i;

	for (i = 0; i < p->ndeny; i++)
		if (p->deny[i].len == (size_t)rl && memcmp(p->deny[i].s, real, (size_t)rl) == 0)
			return 0;
	if (p->ndeny >= CT_MAX_DENY)
		return fail(b, var, given, "too many entries");
	p->deny[p->ndeny].s = arena_strndup(p, real, (size_t)rl);
	p->deny[p->ndeny].len = (size_t)rl;
	if (!p->deny[p->ndeny].s)
		return fail(b, var, given, "policy too large");
	p->ndeny++;
	return 0;
}

/*
 * Add a deny entry (relative entries are relative to the root) by its real
 * path; an entry that is a symlink denies the link and its target.
 */
static int add_deny(struct builder *b, const char *var, const char *root, const char *s, size_t n)
{
	char given[4096], real[4096];
	struct stat st;
	long rl;

	while (n > 1 && s[n - 1] == '/')
		n--;
	if (n == 0)
		return 0;
	{
		/* s, or root/s (no stdio: see put_num) */
		size_t k = s[0] == '/' ? 0 : strlen(root) + 1;

		if (k + n >= sizeof(given))
			return fail(b, var, root, "a deny entry's path is too long");
		if (k) {
			memcpy(given, root, k - 1);
			given[k - 1] = '/';
		}
		memcpy(given + k, s, n);
		given[k + n] = 0;
	}
	/* /proc/self follows the calling process: kept as written, matched
	 * against /proc/<caller> at call time (resolving it would pin the pid of
	 * the process that loaded the policy) */
	if (ct_path_under(given, strlen(given), "/proc/self", 10))
		return push_deny(b, var, given, given, (long)strlen(given));
	if (ct_path_under(given, strlen(given), "/proc/thread-self", 17))
		return fail(b, var, given, "not supported: name it through /proc/self");
	{
		/* no symlink on the way (the usual case): it is its real path */
		int r = lexically_real(b, given, &st, NULL, 0);

		if (r == 1 || r == 2)
			return push_deny(b, var, given, given, (long)strlen(given));
	}
	rl = canon_path(given, real, sizeof(real));
	if (rl < 0)
		return fail(b, var, given, "its real path cannot be found");
	if (push_deny(b, var, given, real, rl) < 0)
		return -1;
	if (sys_fstatat(AT_FDCWD, given, &st, AT_SYMLINK_NOFOLLOW) == 0 && S_ISLNK(st.st_mode)) {
		int fd = sys_openat(AT_FDCWD, given, O_PATH | O_CLOEXEC, 0);

		if (fd >= 0) {
			rl = fd_realpath(fd, real, sizeof(real));
			sys_close(fd);
			if (rl >= 0 && push_deny(b, var, given, real, rl) < 0)
				return -1;
		}
	}
	return 0;
}

CT_START_TEXT
static int add_env(struct builder *b, const char *name, const char *value)
{
	struct ct_policy *p = b->p;
	size_t nl = strlen(name), vl = strlen(value);
	char *s;

	if (p->nenv >= CT_MAX_ENV || !(s = arena_alloc(p, nl + vl + 2)))
		return fail(b, name, value, "policy too large");
	memcpy(s, name, nl);
	s[nl] = '=';
	memcpy(s + nl + 1, value, vl + 1);
	p->env[p->nenv++] = s;
	return 0;
}

CT_START_TEXT
int ct_policy_env(struct ct_policy *p, const char *name, const char *value)
{
	char err[8];
	struct builder b;

	memset(&b, 0, sizeof(b));
	b.p = p;
	b.err = err;
	b.errlen = sizeof(err);
	return add_env(&b, name, value);
}

/* A directory we may use as private temp dir: ours, 0700, not a link. */
static int own_private_dir(const char *path)
{
	struct stat st;

	/* a directory, not a link to one */
	return sys_fstatat(AT_FDCWD, path, &st, AT_SYMLINK_NOFOLLOW) == 0 && S_ISDIR(st.st_mode) &&
	       st.st_uid == geteuid() && (st.st_mode & 077) == 0;
}

/*
 * The private temp dir: /tmp/libcontain.<uid>.<hash of the root>, 0700,
 * made once and shared by every run over the same root (runs do not leave a
 * directory each). If someone else holds that name, a random one.
 */
static int make_tmpdir(const char *root, char *out, size_t len)
{
	static const char abc[] = "abcdefghijklmnopqrstuvwxyz0123456789";
	unsigned long long h = 1469598103934665603ULL;
	const char *c;
	size_t k;
	int tries;

	for (c = root; *c; c++)
		h = (h ^ (unsigned char)*c) * 1099511628211ULL;
	/* /tmp/libcontain.<uid>.<16 hex digits> (no stdio: see put_num); the
	 * prefix up to k stays for the random names below */
	if (len < 16 + 20 + 1 + 16 + 1)
		return -1;
	memcpy(out, "/tmp/libcontain.", 16);
	k = 16 + put_num(out + 16, (unsigned)geteuid(), 0);
	out[k++] = '.';
	out[k + put_num(out + k, h, 1)] = 0;
	if (syscall(SYS_mkdirat, AT_FDCWD, out, 0700) == 0 || (errno == EEXIST && own_private_dir(out)))
		return 0;
	for (tries = 0; tries < 64; tries++) {
		unsigned char r[6];
		int i;

		if (syscall(SYS_getrandom, r, sizeof(r), 0) != (long)sizeof(r))
			return -1;
		for (i = 0; i < 6; i++)
			out[k + i] = abc[r[i] % (sizeof(abc) - 1)];
		out[k + 6] = 0;
		if (syscall(SYS_mkdirat, AT_FDCWD, out, 0700) == 0)
			return 0;
		if (errno != EEXIST)
			return -1;
	}
	return -1;
}

/*
 * The LD_PRELOAD children get: this library by the path it was loaded from
 * (made absolute at load), then the other entries of the original list.
 * A relative entry would not load in a child started elsewhere, and the
 * child would run uncontained.
 */
static void preload_value(const char *list, const char *self, char *out, size_t len)
{
	const char *s = list, *base = strrchr(self, '/');
	size_t k;

	base = base ? base + 1 : self;
	k = strlen(self);
	if (k >= len)
		k = len - 1;
	memcpy(out, self, k);
	out[k] = 0;
	while (s && *s && k < len) {
		size_t n = 0;
		const char *eb;
		size_t bl;

		while (s[n] && s[n] != ':' && s[n] != ' ')
			n++;
		for (eb = s + n; eb > s && eb[-1] != '/'; eb--)
			;
		bl = (size_t)(s + n - eb);
		if (n && !(bl == strlen(base) && memcmp(eb, base, bl) == 0) && k + n + 1 < len) {
			out[k++] = ':';
			memcpy(out + k, s, n);
			k += n;
			out[k] = 0;
		}
		s += n;
		while (*s == ':' || *s == ' ')
			s++;
	}
}

static int cmp_tree(const void *a, const void *b)
{
	const struct ct_tree *x = a, *y = b;

	if (x->kind == CT_TREE_PROC || y->kind == CT_TREE_PROC)
		return (x->kind == CT_TREE_PROC) - (y->kind == CT_TREE_PROC);
	return x->len < y->len ? 1 : x->len > y->len ? -1 : 0;
}

/* Stable insertion sort by cmp_tree (at most CT_MAX_TREES): qsort's code
 * would be paged in at every first start for it. */
static void sort_trees(struct ct_policy *p)
{
	for (int i = 1; i < p->ntrees; i++) {
		struct ct_tree t = p->trees[i];
		int j = i;

		for (; j > 0 && cmp_tree(&p->trees[j - 1], &t) > 0; j--)
			p->trees[j] = p->trees[j - 1];
		p->trees[j] = t;
	}
}

/* The default read-only set: see libcontain(7), DEFAULT TREES. */
static const struct {
	const char *path;
	unsigned acc;
} defaults[] = {
	{ "/usr", CT_R | CT_X },
	{ "/bin", CT_R | CT_X },
	{ "/sbin", CT_R | CT_X },
	{ "/lib", CT_R | CT_X },
	{ "/lib64", CT_R | CT_X },
	{ "/lib32", CT_R | CT_X },
	{ "/libx32", CT_R | CT_X },
	{ "/etc", CT_R },
	{ "/dev/null", CT_R | CT_W },
	{ "/dev/zero", CT_R | CT_W },
	{ "/dev/full", CT_R | CT_W },
	{ "/dev/random", CT_R | CT_W },
	{ "/dev/urandom", CT_R | CT_W },
	{ "/dev/tty", CT_R | CT_W },
	{ "/dev/ptmx", CT_R | CT_W },
	{ "/proc/cpuinfo", CT_R },
	{ "/proc/meminfo", CT_R },
	{ "/proc/stat", CT_R },
	{ "/proc/filesystems", CT_R },
	{ "/proc/loadavg", CT_R },
	{ "/proc/uptime", CT_R },
	{ "/proc/version", CT_R },
	{ "/proc/sys", CT_R },
	{ "/sys/devices/system/cpu", CT_R },
	{ "/sys/fs/cgroup", CT_R },
};

/* Secrets inside the default set, denied entirely. */
static const char *const default_deny[] = {
	"/etc/shadow", "/etc/shadow-", "/etc/gshadow", "/etc/gshadow-",
	"/etc/ssh", "/etc/ssl/private", "/etc/sudoers", "/etc/sudoers.d",
	"/etc/security/opasswd", "/etc/credstore", "/etc/credstore.encrypted",
};

/* Links outside the trees whose targets move with the process. */
static const struct {
	const char *from, *to;
} static_alias[] = {
	{ "/proc/mounts", "self/mounts" },
	{ "/proc/net", "self/net" },
	{ "/dev/fd", "/proc/self/fd" },
	{ "/dev/stdin", "/proc/self/fd/0" },
	{ "/dev/stdout", "/proc/self/fd/1" },
	{ "/dev/stderr", "/proc/self/fd/2" },
};

/*
 * Drop a tree that lies in another granting at least as much (/bin is
 * /usr/bin, inside /usr): nesting takes the outer tree off the fast path.
 */
static void drop_redundant(struct ct_policy *p)
{
	int k, j, n = 0;

	for (k = 0; k < p->ntrees; k++) {
		const struct ct_tree *t = &p->trees[k];
		int redundant = 0;

		for (j = 0; j < p->ntrees && !redundant && t->kind != CT_TREE_PROC; j++) {
			const struct ct_tree *u = &p->trees[j];

			redundant = j != k && u->kind == CT_TREE_DIR && u->len < t->len &&
				    ct_path_under(t->path, t->len, u->path, u->len) &&
				    (u->acc & t->acc) == t->acc;
		}
		if (!redundant)
			p->trees[n++] = *t;
	}
	p->ntrees = n;
}

/* Fast flags: a directory tree with no other tree or deny entry below it. */
CT_START_TEXT
static void mark_fast(struct ct_policy *p)
{
	int k, j;

	for (k = 0; k < p->ntrees; k++) {
		struct ct_tree *t = &p->trees[k];

		t->fast = 0;
		if (t->kind != CT_TREE_DIR || t->len == 0)	/* "/" holds /proc */
			continue;
		t->fast = 1;
		for (j = 0; j < p->ntrees; j++)
			if (j != k && p->trees[j].kind != CT_TREE_PROC &&
			    p->trees[j].len > t->len &&
			    ct_path_under(p->trees[j].path, p->trees[j].len, t->path, t->len))
				t->fast = 0;
		/* a deny entry below the tree, or above it (the whole tree is
		 * then denied, which only the walk sees) */
		for (j = 0; j < p->ndeny; j++)
			if (ct_path_under(p->deny[j].s, p->deny[j].len, t->path, t->len) ||
			    ct_path_under(t->path, t->len, p->deny[j].s, p->deny[j].len))
				t->fast = 0;
	}
}

/* ------------------------------------------------------------------ */
/* CONTAIN_POLICY: the resolved policy handed to children              */

/*
 * The first process resolves every tree (about 300 system calls); its
 * children take the result from CONTAIN_POLICY and make none. The record is
 * used only when its checksum matches the CONTAIN_* values the child sees
 * (the exec wrappers always give both from the same snapshot).
 * Format: "1:" HEX16 then records, each a tag and length-prefixed fields:
 *   T<acc><kind><len>:<path>   a tree (kind d, f or p)
 *   A<len>:<from><len>:<to>    an alias
 *   D<len>:<path>              a deny entry
 *   M<len>:<path>              the private temp dir
 *   L<len>:<path>              the program interpreter verified at load
 */
static unsigned long long fnv(unsigned long long h, const char *s)
{
	if (!s)
		return (h ^ 0xffu) * 1099511628211ULL;
	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 1099511628211ULL;
	return (h ^ 0x1eu) * 1099511628211ULL;
}

CT_START_TEXT
static unsigned long long policy_sum(const char *root, const char *read, const char *write,
				     const char *deny, const char *log, const char *tmpdir)
{
	unsigned long long h = 1469598103934665603ULL;

	h = fnv(h, root);
	h = fnv(h, read);
	h = fnv(h, write);
	h = fnv(h, deny);
	h = fnv(h, log);
	return fnv(h, tmpdir);
}

struct sbuf {
	char *s;
	size_t len, cap;
	int bad;
};

static void sput(struct sbuf *b, const char *s, size_t n)
{
	if (b->len + n >= b->cap) {
		b->bad = 1;
		return;
	}
	memcpy(b->s + b->len, s, n);
	b->len += n;
	b->s[b->len] = 0;
}

/* "1:" and sum as 16 hex digits into out[19]: the snapshot's head (no
 * stdio: a child parses this at every start) */
static void policy_head(unsigned long long sum, char *out)
{
	int i;

	out[0] = '1';
	out[1] = ':';
	for (i = 17; i >= 2; i--, sum >>= 4)
		out[i] = "0123456789abcdef"[sum & 15];
	out[18] = 0;
}

static void sfield(struct sbuf *b, const char *s, size_t n)
{
	char num[24];
	size_t k = put_num(num, n, 0);

	num[k++] = ':';
	sput(b, num, k);
	sput(b, s, n);
}

static int serialize(struct builder *bd, unsigned long long sum)
{
	struct ct_policy *p = bd->p;
	struct sbuf b;
	char head[40];
	int i;

	b.cap = p->arena_len - p->arena_used;
	b.s = p->arena + p->arena_used;
	b.len = 0;
	b.bad = 0;
	sput(&b, "CONTAIN_POLICY=", 15);
	policy_head(sum, head);
	sput(&b, head, 18);
	for (i = 0; i < p->ntrees; i++) {
		const struct ct_tree *t = &p->trees[i];
		char tag[4] = { 'T', (char)('0' + t->acc),
				t->kind == CT_TREE_DIR ? 'd' : t->kind == CT_TREE_FILE ? 'f' : 'p', 0 };

		sput(&b, tag, 3);
		sfield(&b, t->path, t->kind == CT_TREE_PROC ? 0 : t->len);
	}
	for (i = 0; i < p->nalias; i++) {
		sput(&b, "A", 1);
		sfield(&b, p->alias[i].from, p->alias[i].len);
		sfield(&b, p->alias[i].to, strlen(p->alias[i].to));
	}
	for (i = 0; i < p->ndeny; i++) {
		sput(&b, "D", 1);
		sfield(&b, p->deny[i].s, p->deny[i].len);
	}
	if (p->tmpdir) {
		sput(&b, "M", 1);
		sfield(&b, p->tmpdir, strlen(p->tmpdir));
	}
	if (p->interp) {
		sput(&b, "L", 1);
		sfield(&b, p->interp, strlen(p->interp));
	}
	if (b.bad || p->nenv >= CT_MAX_ENV)
		return fail(bd, "CONTAIN_POLICY", "", "policy too large");
	p->env[p->nenv++] = b.s;
	p->arena_used += b.len + 1;
	return 0;
}

/* Read one length-prefixed field into the arena. */
CT_START_TEXT
static const char *pfield(struct ct_policy *p, const char **s, size_t *len)
{
	const char *end = *s;
	unsigned long n = 0;
	const char *v;

	while (*end >= '0' && *end <= '9' && n < 4096)
		n = n * 10 + (unsigned long)(*end++ - '0');
	if (end == *s || *end != ':' || n >= 4096 || strnlen(end + 1, n) < n)
		return NULL;
	v = arena_strndup(p, end + 1, n);
	*s = end + 1 + n;
	*len = n;
	return v;
}

/* Take a parent's resolved policy. 0, or -1 when it does not parse. */
static int parse_policy(struct ct_policy *p, const char *s, unsigned long long sum)
{
	char want[24];
	size_t n;

	policy_head(sum, want);
	if (strncmp(s, want, 18) != 0)
		return -1;
	s += 18;
	while (*s) {
		char tag = *s++;

		if (tag == 'T') {
			struct ct_tree *t;
			char kind;

			if (p->ntrees >= CT_MAX_TREES || s[0] < '0' || s[0] > '7' || !s[1])
				return -1;
			t = &p->trees[p->ntrees];
			memset(t, 0, sizeof(*t));
			t->acc = (unsigned)(s[0] - '0');
			kind = s[1];
			s += 2;
			t->kind = kind == 'd' ? CT_TREE_DIR : kind == 'f' ? CT_TREE_FILE : CT_TREE_PROC;
			if (kind != 'd' && kind != 'f' && kind != 'p')
				return -1;
			if (!(t->path = pfield(p, &s, &n)))
				return -1;
			t->len = kind == 'p' ? 0 : n;
			if (kind == 'p')
				t->path = "/proc/self";
			if (kind == 'f') {
				const char *slash = strrchr(t->path, '/');

				if (!slash)
					return -1;
				t->name = slash + 1;
			}
			p->ntrees++;
		} else if (tag == 'A') {
			struct ct_alias *a;

			if (p->nalias >= CT_MAX_ALIAS)
				return -1;
			a = &p->alias[p->nalias];
			if (!(a->from = pfield(p, &s, &a->len)) || !(a->to = pfield(p, &s, &n)))
				return -1;
			p->nalias++;
		} else if (tag == 'D') {
			if (p->ndeny >= CT_MAX_DENY)
				return -1;
			if (!(p->deny[p->ndeny].s = pfield(p, &s, &p->deny[p->ndeny].len)))
				return -1;
			p->ndeny++;
		} else if (tag == 'M') {
			if (!(p->tmpdir = pfield(p, &s, &n)))
				return -1;
		} else if (tag == 'L') {
			if (!(p->interp = pfield(p, &s, &n)) || p->interp[0] != '/')
				return -1;
		} else {
			return -1;
		}
	}
	return p->ntrees > 0 ? 0 : -1;
}

static struct ct_slot slot_storage[CT_MAX_TREES];
/* a policy was loaded before in this process (the unit tests): its slots
 * may hold tree fds. Checked instead of reading the slots, which would
 * fault their pages in at every start. */
static int loaded_before CT_START_DATA;

CT_START_TEXT
static int snapshot_env(struct builder *b, const struct ct_env *e, const char *root)
{
	struct ct_policy *p = b->p;

	if (e->self_path) {
		/* composed in the arena itself: no page of stack for it */
		size_t room = strlen(e->self_path) + (e->preload ? strlen(e->preload) : 0) + 2;
		char *s;

		if (p->nenv >= CT_MAX_ENV || room > 8192 || !(s = arena_alloc(p, 11 + room)))
			return fail(b, "LD_PRELOAD", e->self_path, "policy too large");
		memcpy(s, "LD_PRELOAD=", 11);
		preload_value(e->preload, e->self_path, s + 11, room);
		p->env[p->nenv++] = s;
		p->preload = s + 11;
	}
	if (add_env(b, "CONTAIN_ROOT", root) < 0)
		return -1;
	if ((e->read && add_env(b, "CONTAIN_READ", e->read) < 0) ||
	    (e->write && add_env(b, "CONTAIN_WRITE", e->write) < 0) ||
	    (e->deny && add_env(b, "CONTAIN_DENY", e->deny) < 0) ||
	    (e->log && add_env(b, "CONTAIN_LOG", e->log) < 0))
		return -1;
	if (p->tmpdir && (add_env(b, "CONTAIN_TMPDIR", p->tmpdir) < 0 ||
			  add_env(b, "TMPDIR", p->tmpdir) < 0))
		return -1;
	return 0;
}

/* CONTAIN_LOG: "off", or an absolute file (opened to check it, if asked). */
CT_START_TEXT
static int setup_log(struct builder *b, const struct ct_env *e, int check)
{
	struct ct_policy *p = b->p;

	p->log_mode = CT_LOG_STDERR;
	if (!e->log || !*e->log)
		return 0;
	if (strcmp(e->log, "off") == 0) {
		p->log_mode = CT_LOG_OFF;
		return 0;
	}
	if (e->log[0] != '/')
		return fail(b, "CONTAIN_LOG", e->log, "not an absolute path (or \"off\")");
	if (check) {
		int fd = sys_openat(AT_FDCWD, e->log, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0600);

		if (fd < 0)
			return fail(b, "CONTAIN_LOG", e->log, errno_text(errno));
		sys_close(fd);
	}
	p->log_mode = CT_LOG_FILE;
	p->log_path = arena_strndup(p, e->log, strlen(e->log));
	return p->log_path ? 0 : fail(b, "CONTAIN_LOG", e->log, "policy too large");
}

/*
 * The path of the terminal on fd (/dev/pts/N) into buf[64], or 0. Only a
 * pty slave (majors 136-143) can be one. It is named by its number;
 * otherwise (another devpts) by the name /proc/self/fd gives, which a
 * first look costs ~70 us. Either name is believed only when it is the
 * same file (device and inode) as the descriptor.
 */
/* Does path (not followed) name the file st describes? */
static int names_file(const char *path, const struct stat *st)
{
	struct stat named;

	return sys_fstatat(AT_FDCWD, path, &named, AT_SYMLINK_NOFOLLOW) == 0 && named.st_dev == st->st_dev &&
	       named.st_ino == st->st_ino;
}

static int terminal_path(int fd, char *buf)
{
	struct stat st;
	char link[40];
	int n;

	if (sys_fstatat(fd, "", &st, AT_EMPTY_PATH) != 0 || !S_ISCHR(st.st_mode) ||
	    major(st.st_rdev) < 136 || major(st.st_rdev) > 143)	/* UNIX98_PTY_SLAVE_MAJOR.. */
		return 0;
	if (major(st.st_rdev) == 136) {
		n = snprintf(buf, 64, "/dev/pts/%u", minor(st.st_rdev));
		if (names_file(buf, &st))
			return n;
	}
	snprintf(link, sizeof(link), "/proc/self/fd/%d", fd);
	n = (int)sys_readlinkat(AT_FDCWD, link, buf, 63);
	if (n <= 9 || memcmp(buf, "/dev/pts/", 9) != 0)
		return 0;
	buf[n] = 0;
	/* the name names this terminal here (another devpts may be mounted
	 * over /dev/pts since) */
	return names_file(buf, &st) ? n : 0;
}

/*
 * The first process of a tree: resolve every tree. Out of line, so that
 * its buffers do not deepen the stack of a child taking the snapshot.
 */
static __attribute__((noinline)) int load_full(struct builder *bp, const struct ct_env *e)
{
	struct ct_policy *p = bp->p;
	char buf[4096];
	const char *root;
	struct statfs sfs;
	size_t i;

	/* (statfs: a first look into /proc/self costs ~50 us) */
	if (syscall(SYS_statfs, "/proc", &sfs) != 0 || sfs.f_type != PROC_SUPER_MAGIC)
		return fail(bp, "CONTAIN_ROOT", e->root, "/proc is not mounted");

	if (add_tree(bp, "CONTAIN_ROOT", e->root, strlen(e->root), CT_R | CT_W | CT_X, 1) < 0)
		return -1;
	root = p->trees[0].path;
	if (add_list(bp, "CONTAIN_WRITE", e->write, CT_R | CT_W | CT_X) < 0 ||
	    add_list(bp, "CONTAIN_READ", e->read, CT_R | CT_X) < 0)
		return -1;

	/* a private temp dir: CONTAIN_TMPDIR, or a new one */
	if (e->tmpdir && *e->tmpdir) {
		if (add_tree(bp, "CONTAIN_TMPDIR", e->tmpdir, strlen(e->tmpdir), CT_R | CT_W | CT_X, 1) < 0)
			return -1;
		p->tmpdir = p->trees[p->ntrees - 1].path;
	} else if (e->create_tmpdir) {
		if (make_tmpdir(root, buf, sizeof(buf)) < 0)
			return fail(bp, "CONTAIN_TMPDIR", "/tmp/libcontain.*", "cannot create a private temp directory");
		if (add_tree(bp, "CONTAIN_TMPDIR", buf, strlen(buf), CT_R | CT_W | CT_X, 1) < 0)
			return -1;
		p->tmpdir = p->trees[p->ntrees - 1].path;
	}
	bp->nuser = p->ntrees;

	if (!e->no_defaults) {
		for (i = 0; i < sizeof(defaults) / sizeof(defaults[0]); i++)
			if (add_tree(bp, "default tree", defaults[i].path, strlen(defaults[i].path),
				     defaults[i].acc, 0) < 0)
				return -1;
		/* the terminals the first process was started on (its stdio), not
		 * all of /dev/pts: another terminal's keystrokes are not ours */
		for (int fdn = 0; fdn < 3; fdn++) {
			int n = terminal_path(fdn, buf);

			if (n > 0 && add_tree(bp, "default tree", buf, (size_t)n, CT_R | CT_W, 0) < 0)
				return -1;
		}
		if (p->ntrees >= CT_MAX_TREES)
			return fail(bp, "CONTAIN_READ", "", "too many trees");
		p->trees[p->ntrees].path = "/proc/self";
		p->trees[p->ntrees].len = 0;
		p->trees[p->ntrees].acc = CT_R;
		p->trees[p->ntrees].kind = CT_TREE_PROC;
		p->ntrees++;
		for (i = 0; i < sizeof(default_deny) / sizeof(default_deny[0]); i++)
			if (add_deny(bp, "default deny", root, default_deny[i], strlen(default_deny[i])) < 0)
				return -1;
		for (i = 0; i < sizeof(static_alias) / sizeof(static_alias[0]); i++) {
			if (p->nalias >= CT_MAX_ALIAS)
				break;
			p->alias[p->nalias].from = static_alias[i].from;
			p->alias[p->nalias].len = strlen(static_alias[i].from);
			p->alias[p->nalias].to = static_alias[i].to;
			p->nalias++;
		}
	}

	/* CONTAIN_DENY */
	{
		const char *s = e->deny;

		while (s && *s) {
			const char *x = strchr(s, ':');
			size_t n = x ? (size_t)(x - s) : strlen(s);

			if (add_deny(bp, "CONTAIN_DENY", root, s, n) < 0)
				return -1;
			s = x ? x + 1 : NULL;
		}
	}

	if (setup_log(bp, e, 1) < 0)
		return -1;
	/* the program may not open or truncate its own log */
	if (p->log_mode == CT_LOG_FILE && add_deny(bp, "CONTAIN_LOG", root, e->log, strlen(e->log)) < 0)
		return -1;

	drop_redundant(p);
	/* longest first: the first match is the innermost tree */
	sort_trees(p);
	mark_fast(p);

	/* checked once here, for every exec in the process tree */
	if (e->verified_interp) {
		const char *interp = e->verified_interp(p, e->kernel_holds);

		if (interp && strlen(interp) < 256)
			p->interp = arena_strndup(p, interp, strlen(interp));
	}

	if (snapshot_env(bp, e, root[0] ? root : "/") < 0)
		return -1;
	return serialize(bp, policy_sum(root[0] ? root : "/", e->read, e->write, e->deny, e->log,
					p->tmpdir));
}

CT_START_TEXT
int ct_policy_load(struct ct_policy *p, size_t mapping_len, const struct ct_env *e,
		   char *err, size_t errlen)
{
	struct builder b = { .p = p, .err = err, .errlen = errlen, .nuser = -1 };
	int k;

	memset(p, 0, sizeof(*p));
	p->arena = (char *)(p + 1);
	p->arena_len = mapping_len > sizeof(*p) ? mapping_len - sizeof(*p) : 0;
	p->slots = slot_storage;
	/* zero from the start; cleared again only when a policy loaded
	 * before in this process (the unit tests) opened some */
	if (loaded_before)
		for (k = 0; k < CT_MAX_TREES; k++)
			if (__atomic_load_n(&slot_storage[k].seq, __ATOMIC_RELAXED))
				memset(&slot_storage[k], 0, sizeof(slot_storage[k]));
	loaded_before = 1;
	err[0] = 0;

	if (!e->root) {
		if (e->optout && strcmp(e->optout, "1") == 0)
			return 0;	/* documented opt-out: pass everything through */
		return fail(&b, "CONTAIN_ROOT", "", "not set (set CONTAIN_OPTOUT=1 to run uncontained on purpose)");
	}
	p->active = 1;

	/* a child of a contained process: take the parent's resolved policy */
	if (e->serialized &&
	    parse_policy(p, e->serialized, policy_sum(e->root, e->read, e->write, e->deny,
						      e->log, e->tmpdir)) == 0) {
		mark_fast(p);
		p->inherited = 1;
		if (setup_log(&b, e, 0) < 0 || snapshot_env(&b, e, e->root) < 0)
			return -1;
		if (add_env(&b, "CONTAIN_POLICY", e->serialized) < 0)
			return -1;
		return 0;
	}
	memset(p, 0, sizeof(*p));
	p->arena = (char *)(p + 1);
	p->arena_len = mapping_len > sizeof(*p) ? mapping_len - sizeof(*p) : 0;
	p->slots = slot_storage;
	p->active = 1;
	return load_full(&b, e);
}
