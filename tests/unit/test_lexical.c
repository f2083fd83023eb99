/* test_lexical.c: per-component prefix logic and tree lookup (pure). */
#include <string.h>
#include "unit.h"

static const struct {
	const char *path, *prefix;
	int under;
} under_cases[] = {
	{ "/repo", "/repo", 1 },
	{ "/repo/a/b", "/repo", 1 },
	{ "/repo-evil", "/repo", 0 },		/* per component, not by string */
	{ "/repo-evil/x", "/repo", 0 },
	{ "/repox", "/repo", 0 },
	{ "/rep", "/repo", 0 },
	{ "/", "", 1 },				/* "" is the root tree "/" */
	{ "/anything", "", 1 },
	{ "", "", 1 },
	{ "/repo/%2e%2e/x", "/repo", 1 },	/* %2e%2e is an ordinary name */
	{ "/usr/lib", "/usr", 1 },
	{ "/usrlib", "/usr", 0 },
};

START_TEST(path_under_is_per_component)
{
	const char *p = under_cases[_i].path, *q = under_cases[_i].prefix;

	ck_assert_msg(ct_path_under(p, strlen(p), q, strlen(q)) == under_cases[_i].under,
		      "ct_path_under(%s, %s) != %d", p, q, under_cases[_i].under);
}
END_TEST

static struct ct_policy pol;

static void setup_policy(void)
{
	static const struct {
		const char *path;
		unsigned acc;
		int kind;
	} trees[] = {
		{ "/work/repo/vendor", CT_R | CT_X, CT_TREE_DIR },
		{ "/work/repo", CT_R | CT_W | CT_X, CT_TREE_DIR },
		{ "/dev/null", CT_R | CT_W, CT_TREE_FILE },
		{ "/usr", CT_R | CT_X, CT_TREE_DIR },
		{ "/proc/self", CT_R, CT_TREE_PROC },
	};
	size_t i;

	memset(&pol, 0, sizeof(pol));
	for (i = 0; i < sizeof(trees) / sizeof(trees[0]); i++) {
		pol.trees[i].path = trees[i].path;
		pol.trees[i].len = trees[i].kind == CT_TREE_PROC ? 0 : strlen(trees[i].path);
		pol.trees[i].acc = trees[i].acc;
		pol.trees[i].kind = (unsigned char)trees[i].kind;
	}
	pol.ntrees = (int)i;
	pol.deny[0].s = "/work/repo/.env";
	pol.deny[0].len = strlen(pol.deny[0].s);
	pol.deny[1].s = "/work/repo/secrets";
	pol.deny[1].len = strlen(pol.deny[1].s);
	pol.deny[2].s = "/proc/self/environ";
	pol.deny[2].len = strlen(pol.deny[2].s);
	pol.ndeny = 3;
}

static const struct {
	const char *path;
	int tree;	/* index in setup_policy's table, -1 none */
} tree_cases[] = {
	{ "/work/repo", 1 },
	{ "/work/repo/src/a.c", 1 },
	{ "/work/repo/vendor/lib.c", 0 },	/* innermost wins */
	{ "/work/repo-evil/x", -1 },
	{ "/work", -1 },
	{ "/dev/null", 2 },
	{ "/dev/null/x", -1 },			/* a file tree matches only itself */
	{ "/dev/zero", -1 },
	{ "/usr/bin/rg", 3 },
	{ "/proc/4242", 4 },			/* the caller's pid below */
	{ "/proc/4242/fd/3", 4 },
	{ "/proc/42420", -1 },
	{ "/proc/1", -1 },
	{ "/etc/passwd", -1 },
};

START_TEST(tree_for_finds_innermost_tree)
{
	const char *p = tree_cases[_i].path;

	ck_assert_msg(ct_tree_for(&pol, p, strlen(p), 4242) == tree_cases[_i].tree,
		      "ct_tree_for(%s) = %d, want %d", p, ct_tree_for(&pol, p, strlen(p), 4242),
		      tree_cases[_i].tree);
}
END_TEST

static const struct {
	const char *path;
	int ancestor, denied;
} anc_cases[] = {
	{ "", 1, 0 },
	{ "/work", 1, 0 },
	{ "/dev", 1, 0 },
	{ "/proc", 1, 0 },
	{ "/work/repo", 1, 0 },		/* a tree, and above the vendor tree */
	{ "/usr", 0, 0 },		/* a tree with nothing nested */
	{ "/home", 0, 0 },
	{ "/wor", 0, 0 },
	{ "/work/repo/.env", 0, 1 },
	{ "/work/repo/.envrc", 0, 0 },
	{ "/work/repo/secrets/key", 0, 1 },
	{ "/work/repo/secrets-not", 0, 0 },
	{ "/proc/4242/environ", 0, 1 },		/* /proc/self/environ for pid 4242 */
	{ "/proc/4242/environx", 0, 0 },
	{ "/proc/4243/environ", 0, 0 },		/* not self: no match (outside anyway) */
};

START_TEST(ancestors_and_deny_entries)
{
	const char *p = anc_cases[_i].path;

	ck_assert_msg(ct_is_ancestor(&pol, p, strlen(p)) == anc_cases[_i].ancestor,
		      "ct_is_ancestor(%s)", p);
	ck_assert_msg(ct_is_denied(&pol, p, strlen(p), 4242) == anc_cases[_i].denied, "ct_is_denied(%s)", p);
}
END_TEST

Suite *lexical_suite(void)
{
	Suite *s = suite_create("lexical");
	TCase *tc = tcase_create("prefix");

	tcase_add_loop_test(tc, path_under_is_per_component, 0,
			    sizeof(under_cases) / sizeof(under_cases[0]));
	tcase_add_checked_fixture(tc, setup_policy, NULL);
	tcase_add_loop_test(tc, tree_for_finds_innermost_tree, 0,
			    sizeof(tree_cases) / sizeof(tree_cases[0]));
	tcase_add_loop_test(tc, ancestors_and_deny_entries, 0,
			    sizeof(anc_cases) / sizeof(anc_cases[0]));
	suite_add_tcase(s, tc);
	return s;
}
