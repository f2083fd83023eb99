/*
 * test_resolve.c: the resolver against the fixture, one row per shape.
 * Each row: a path (relative rows start in the root as cwd), open flags, the
 * access needed, and the outcome: the content read, an errno from the
 * kernel, or a policy reason (errno EACCES).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "unit.h"

static struct fixture fx;
static struct ct_policy *pol;
static char oldcwd[4096];

static void setup(void)
{
	fixture_make(&fx);
	pol = fixture_policy(&fx, ".env:secrets", 1);
	ck_assert_ptr_nonnull(getcwd(oldcwd, sizeof(oldcwd)));
	ck_assert_int_eq(chdir(fx.root), 0);
}

static void teardown(void)
{
	ck_assert_int_eq(chdir(oldcwd), 0);
	policy_free(pol);
	fixture_free(&fx);
}

enum { OK, ERR, DENY };

#define RD  O_RDONLY
#define WR  (O_WRONLY | O_CREAT | O_TRUNC)
#define R   CT_R
#define W   CT_W

static const struct row {
	const char *path;	/* %R root, %O outside, %D read-only tree, %B base */
	int flags;
	unsigned need;
	int kind;		/* OK: value is the first line; ERR: errno; DENY: reason */
	const char *text;
	int value;
} rows[] = {
	/* allowed twins */
	{ "%R/file.txt", RD, R, OK, "inside", 0 },
	{ "file.txt", RD, R, OK, "inside", 0 },
	{ "./sub/../file.txt", RD, R, OK, "inside", 0 },
	{ "%R//sub///a.txt", RD, R, OK, "a", 0 },
	{ "%R/./sub/deep/../a.txt", RD, R, OK, "a", 0 },
	{ "link-in", RD, R, OK, "inside", 0 },
	{ "link-abs-in", RD, R, OK, "inside", 0 },
	{ "dirlink/a.txt", RD, R, OK, "a", 0 },
	{ "dirlink/../file.txt", RD, R, OK, "inside", 0 },	/* `..` after a symlink is physical */
	{ "dotdot-link/file.txt", RD, R, OK, "inside", 0 },
	{ "ro-link", RD, R, OK, "ro", 0 },		/* absolute link into a read tree */
	{ "%D/data.txt", RD, R, OK, "ro", 0 },
	{ "%B/root/file.txt", RD, R, OK, "inside", 0 },
	{ "sub/", O_RDONLY | O_DIRECTORY, R, OK, NULL, 0 },
	/* outside, every shape */
	{ "%O/secret.txt", RD, R, DENY, NULL, CT_OUTSIDE },
	{ "%O/missing.txt", RD, R, DENY, NULL, CT_OUTSIDE },
	{ "../outside/secret.txt", RD, R, DENY, NULL, CT_OUTSIDE },
	{ "%R/../outside/secret.txt", RD, R, DENY, NULL, CT_OUTSIDE },
	{ "link-out", RD, R, DENY, NULL, CT_OUTSIDE },
	{ "link-abs-out", RD, R, DENY, NULL, CT_OUTSIDE },
	{ "link-missing-out", RD, R, DENY, NULL, CT_OUTSIDE },
	{ "chain1", RD, R, DENY, NULL, CT_OUTSIDE },
	{ "dirlink-out/secret.txt", RD, R, DENY, NULL, CT_OUTSIDE },
	{ "evil-link", RD, R, DENY, NULL, CT_OUTSIDE },
	{ "%E/secret.txt", RD, R, DENY, NULL, CT_OUTSIDE },
	{ "up/outside/secret.txt", RD, R, DENY, NULL, CT_OUTSIDE },
	{ "/proc/self/root%O/secret.txt", RD, R, DENY, NULL, CT_OUTSIDE },
	{ "/proc/self/cwd/../outside/secret.txt", RD, R, DENY, NULL, CT_OUTSIDE },
	{ "/proc/self/cwd/file.txt", RD, R, OK, "inside", 0 },
	{ "/proc/1/root%O/secret.txt", RD, R, DENY, NULL, CT_OUTSIDE },
	{ "/etc/passwd", RD, R, OK, "root:x:0:0:root:/root:/bin/bash", 0 },	/* default read tree */
	{ "/etc/shadow", RD, R, DENY, NULL, CT_DENIED },	/* default deny */
	{ "/etc/passwd", WR, W, DENY, NULL, CT_READONLY },
	{ "/root/.ssh/id_rsa", RD, R, DENY, NULL, CT_OUTSIDE },
	{ "/lib/x86_64-linux-gnu/libc.so.6", RD, R, OK, NULL, 0 },	/* merged-usr alias */
	{ "/dev/null", WR, W, OK, NULL, 0 },
	{ "/dev/null/x", RD, R, ERR, NULL, ENOTDIR },
	{ "/dev/sda", RD, R, DENY, NULL, CT_OUTSIDE },
	{ "/proc/self/status", RD, R, OK, NULL, 0 },
	{ "/proc/1/environ", RD, R, DENY, NULL, CT_OUTSIDE },
	{ "/", RD, R, DENY, NULL, CT_OUTSIDE },
	{ "%B", RD, R, DENY, NULL, CT_OUTSIDE },		/* an ancestor is not inside */
	/* could not be verified */
	{ "loop1", RD, R, DENY, NULL, CT_UNVERIFIABLE },
	/* deny entries */
	{ ".env", RD, R, DENY, NULL, CT_DENIED },
	{ "secrets/key", RD, R, DENY, NULL, CT_DENIED },
	{ "sub/../secrets/key", RD, R, DENY, NULL, CT_DENIED },
	/* writes */
	{ "new.txt", WR, W, OK, "", 0 },
	{ "dangling", WR, W, OK, "", 0 },		/* creates the link's target */
	{ "dangling-out", WR, W, DENY, NULL, CT_OUTSIDE },
	{ "%D/data.txt", WR, W, DENY, NULL, CT_READONLY },
	{ "ro-link", WR, W, DENY, NULL, CT_READONLY },
	{ "%O/new.txt", WR, W, DENY, NULL, CT_OUTSIDE },
	/* the kernel's own answers inside the root */
	{ "missing.txt", RD, R, ERR, NULL, ENOENT },
	{ "nodir/x", RD, R, ERR, NULL, ENOENT },
	{ "file.txt/x", RD, R, ERR, NULL, ENOTDIR },
	{ "dirlink/missing", RD, R, ERR, NULL, ENOENT },
	{ "file.txt/", RD, R, ERR, NULL, ENOTDIR },
	{ "link-in", O_RDONLY | O_NOFOLLOW, R, ERR, NULL, ELOOP },
	{ "file.txt", O_WRONLY | O_CREAT | O_EXCL, W, ERR, NULL, EEXIST },
	{ "link-out", O_WRONLY | O_CREAT | O_EXCL, W, ERR, NULL, EEXIST },	/* not followed */
	{ "sub", O_WRONLY, W, ERR, NULL, EISDIR },
};

static void expand(const char *in, char *out, size_t len)
{
	size_t k = 0;

	for (; *in && k + 1 < len; in++) {
		const char *rep = NULL;

		if (in[0] == '%' && in[1]) {
			switch (in[1]) {
			case 'R': rep = fx.root; break;
			case 'B': rep = fx.base; break;
			case 'O': rep = fx.outside; break;
			case 'D': rep = fx.ro; break;
			case 'E': rep = fx.evil; break;
			}
		}
		if (rep) {
			k += (size_t)snprintf(out + k, len - k, "%s", rep);
			in++;
		} else {
			out[k++] = *in;
		}
	}
	out[k] = 0;
}

static void run_row(const struct row *r, int no_openat2)
{
	char path[1024], buf[64];
	struct ct_req rq;
	struct ct_verdict v;
	int fd, e;

	expand(r->path, path, sizeof(path));
	rq.dirfd = AT_FDCWD;
	rq.path = path;
	rq.flags = r->flags | O_CLOEXEC;
	rq.mode = 0644;
	rq.need = r->need;
	rq.follow = !(r->flags & O_NOFOLLOW) && (r->flags & (O_CREAT | O_EXCL)) != (O_CREAT | O_EXCL);
	ct_no_openat2 = no_openat2;
	errno = 0;
	fd = ct_open(pol, &rq, &v);
	e = errno;
	ct_no_openat2 = 0;
	switch (r->kind) {
	case OK:
		ck_assert_msg(fd >= 0, "%s: failed: %s (reason %s: %s)", r->path, strerror(e),
			      ct_reason_key(v.reason), v.detail ? v.detail : "");
		if (r->text && !(r->flags & O_DIRECTORY)) {
			ssize_t n = read(fd, buf, sizeof(buf) - 1);

			buf[n > 0 ? n : 0] = 0;
			buf[strcspn(buf, "\n")] = 0;
			ck_assert_msg(strcmp(buf, r->text) == 0, "%s: read \"%s\"", r->path, buf);
		}
		close(fd);
		break;
	case ERR:
		if (fd >= 0)
			close(fd);
		ck_assert_msg(fd < 0 && e == r->value && v.reason == CT_OK,
			      "%s: fd %d errno %s reason %s, want %s", r->path, fd, strerror(e),
			      ct_reason_key(v.reason), strerror(r->value));
		break;
	case DENY:
		if (fd >= 0)
			close(fd);
		ck_assert_msg(fd < 0 && e == EACCES && v.reason == r->value,
			      "%s: fd %d errno %s reason %s (%s), want %s", r->path, fd, strerror(e),
			      ct_reason_key(v.reason), v.detail ? v.detail : "", ct_reason_key(r->value));
		break;
	}
	/* the write rows create files: undo for the next row */
	if (r->kind == OK && (r->flags & O_CREAT)) {
		unlink("new.txt");
	}
}

START_TEST(resolve_row)
{
	run_row(&rows[_i], 0);
}
END_TEST

/* The same table with the kernel's openat2 fast path off: the walk alone. */
START_TEST(resolve_row_walk_only)
{
	run_row(&rows[_i], 1);
}
END_TEST

START_TEST(resolve_relative_to_dirfd)
{
	struct ct_req rq = { -1, "a.txt", O_RDONLY | O_CLOEXEC, 0, CT_R, 1 };
	struct ct_verdict v;
	char p[600];
	int d, fd;

	snprintf(p, sizeof(p), "%s/sub", fx.root);
	d = open(p, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	ck_assert_int_ge(d, 0);
	rq.dirfd = d;
	fd = ct_open(pol, &rq, &v);
	ck_assert_int_ge(fd, 0);
	close(fd);
	rq.path = "../../outside/secret.txt";
	fd = ct_open(pol, &rq, &v);
	ck_assert_int_eq(fd, -1);
	ck_assert_int_eq(v.reason, CT_OUTSIDE);
	close(d);
	/* a dirfd outside every tree: nothing below it is reachable */
	d = open(fx.outside, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	rq.dirfd = d;
	rq.path = "secret.txt";
	fd = ct_open(pol, &rq, &v);
	ck_assert_int_eq(fd, -1);
	ck_assert_int_eq(v.reason, CT_OUTSIDE);
	close(d);
}
END_TEST

START_TEST(resolve_cwd_outside_the_root)
{
	struct ct_req rq = { AT_FDCWD, "../root/file.txt", O_RDONLY | O_CLOEXEC, 0, CT_R, 1 };
	struct ct_verdict v;
	int fd;

	ck_assert_int_eq(chdir(fx.outside), 0);
	fd = ct_open(pol, &rq, &v);
	ck_assert_msg(fd >= 0, "relative path from an outside cwd into the root: %s", strerror(errno));
	close(fd);
	rq.path = "secret.txt";
	fd = ct_open(pol, &rq, &v);
	ck_assert_int_eq(fd, -1);
	ck_assert_int_eq(v.reason, CT_OUTSIDE);
	ck_assert_int_eq(chdir(fx.root), 0);
}
END_TEST

START_TEST(resolve_budgets_fail_closed)
{
	static char longp[CT_PATH_BUDGET + 16];
	struct ct_req rq = { AT_FDCWD, longp, O_RDONLY | O_CLOEXEC, 0, CT_R, 1 };
	struct ct_verdict v;
	size_t i;
	int fd;

	/* a path longer than the walk's budget, inside the root */
	for (i = 0; i + 2 < sizeof(longp) - 1; i += 2)
		memcpy(longp + i, "./", 2);
	memcpy(longp + i - 2, "ab", 2);
	longp[i] = 0;
	ct_no_openat2 = 1;
	fd = ct_open(pol, &rq, &v);
	ct_no_openat2 = 0;
	ck_assert_int_eq(fd, -1);
	ck_assert_int_eq(errno, EACCES);
	ck_assert_int_eq(v.reason, CT_UNVERIFIABLE);
}
END_TEST

Suite *resolve_suite(void)
{
	Suite *s = suite_create("resolve");
	TCase *tc = tcase_create("fixture");
	int n = (int)(sizeof(rows) / sizeof(rows[0]));

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_loop_test(tc, resolve_row, 0, n);
	tcase_add_loop_test(tc, resolve_row_walk_only, 0, n);
	tcase_add_test(tc, resolve_relative_to_dirfd);
	tcase_add_test(tc, resolve_cwd_outside_the_root);
	tcase_add_test(tc, resolve_budgets_fail_closed);
	suite_add_tcase(s, tc);
	return s;
}
