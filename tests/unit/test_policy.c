/* test_policy.c: the policy loader, table-driven over bad and good inputs. */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include "unit.h"

static struct fixture fx;

static void setup(void)
{
	char p[600];

	fixture_make(&fx);
	snprintf(p, sizeof(p), "%s/root-link", fx.base);
	ck_assert_int_eq(symlink("root", p), 0);
	snprintf(p, sizeof(p), "%s/file-link", fx.base);
	ck_assert_int_eq(symlink("root/file.txt", p), 0);
	snprintf(p, sizeof(p), "%s/dangling-link", fx.base);
	ck_assert_int_eq(symlink("nope", p), 0);
	snprintf(p, sizeof(p), "%s/loop-a", fx.base);
	ck_assert_int_eq(symlink("loop-b", p), 0);
	snprintf(p, sizeof(p), "%s/loop-b", fx.base);
	ck_assert_int_eq(symlink("loop-a", p), 0);
	snprintf(p, sizeof(p), "%s/lib", fx.base);	/* outside the root */
	ck_assert_int_eq(mkdir(p, 0755), 0);
	snprintf(p, sizeof(p), "%s/lib/sub", fx.base);
	ck_assert_int_eq(mkdir(p, 0755), 0);
}

static void teardown(void)
{
	fixture_free(&fx);
}

/* %R root, %B base, %O outside, %D the read-only dir */
static void expand(const char *in, char *out, size_t len)
{
	size_t k = 0;

	if (!in) {
		out[0] = 0;
		return;
	}
	for (; *in && k + 1 < len; in++) {
		const char *rep = NULL;

		if (in[0] == '%' && in[1]) {
			switch (in[1]) {
			case 'R': rep = fx.root; break;
			case 'B': rep = fx.base; break;
			case 'O': rep = fx.outside; break;
			case 'D': rep = fx.ro; break;
			}
		}
		if (rep) {
			k += (size_t)snprintf(out + k, len - k, "%s", rep);
			in++;
		} else {
			out[k++] = *in;
		}
	}
	out[k < len ? k : len - 1] = 0;
}

static const struct {
	const char *name;
	const char *root, *read, *log, *optout, *deny;
	const char *error;	/* substring of the error, NULL: loads */
	int active;
} cases[] = {
	{ "unset root refuses", NULL, NULL, NULL, NULL, NULL, "CONTAIN_ROOT=\"\": not set", 0 },
	{ "unset root with opt-out passes through", NULL, NULL, NULL, "1", NULL, NULL, 0 },
	{ "opt-out must be exactly 1", NULL, NULL, NULL, "yes", NULL, "not set", 0 },
	{ "relative root refuses", "repo", NULL, NULL, NULL, NULL, "not an absolute path", 0 },
	{ "missing root refuses", "%B/nope", NULL, NULL, NULL, NULL, "no such file or directory", 0 },
	{ "file root refuses", "%R/file.txt", NULL, NULL, NULL, NULL, "not a directory", 0 },
	{ "opt-out ignored when root set", "%R", NULL, NULL, "1", NULL, NULL, 1 },
	{ "good root loads", "%R", NULL, NULL, NULL, NULL, NULL, 1 },
	{ "root through a symlink loads", "%B/root-link", NULL, NULL, NULL, NULL, NULL, 1 },
	{ "root through a link to a file refuses", "%B/file-link", NULL, NULL, NULL, NULL, "not a directory", 0 },
	{ "root through a dangling link refuses", "%B/dangling-link", NULL, NULL, NULL, NULL,
	  "no such file or directory", 0 },
	{ "root through a link loop refuses", "%B/loop-a", NULL, NULL, NULL, NULL,
	  "too many levels of symbolic links", 0 },
	{ "relative read entry refuses", "%R", "%D:rel/dir", NULL, NULL, NULL, "CONTAIN_READ=\"rel/dir\": not an absolute path", 0 },
	{ "missing read entry is skipped", "%R", "%B/nope:%D", NULL, NULL, NULL, NULL, 1 },
	{ "relative log refuses", "%R", NULL, "log.json", NULL, NULL, "CONTAIN_LOG=\"log.json\": not an absolute path", 0 },
	{ "log off loads", "%R", NULL, "off", NULL, NULL, NULL, 1 },
	{ "log in a missing dir refuses", "%R", NULL, "%B/nope/log", NULL, NULL, "no such file or directory", 0 },
	{ "relative deny entries are under the root", "%R", NULL, NULL, NULL, ".env:secrets/", NULL, 1 },
};

START_TEST(policy_load_table)
{
	struct ct_policy *p = mmap(NULL, 1 << 20, PROT_READ | PROT_WRITE,
				   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	char root[600], read[1200], log[600], err[512];
	struct ct_env e;
	int r;

	memset(&e, 0, sizeof(e));
	expand(cases[_i].root, root, sizeof(root));
	expand(cases[_i].read, read, sizeof(read));
	expand(cases[_i].log, log, sizeof(log));
	e.root = cases[_i].root ? root : NULL;
	e.read = cases[_i].read ? read : NULL;
	e.log = cases[_i].log ? log : "off";
	e.optout = cases[_i].optout;
	e.deny = cases[_i].deny;
	e.no_defaults = 1;
	e.self_path = "/opt/x/libcontain.so";
	r = ct_policy_load(p, 1 << 20, &e, err, sizeof(err));
	if (cases[_i].error) {
		ck_assert_msg(r == -1, "%s: loaded", cases[_i].name);
		ck_assert_msg(strstr(err, cases[_i].error) != NULL, "%s: error \"%s\" lacks \"%s\"",
			      cases[_i].name, err, cases[_i].error);
	} else {
		ck_assert_msg(r == 0, "%s: %s", cases[_i].name, err);
		ck_assert_int_eq(p->active, cases[_i].active);
	}
	munmap(p, 1 << 20);
}
END_TEST

START_TEST(policy_records_real_paths_snapshot_and_deny)
{
	struct ct_policy *p = mmap(NULL, 1 << 20, PROT_READ | PROT_WRITE,
				   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	char root[600], want[700], err[512];
	struct ct_env e;
	int i, have_root = 0, have_preload = 0, have_deny = 0;

	snprintf(root, sizeof(root), "%s/root-link", fx.base);
	memset(&e, 0, sizeof(e));
	e.root = root;
	e.deny = ".env";
	e.log = "off";
	e.no_defaults = 1;
	e.preload = "./libcontain.so:/other/lib.so";
	e.self_path = "/opt/x/libcontain.so";
	ck_assert_int_eq(ct_policy_load(p, 1 << 20, &e, err, sizeof(err)), 0);
	/* the root is its real path, not the link it was given as */
	ck_assert_str_eq(p->trees[0].path, fx.root);
	snprintf(want, sizeof(want), "CONTAIN_ROOT=%s", fx.root);
	for (i = 0; i < p->nenv; i++) {
		if (!strcmp(p->env[i], want))
			have_root = 1;
		if (!strcmp(p->env[i], "LD_PRELOAD=/opt/x/libcontain.so:/other/lib.so"))
			have_preload = 1;
	}
	ck_assert_msg(have_root, "snapshot lacks %s", want);
	ck_assert_msg(have_preload, "snapshot lacks the library (by its absolute path) first in LD_PRELOAD");
	snprintf(want, sizeof(want), "%s/.env", fx.root);
	for (i = 0; i < p->ndeny; i++)
		if (!strcmp(p->deny[i].s, want))
			have_deny = 1;
	ck_assert_msg(have_deny, "deny entry %s missing", want);
	/* the symlink the root was given through is an alias */
	ck_assert_int_ge(p->nalias, 1);
	ck_assert_str_eq(p->alias[0].to, "root");
	/* a deny entry below the root takes the root off the fast path */
	ck_assert_int_eq(p->trees[0].fast, 0);
	munmap(p, 1 << 20);
}
END_TEST

/* The first process hands its resolved policy to children: they must get
 * the same trees, aliases and deny entries, and ignore a record that does
 * not match their CONTAIN_* values. */
START_TEST(policy_round_trips_through_contain_policy)
{
	struct ct_policy *p = mmap(NULL, 1 << 20, PROT_READ | PROT_WRITE,
				   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	struct ct_policy *c = mmap(NULL, 1 << 20, PROT_READ | PROT_WRITE,
				   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	char err[512], read[700], tmp[700];
	const char *ser = NULL;
	struct ct_env e;
	int i;

	snprintf(read, sizeof(read), "%s", fx.ro);
	snprintf(tmp, sizeof(tmp), "%s/outside", fx.base);
	memset(&e, 0, sizeof(e));
	e.root = fx.root;
	e.read = read;
	e.deny = ".env";
	e.log = "off";
	e.tmpdir = tmp;
	e.self_path = "/opt/x/libcontain.so";
	ck_assert_int_eq(ct_policy_load(p, 1 << 20, &e, err, sizeof(err)), 0);
	for (i = 0; i < p->nenv; i++)
		if (!strncmp(p->env[i], "CONTAIN_POLICY=", 15))
			ser = p->env[i] + 15;
	ck_assert_ptr_nonnull(ser);

	/* the child sees exactly the snapshot: it parses, no system call */
	e.serialized = ser;
	ck_assert_int_eq(ct_policy_load(c, 1 << 20, &e, err, sizeof(err)), 0);
	ck_assert_int_eq(c->ntrees, p->ntrees);
	for (i = 0; i < p->ntrees; i++) {
		ck_assert_str_eq(c->trees[i].path, p->trees[i].path);
		ck_assert_int_eq(c->trees[i].acc, p->trees[i].acc);
		ck_assert_int_eq(c->trees[i].kind, p->trees[i].kind);
		ck_assert_int_eq(c->trees[i].fast, p->trees[i].fast);
	}
	ck_assert_int_eq(c->nalias, p->nalias);
	ck_assert_int_eq(c->ndeny, p->ndeny);
	for (i = 0; i < p->ndeny; i++)
		ck_assert_str_eq(c->deny[i].s, p->deny[i].s);
	ck_assert_str_eq(c->tmpdir, p->tmpdir);

	/* CONTAIN_READ changed behind the record's back: resolved afresh */
	e.read = NULL;
	ck_assert_int_eq(ct_policy_load(c, 1 << 20, &e, err, sizeof(err)), 0);
	ck_assert_int_eq(c->ntrees, p->ntrees - 1);
	/* a damaged record is not trusted either */
	e.read = read;
	e.serialized = "1:0000000000000000T7d5:/tmp/";
	ck_assert_int_eq(ct_policy_load(c, 1 << 20, &e, err, sizeof(err)), 0);
	ck_assert_int_eq(c->ntrees, p->ntrees);
	munmap(p, 1 << 20);
	munmap(c, 1 << 20);
}
END_TEST

/* The exec check's verdict on the running program's loader, asked once at
 * a full load with the trees already resolved, travels in CONTAIN_POLICY
 * (an L record); a child takes it without asking again. */
static int interp_asked;

static int interp_holds = -1;

static const char *interp_yes(const struct ct_policy *p, int kernel_holds)
{
	interp_asked++;
	interp_holds = kernel_holds;
	return p->ntrees > 0 ? "/lib64/ld-linux-x86-64.so.2" : NULL;
}

static const char *interp_no(const struct ct_policy *p, int kernel_holds)
{
	(void)p;
	(void)kernel_holds;
	interp_asked++;
	return NULL;
}

START_TEST(verified_interp_travels_with_the_policy)
{
	struct ct_policy *p = mmap(NULL, 1 << 20, PROT_READ | PROT_WRITE,
				   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	struct ct_policy *c = mmap(NULL, 1 << 20, PROT_READ | PROT_WRITE,
				   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	char err[512];
	const char *ser = NULL;
	struct ct_env e;
	int i;

	memset(&e, 0, sizeof(e));
	e.root = fx.root;
	e.log = "off";
	e.verified_interp = interp_yes;
	interp_asked = 0;
	ck_assert_int_eq(ct_policy_load(p, 1 << 20, &e, err, sizeof(err)), 0);
	ck_assert_int_eq(interp_asked, 1);
	ck_assert_int_eq(interp_holds, 0);	/* what the caller said passes through */
	ck_assert_str_eq(p->interp, "/lib64/ld-linux-x86-64.so.2");
	for (i = 0; i < p->nenv; i++)
		if (!strncmp(p->env[i], "CONTAIN_POLICY=", 15))
			ser = p->env[i] + 15;
	ck_assert_ptr_nonnull(ser);
	ck_assert_ptr_nonnull(strstr(ser, "L27:/lib64/ld-linux-x86-64.so.2"));

	e.serialized = ser;
	ck_assert_int_eq(ct_policy_load(c, 1 << 20, &e, err, sizeof(err)), 0);
	ck_assert_int_eq(c->inherited, 1);
	ck_assert_int_eq(interp_asked, 1);	/* the child does not ask */
	ck_assert_str_eq(c->interp, "/lib64/ld-linux-x86-64.so.2");

	/* a relative interpreter in a record: the record is not trusted */
	{
		char bad[4096];

		snprintf(bad, sizeof(bad), "%sL4:a/ld", ser);
		e.serialized = bad;
		ck_assert_int_eq(ct_policy_load(c, 1 << 20, &e, err, sizeof(err)), 0);
		ck_assert_int_eq(c->inherited, 0);
		ck_assert_int_eq(interp_asked, 2);
	}

	e.serialized = NULL;
	e.kernel_holds = 1;
	ck_assert_int_eq(ct_policy_load(p, 1 << 20, &e, err, sizeof(err)), 0);
	ck_assert_int_eq(interp_holds, 1);
	e.kernel_holds = 0;

	/* not verified: nothing recorded, nothing for a child to trust */
	e.verified_interp = interp_no;
	ck_assert_int_eq(ct_policy_load(p, 1 << 20, &e, err, sizeof(err)), 0);
	ck_assert_ptr_null(p->interp);
	for (i = 0; i < p->nenv; i++)
		if (!strncmp(p->env[i], "CONTAIN_POLICY=", 15))
			ck_assert_ptr_null(strstr(p->env[i], "L27:"));
	munmap(p, 1 << 20);
	munmap(c, 1 << 20);
}
END_TEST

/*
 * A read entry behind links is the tree at its real path (what realpath(3)
 * says), and each link on the way is an alias; one that leads nowhere is
 * skipped. Relative, absolute and chained links, a ".." in a link's text
 * (taken the slow way), a link to a file, a link in the middle of a path.
 * (Targets outside the root: a tree inside it would be dropped as redundant.)
 */
/* A policy of root, read and deny entries alone: no defaults, no log. */
static void load_plain(struct ct_policy *p, const char *root, const char *read, const char *deny)
{
	struct ct_env e;
	char err[512];

	memset(&e, 0, sizeof(e));
	e.root = root;
	e.read = read;
	e.deny = deny;
	e.log = "off";
	e.no_defaults = 1;
	ck_assert_msg(ct_policy_load(p, 1 << 20, &e, err, sizeof(err)) == 0, "%s", err);
}

static const struct {
	const char *name;
	const char *links[3][2];	/* link name in the base -> text (%R %B) */
	const char *entry;		/* the CONTAIN_READ entry */
	int skipped;
} link_cases[] = {
	{ "relative link", { { "l-rel", "ro" } }, "%B/l-rel", 0 },
	{ "absolute link", { { "l-abs", "%B/ro" } }, "%B/l-abs", 0 },
	{ "chain of links", { { "l-c1", "l-c2" }, { "l-c2", "%B/l-c3" }, { "l-c3", "ro" } }, "%B/l-c1", 0 },
	{ "link in the middle", { { "l-mid", "lib" } }, "%B/l-mid/sub", 0 },
	{ "dotdot in the text", { { "l-dd", "root/../ro" } }, "%B/l-dd", 0 },
	{ "link to a file", { { "l-file", "ro/data.txt" } }, "%B/l-file", 0 },
	{ "link through a link's dir", { { "l-d1", "l-d2/sub" }, { "l-d2", "lib" } }, "%B/l-d1", 0 },
	{ "dangling link", { { "l-none", "nope/x" } }, "%B/l-none", 1 },
	{ "link loop", { { "l-la", "l-lb" }, { "l-lb", "l-la" } }, "%B/l-la", 1 },
};

START_TEST(read_entries_through_links_are_their_real_paths)
{
	struct ct_policy *p = mmap(NULL, 1 << 20, PROT_READ | PROT_WRITE,
				   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	char entry[700], text[700], at[700], *real;
	int i, k, found = 0, aliased = 0;

	for (k = 0; k < 3 && link_cases[_i].links[k][0]; k++) {
		snprintf(at, sizeof(at), "%s/%s", fx.base, link_cases[_i].links[k][0]);
		expand(link_cases[_i].links[k][1], text, sizeof(text));
		ck_assert_int_eq(symlink(text, at), 0);
	}
	expand(link_cases[_i].entry, entry, sizeof(entry));
	load_plain(p, fx.root, entry, NULL);
	real = realpath(entry, NULL);
	ck_assert_msg((real == NULL) == link_cases[_i].skipped, "%s: realpath disagrees with the case",
		      link_cases[_i].name);
	for (i = 0; real && i < p->ntrees; i++)
		if (!strcmp(p->trees[i].path, real))
			found = 1;
	ck_assert_msg(found == !link_cases[_i].skipped, "%s: tree %s %s", link_cases[_i].name,
		      real ? real : entry, found ? "present" : "missing");
	snprintf(at, sizeof(at), "%s/%s", fx.base, link_cases[_i].links[0][0]);
	for (i = 0; i < p->nalias; i++)
		if (!strcmp(p->alias[i].from, at))
			aliased = 1;
	ck_assert_msg(aliased == !link_cases[_i].skipped, "%s: alias for %s %s", link_cases[_i].name, at,
		      aliased ? "noted" : "missing");
	free(real);
	munmap(p, 1 << 20);
}
END_TEST

/* "/" is the empty tree (length 0) whether written as "/" or reached through
 * a link: a tree "/" of length 1 would hold nothing below it. */
START_TEST(slash_is_the_empty_tree_however_reached)
{
	struct ct_policy *p = mmap(NULL, 1 << 20, PROT_READ | PROT_WRITE,
				   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	char link[700];
	const char *ways[] = { "/", link };
	int w, i, found;

	snprintf(link, sizeof(link), "%s/to-slash", fx.base);
	ck_assert_int_eq(symlink("/", link), 0);
	for (w = 0; w < 2; w++) {
		/* as a read entry */
		load_plain(p, fx.root, ways[w], NULL);
		for (i = 0, found = 0; i < p->ntrees; i++) {
			ck_assert_msg(strcmp(p->trees[i].path, "/") != 0, "%s: a tree \"/\" of length %zu",
				      ways[w], p->trees[i].len);
			if (p->trees[i].kind == CT_TREE_DIR && p->trees[i].len == 0)
				found = 1;
		}
		ck_assert_msg(found, "%s: no empty tree", ways[w]);
		/* as the root */
		load_plain(p, ways[w], NULL, NULL);
		ck_assert_int_eq(p->trees[p->ntrees - 1].len, 0);
		ck_assert_str_eq(p->trees[p->ntrees - 1].path, "");
	}
	munmap(p, 1 << 20);
}
END_TEST

/* Deny entries are kept by real path, however they were written. */
START_TEST(deny_entries_are_canonical)
{
	struct ct_policy *p = mmap(NULL, 1 << 20, PROT_READ | PROT_WRITE,
				   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	char deny[2000], want[4][700], l[700];
	int i, k, found;

	snprintf(l, sizeof(l), "%s/root/pointer", fx.base);
	ck_assert_int_eq(symlink("secrets", l), 0);
	/* through the root's symlink, with a missing parent; a symlink entry;
	 * a relative entry */
	snprintf(deny, sizeof(deny), "%s/root-link/missing/dir/key:%s/root/pointer:.env",
		 fx.base, fx.base);
	snprintf(want[0], sizeof(want[0]), "%s/missing/dir/key", fx.root);
	snprintf(want[1], sizeof(want[1]), "%s/pointer", fx.root);
	snprintf(want[2], sizeof(want[2]), "%s/secrets", fx.root);	/* the link's target */
	snprintf(want[3], sizeof(want[3]), "%s/.env", fx.root);
	load_plain(p, fx.root, NULL, deny);
	for (k = 0; k < 4; k++) {
		found = 0;
		for (i = 0; i < p->ndeny; i++)
			found |= !strcmp(p->deny[i].s, want[k]);
		ck_assert_msg(found, "deny entry %s missing", want[k]);
	}
	munmap(p, 1 << 20);
}
END_TEST

Suite *policy_suite(void)
{
	Suite *s = suite_create("policy");
	TCase *tc = tcase_create("load");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_loop_test(tc, policy_load_table, 0, sizeof(cases) / sizeof(cases[0]));
	tcase_add_test(tc, policy_records_real_paths_snapshot_and_deny);
	tcase_add_test(tc, policy_round_trips_through_contain_policy);
	tcase_add_test(tc, verified_interp_travels_with_the_policy);
	tcase_add_test(tc, deny_entries_are_canonical);
	tcase_add_test(tc, slash_is_the_empty_tree_however_reached);
	tcase_add_loop_test(tc, read_entries_through_links_are_their_real_paths, 0,
			    sizeof(link_cases) / sizeof(link_cases[0]));
	suite_add_tcase(s, tc);
	return s;
}
