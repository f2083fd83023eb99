/*
 * fixture.c: a tree with every shape of symlink the resolver must handle.
 *
 * BASE/root/                      the writable root
 *   file.txt  ("inside")  sub/a.txt  sub/deep/b.txt  .env  secrets/key
 *   link-in -> file.txt           link-abs-in -> BASE/root/file.txt
 *   link-out -> ../outside/secret.txt      link-abs-out -> BASE/outside/secret.txt
 *   link-missing-out -> ../outside/missing.txt
 *   chain1 -> chain2 -> link-out  loop1 <-> loop2
 *   dirlink -> sub                dirlink-out -> ../outside
 *   ro-link -> BASE/ro/data.txt   evil-link -> ../root-evil/secret.txt
 *   dangling -> new.txt           dangling-out -> ../outside/new.txt
 *   dotdot-link -> sub/..         up -> ..
 * BASE/root-evil/secret.txt       a sibling whose name extends the root's
 * BASE/outside/secret.txt ("OUTSIDE")
 * BASE/ro/data.txt ("ro")          a read-only tree
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include "unit.h"

static void put(const char *dir, const char *name, const char *text)
{
	char p[600];
	FILE *f;

	snprintf(p, sizeof(p), "%s/%s", dir, name);
	f = fopen(p, "w");
	ck_assert_ptr_nonnull(f);
	fputs(text, f);
	fclose(f);
}

static void ln(const char *dir, const char *name, const char *target)
{
	char p[600];

	snprintf(p, sizeof(p), "%s/%s", dir, name);
	ck_assert_int_eq(symlink(target, p), 0);
}

static void md(const char *dir, const char *name)
{
	char p[600];

	snprintf(p, sizeof(p), "%s/%s", dir, name);
	ck_assert_int_eq(mkdir(p, 0755), 0);
}

void fixture_make(struct fixture *f)
{
	char t[700];
	char *real;

	snprintf(f->base, sizeof(f->base), "/tmp/ct-unit-XXXXXX");
	ck_assert_ptr_nonnull(mkdtemp(f->base));
	real = realpath(f->base, NULL);
	snprintf(f->base, sizeof(f->base), "%s", real);
	free(real);
	snprintf(f->root, sizeof(f->root), "%s/root", f->base);
	snprintf(f->outside, sizeof(f->outside), "%s/outside", f->base);
	snprintf(f->ro, sizeof(f->ro), "%s/ro", f->base);
	snprintf(f->evil, sizeof(f->evil), "%s/root-evil", f->base);
	md(f->base, "root");
	md(f->base, "outside");
	md(f->base, "ro");
	md(f->base, "root-evil");
	put(f->root, "file.txt", "inside\n");
	md(f->root, "sub");
	put(f->root, "sub/a.txt", "a\n");
	md(f->root, "sub/deep");
	put(f->root, "sub/deep/b.txt", "b\n");
	put(f->root, ".env", "TOKEN=1\n");
	md(f->root, "secrets");
	put(f->root, "secrets/key", "k\n");
	put(f->outside, "secret.txt", "OUTSIDE\n");
	put(f->ro, "data.txt", "ro\n");
	put(f->evil, "secret.txt", "OUTSIDE\n");
	ln(f->root, "link-in", "file.txt");
	snprintf(t, sizeof(t), "%s/file.txt", f->root);
	ln(f->root, "link-abs-in", t);
	ln(f->root, "link-out", "../outside/secret.txt");
	snprintf(t, sizeof(t), "%s/secret.txt", f->outside);
	ln(f->root, "link-abs-out", t);
	ln(f->root, "link-missing-out", "../outside/missing.txt");
	ln(f->root, "chain1", "chain2");
	ln(f->root, "chain2", "link-out");
	ln(f->root, "loop1", "loop2");
	ln(f->root, "loop2", "loop1");
	ln(f->root, "dirlink", "sub");
	ln(f->root, "dirlink-out", "../outside");
	snprintf(t, sizeof(t), "%s/data.txt", f->ro);
	ln(f->root, "ro-link", t);
	ln(f->root, "evil-link", "../root-evil/secret.txt");
	ln(f->root, "dangling", "new.txt");
	ln(f->root, "dangling-out", "../outside/new.txt");
	ln(f->root, "dotdot-link", "sub/..");
	ln(f->root, "up", "..");
}

void fixture_free(struct fixture *f)
{
	char cmd[400];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", f->base);
	ck_assert_int_eq(system(cmd), 0);
}

#define MAPLEN (1 << 20)

struct ct_policy *fixture_policy(const struct fixture *f, const char *deny, int defaults)
{
	struct ct_env e;
	char err[512];
	struct ct_policy *p = mmap(NULL, MAPLEN, PROT_READ | PROT_WRITE,
				   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	ck_assert_ptr_ne(p, MAP_FAILED);
	memset(&e, 0, sizeof(e));
	e.root = f->root;
	e.read = f->ro;
	e.deny = deny;
	e.log = "off";
	e.no_defaults = !defaults;
	e.self_path = "/usr/lib/libcontain.so";
	if (ct_policy_load(p, MAPLEN, &e, err, sizeof(err)) != 0)
		ck_abort_msg("policy: %s", err);
	return p;
}

void policy_free(struct ct_policy *p)
{
	int i;

	for (i = 0; i < p->ntrees; i++)
		if (p->slots[i].fd >= 0)
			close(p->slots[i].fd);
	munmap(p, MAPLEN);
}
