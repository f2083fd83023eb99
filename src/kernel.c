/*
 * kernel.c: the kernel layers under the interposer.
 *
 *  - Landlock: a ruleset mirroring the policy, so that what does not pass
 *    through libc (raw system calls, static and Go binaries, io_uring's
 *    fallbacks, the dynamic loader's own opens) is held by the kernel.
 *  - seccomp: a small precompiled filter (src/gen-seccomp.c) that refuses
 *    io_uring, file handles, the mount API, foreign ABIs and system calls
 *    newer than the filter; errors only, never kill or trap.
 *
 * Both are applied once per process tree: by the first contained process
 * (or the contain launcher before it execs) and inherited by every child,
 * across fork and exec. Nothing here allocates; it runs at load.
 */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/filter.h>
#include <linux/landlock.h>
#include <linux/seccomp.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "contain.h"
#include "src/seccomp-bpf.h"
#include "src/seccomp-probe.h"
#include "sys.h"

#ifndef LANDLOCK_ACCESS_FS_REFER
#define LANDLOCK_ACCESS_FS_REFER (1ULL << 13)
#endif
#ifndef LANDLOCK_ACCESS_FS_TRUNCATE
#define LANDLOCK_ACCESS_FS_TRUNCATE (1ULL << 14)
#endif
#ifndef LANDLOCK_ACCESS_FS_IOCTL_DEV
#define LANDLOCK_ACCESS_FS_IOCTL_DEV (1ULL << 15)
#endif
#ifndef SYS_landlock_create_ruleset
#define SYS_landlock_create_ruleset 444
#define SYS_landlock_add_rule 445
#define SYS_landlock_restrict_self 446
#endif
#ifndef SECCOMP_FILTER_FLAG_SPEC_ALLOW
#define SECCOMP_FILTER_FLAG_SPEC_ALLOW (1UL << 2)
#endif

#define FS_ABI1 ((1ULL << 13) - 1)	/* EXECUTE .. MAKE_SYM */
#define FS_FILE (LANDLOCK_ACCESS_FS_EXECUTE | LANDLOCK_ACCESS_FS_WRITE_FILE | \
		 LANDLOCK_ACCESS_FS_READ_FILE | LANDLOCK_ACCESS_FS_TRUNCATE |    \
		 LANDLOCK_ACCESS_FS_IOCTL_DEV)
#define FS_READ (LANDLOCK_ACCESS_FS_READ_FILE | LANDLOCK_ACCESS_FS_READ_DIR)

CT_START_TEXT
int ct_layers_parse(const char *s, unsigned *want, int *is_auto)
{
	*want = 0;
	*is_auto = !s || !*s || !strcmp(s, "auto");
	if (*is_auto)
		return 0;
	while (*s) {
		size_t n = 0;

		/* by hand, not strcspn: children parse CONTAIN_KERNEL at start,
		 * and each libc routine first used costs a page fault */
		while (s[n] && s[n] != ',' && s[n] != ' ')
			n++;

		if (n == 4 && !strncmp(s, "none", 4))
			;
		else if (n == 8 && !strncmp(s, "landlock", 8))
			*want |= CT_LAYER_LANDLOCK;
		else if (n == 7 && !strncmp(s, "seccomp", 7))
			*want |= CT_LAYER_SECCOMP;
		else if (n == 10 && !strncmp(s, "supervisor", 10))
			*want |= CT_LAYER_SUPERVISOR;
		else if (n)
			return -1;
		s += n;
		while (*s == ',' || *s == ' ')
			s++;
	}
	return 0;
}

CT_START_TEXT
const char *ct_layer_names(unsigned layers)
{
	switch (layers & (CT_LAYER_LANDLOCK | CT_LAYER_SECCOMP)) {
	case CT_LAYER_LANDLOCK | CT_LAYER_SECCOMP: return "landlock,seccomp";
	case CT_LAYER_LANDLOCK: return "landlock";
	case CT_LAYER_SECCOMP: return "seccomp";
	default: return "";
	}
}

/* asked once per process: a first process asks at every step of its start */
static int landlock_abi_seen CT_START_DATA;	/* 0 unknown, -1 none, else the ABI */

int ct_landlock_abi(void)
{
	int v = __atomic_load_n(&landlock_abi_seen, __ATOMIC_RELAXED);

	if (v == 0) {
		long r = syscall(SYS_landlock_create_ruleset, NULL, 0, LANDLOCK_CREATE_RULESET_VERSION);

		v = r > 0 ? (int)r : -1;
		__atomic_store_n(&landlock_abi_seen, v, __ATOMIC_RELAXED);
	}
	return v > 0 ? v : 0;
}

/* The rights this kernel's Landlock knows (unknown ones would be EINVAL). */
static unsigned long long handled(int abi)
{
	unsigned long long r = FS_ABI1;

	if (abi >= 2)
		r |= LANDLOCK_ACCESS_FS_REFER;
	if (abi >= 3)
		r |= LANDLOCK_ACCESS_FS_TRUNCATE;
	if (abi >= 5)
		r |= LANDLOCK_ACCESS_FS_IOCTL_DEV;
	return r;
}

/* struct landlock_ruleset_attr as of ABI 6 (older headers lack the last
 * two fields); a kernel is given the part it knows. */
struct ct_ruleset_attr {
	unsigned long long handled_access_fs;
	unsigned long long handled_access_net;	/* ABI 4 */
	unsigned long long scoped;		/* ABI 6 */
};
#define CT_SCOPE_ABSTRACT_UNIX_SOCKET (1ULL << 0)
#define CT_SCOPE_SIGNAL (1ULL << 1)

static size_t ruleset_size(int abi)
{
	return abi >= 6 ? sizeof(struct ct_ruleset_attr) : abi >= 4 ? 16 : 8;
}

CT_START_TEXT
int ct_seccomp_present(void)
{
	long r = syscall(SYS_sched_get_priority_max, (int)CT_SECCOMP_PROBE);

	return r == -1 && errno == CT_SECCOMP_PROBE_ERRNO;
}

int ct_seccomp_install(char *err, size_t errlen)
{
	struct sock_fprog prog = { sizeof(ct_seccomp_bpf) / sizeof(ct_seccomp_bpf[0]),
				   (struct sock_filter *)ct_seccomp_bpf };

	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0) {
		snprintf(err, errlen, "seccomp: cannot set no-new-privs: %s", strerror(errno));
		return -1;
	}
	/* SPEC_ALLOW: seccomp would otherwise force the speculative store
	 * bypass mitigation on the whole tree (a filter of errors only does
	 * not need it); TSYNC: every thread, should there be any */
	if (syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER,
		    SECCOMP_FILTER_FLAG_TSYNC | SECCOMP_FILTER_FLAG_SPEC_ALLOW, &prog) != 0 &&
	    syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, SECCOMP_FILTER_FLAG_TSYNC, &prog) != 0) {
		snprintf(err, errlen, "seccomp: cannot install the filter: %s", strerror(errno));
		return -1;
	}
	return 0;
}

/* ---- Landlock ---- */

#define LL_BATCH 64

struct ll {
	int fd;			/* the ruleset */
	unsigned long long all;	/* handled rights */
	const struct ct_policy *p;
	char *path;		/* scratch, CT_PATH_BUDGET bytes */
	int rules;
	char *err;
	size_t errlen;
	/* descriptors of carved entries, closed together (one close_range
	 * for a run of numbers instead of a close each) */
	int npending;
	int pending[LL_BATCH];
	/* one mapping for every level's directory listing, used like a stack:
	 * a nested level reads into the pages its parent's listing touched */
	char *dents;
	size_t dents_used;
};

/*
 * Close the pending descriptors: each run of consecutive numbers with one
 * close_range. Only numbers this code opened are in a run (sorted first:
 * a directory closed in between leaves a hole the next open fills), and no
 * other thread opens anything meanwhile (Landlock is applied only while the
 * process has one).
 */
static void ll_flush(struct ll *l)
{
	int *v = l->pending, n = l->npending, i, j;

	for (i = 1; i < n; i++)
		for (j = i; j > 0 && v[j - 1] > v[j]; j--) {
			int t = v[j];

			v[j] = v[j - 1];
			v[j - 1] = t;
		}
	for (i = 0; i < n; i = j) {
		for (j = i + 1; j < n && v[j] == v[j - 1] + 1; j++)
			;
		if (j - i == 1 || syscall(SYS_close_range, (unsigned)v[i], (unsigned)v[j - 1], 0) != 0)
			for (int k = i; k < j; k++)
				sys_close(v[k]);
	}
	l->npending = 0;
}

static int ll_fail(struct ll *l, const char *what, const char *path, int e)
{
	snprintf(l->err, l->errlen, "Landlock: %s \"%s\": %s", what, path, strerror(e));
	return -1;
}

/*
 * One rule: rights beneath path (masked to what a file may carry when path
 * is not a directory). A path that does not exist gets no rule (nothing to
 * grant); any other error fails.
 */
static int ll_rule_at(struct ll *l, const char *path, unsigned long long rights, int nofollow)
{
	struct landlock_path_beneath_attr pb;
	struct stat st;
	int fd;

	ll_flush(l);	/* the batch never costs a descriptor another open needs */
	fd = sys_openat(AT_FDCWD, *path ? path : "/", O_PATH | O_CLOEXEC | (nofollow ? O_NOFOLLOW : 0), 0);

	if (fd < 0)
		return errno == ENOENT || errno == ENOTDIR ? 0 : ll_fail(l, "cannot open", path, errno);
	if (sys_fstatat(fd, "", &st, AT_EMPTY_PATH) != 0) {
		sys_close(fd);
		return ll_fail(l, "cannot stat", path, errno);
	}
	if (S_ISLNK(st.st_mode)) {
		/* an entry of a tree carved around a denied path: a link would
		 * grant its target (anything, the denied path too) */
		sys_close(fd);
		return 0;
	}
	if (!S_ISDIR(st.st_mode))
		rights &= FS_FILE;
	pb.allowed_access = rights & l->all;
	pb.parent_fd = fd;
	if (pb.allowed_access &&
	    syscall(SYS_landlock_add_rule, l->fd, LANDLOCK_RULE_PATH_BENEATH, &pb, 0) != 0) {
		int e = errno;

		sys_close(fd);
		return ll_fail(l, "cannot add a rule for", path, e);
	}
	sys_close(fd);
	l->rules++;
	return 0;
}

/* Tree roots, the log, the libraries: real paths from the policy. */
static int ll_rule(struct ll *l, const char *path, unsigned long long rights)
{
	return ll_rule_at(l, path, rights, 0);
}

/* Is some CONTAIN_DENY entry strictly below path (len bytes)? */
static int deny_below(const struct ct_policy *p, const char *path, size_t len)
{
	for (int i = 0; i < p->ndeny; i++)
		if (p->deny[i].len > len && ct_path_under(p->deny[i].s, p->deny[i].len, path, len))
			return 1;
	return 0;
}

static int is_denied_exactly(const struct ct_policy *p, const char *path, size_t len)
{
	for (int i = 0; i < p->ndeny; i++)
		if (p->deny[i].len == len && !memcmp(p->deny[i].s, path, len))
			return 1;
	return 0;
}

/*
 * rights beneath l->path (len bytes), minus the CONTAIN_DENY entries below
 * it: a directory holding one gets READ_DIR (its names can be listed) and
 * each of its entries gets the rights, recursively, except the denied one.
 * Only for trees the program cannot add entries to (read-only trees).
 */
/* One entry of a carved directory, typed by getdents: no stat, no path walk
 * from the root. Links grant nothing (their target could be anything). */
static int ll_rule_entry(struct ll *l, int dirfd, const char *name, unsigned char type,
			 unsigned long long rights)
{
	struct landlock_path_beneath_attr pb;
	int fd;

	if (type == DT_LNK)
		return 0;
	if (l->npending == LL_BATCH)
		ll_flush(l);
	fd = sys_openat(dirfd, name, O_PATH | O_NOFOLLOW | O_CLOEXEC, 0);
	if (fd < 0 && errno == EMFILE && l->npending) {
		/* near the descriptor limit: what the batch holds, back */
		ll_flush(l);
		fd = sys_openat(dirfd, name, O_PATH | O_NOFOLLOW | O_CLOEXEC, 0);
	}
	if (fd < 0)
		return errno == ENOENT ? 0 : ll_fail(l, "cannot open", l->path, errno);
	l->pending[l->npending++] = fd;
	pb.allowed_access = (type == DT_DIR ? rights : rights & FS_FILE) & l->all;
	pb.parent_fd = fd;
	if (pb.allowed_access && syscall(SYS_landlock_add_rule, l->fd, LANDLOCK_RULE_PATH_BENEATH, &pb, 0) != 0)
		return ll_fail(l, "cannot add a rule for", l->path, errno);
	l->rules++;
	return 0;
}

#define DENTS (256 * 1024)

static int ll_tree_minus(struct ll *l, size_t len, unsigned long long rights)
{
	int fd, r = 0;
	char *dents;
	size_t room, mine;
	long n;

	l->path[len] = 0;
	if (is_denied_exactly(l->p, l->path, len))
		return 0;
	if (!deny_below(l->p, l->path, len))
		return ll_rule_at(l, l->path, rights, 1);
	/* (ll_rule flushes the batch: the directory's descriptor next) */
	if (ll_rule(l, l->path, rights & LANDLOCK_ACCESS_FS_READ_DIR) < 0)
		return -1;
	fd = sys_openat(AT_FDCWD, len ? l->path : "/", O_RDONLY | O_DIRECTORY | O_CLOEXEC, 0);
	if (fd < 0)
		return errno == ENOENT ? 0 : ll_fail(l, "cannot read", l->path, errno);
	/* each level reads its directory whole, after its parent's listing,
	 * before descending: a directory too large for what is left fails
	 * closed */
	if (!l->dents) {
		l->dents = mmap(NULL, DENTS, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (l->dents == MAP_FAILED) {
			l->dents = NULL;
			sys_close(fd);
			return ll_fail(l, "out of memory reading", l->path, ENOMEM);
		}
	}
	dents = l->dents + l->dents_used;
	room = DENTS - l->dents_used;
	n = room < 1024 ? -E2BIG : syscall(SYS_getdents64, fd, dents, room);
	if (n > 0 && syscall(SYS_getdents64, fd, dents + n, room - (size_t)n) != 0)
		n = -E2BIG;
	if (n < 0) {
		sys_close(fd);
		return ll_fail(l, n == -E2BIG ? "too many entries to carve a denied path out of" : "cannot read",
			       l->path, n == -E2BIG ? E2BIG : errno);
	}
	mine = ((size_t)n + 7) & ~(size_t)7;
	l->dents_used += mine;
	for (long off = 0; off < n && r == 0;) {
		struct {
			unsigned long long ino;
			long long off;
			unsigned short reclen;
			unsigned char type;
			char name[];
		} *d = (void *)(dents + off);
		size_t nl = strlen(d->name);

		off += d->reclen;
		if (!strcmp(d->name, ".") || !strcmp(d->name, ".."))
			continue;
		if (len + 1 + nl + 1 > CT_PATH_BUDGET) {
			r = ll_fail(l, "path too long below", l->path, ENAMETOOLONG);
			break;
		}
		l->path[len] = '/';
		memcpy(l->path + len + 1, d->name, nl + 1);
		if ((d->type == DT_REG || d->type == DT_DIR || d->type == DT_LNK) &&
		    !is_denied_exactly(l->p, l->path, len + 1 + nl) && !deny_below(l->p, l->path, len + 1 + nl))
			/* the common case: one rule, opened from the directory */
			r = ll_rule_entry(l, fd, d->name, d->type, rights);
		else
			r = ll_tree_minus(l, len + 1 + nl, rights);
		l->path[len] = 0;
	}
	sys_close(fd);
	l->dents_used -= mine;
	ll_flush(l);
	return r;
}

/* Threads other than the caller? Landlock would not hold them. */
static int other_threads(void)
{
	char buf[4096];
	struct stat st;
	long n;
	int fd, count = 0;

	/* the task directory's link count is 2 + its threads: one stat;
	 * listing it only should a kernel not keep the count */
	if (sys_fstatat(AT_FDCWD, "/proc/self/task", &st, 0) == 0 && st.st_nlink >= 3)
		return st.st_nlink > 3;
	fd = sys_openat(AT_FDCWD, "/proc/self/task", O_RDONLY | O_DIRECTORY | O_CLOEXEC, 0);
	if (fd < 0)
		return 0;	/* no /proc: policy loading has already failed */
	while ((n = syscall(SYS_getdents64, fd, buf, sizeof(buf))) > 0)
		for (long off = 0; off < n;) {
			unsigned short reclen = *(unsigned short *)(buf + off + 16);
			const char *name = buf + off + 19;

			if (name[0] != '.')
				count++;
			off += reclen;
		}
	sys_close(fd);
	return count > 1;
}

int ct_landlock_apply(const struct ct_policy *p, char *err, size_t errlen)
{
	struct ct_ruleset_attr attr;
	struct ll l;
	int abi = ct_landlock_abi(), r = -1;
	size_t scratch = CT_PATH_BUDGET;
	char *mem;

	if (!abi) {
		snprintf(err, errlen, "Landlock: not available in this kernel");
		return -1;
	}
	if (other_threads()) {
		snprintf(err, errlen, "Landlock: the process already runs threads, which it would not hold");
		return -1;
	}
	mem = mmap(NULL, scratch, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (mem == MAP_FAILED) {
		snprintf(err, errlen, "Landlock: out of memory");
		return -1;
	}
	memset(&attr, 0, sizeof(attr));
	attr.handled_access_fs = handled(abi);
	/* ABI 6: no signals to processes outside the tree, no abstract unix
	 * sockets created outside it (D-Bus, X11, agents) */
	if (abi >= 6)
		attr.scoped = CT_SCOPE_ABSTRACT_UNIX_SOCKET | CT_SCOPE_SIGNAL;
	memset(&l, 0, sizeof(l));
	l.all = attr.handled_access_fs;
	l.p = p;
	l.path = mem;
	l.err = err;
	l.errlen = errlen;
	l.fd = (int)syscall(SYS_landlock_create_ruleset, &attr, ruleset_size(abi), 0);
	if (l.fd < 0) {
		snprintf(err, errlen, "Landlock: cannot create a ruleset: %s", strerror(errno));
		goto out;
	}
	for (int i = 0; i < p->ntrees; i++) {
		const struct ct_tree *t = &p->trees[i];
		unsigned long long rights;

		if (t->kind == CT_TREE_PROC)
			continue;	/* /proc below */
		if (t->acc & CT_W)
			rights = l.all;
		else
			rights = FS_READ | ((t->acc & CT_X) ? LANDLOCK_ACCESS_FS_EXECUTE : 0);
		if (t->len >= CT_PATH_BUDGET)
			goto out;
		memcpy(l.path, t->path, t->len);
		l.path[t->len] = 0;
		if (t->acc & CT_W) {
			/* the program can add entries here: a denied path inside
			 * stays the interposer's (SECURITY.md) */
			if (ll_rule(&l, l.path, rights) < 0)
				goto out;
		} else if (ll_tree_minus(&l, t->len, rights) < 0) {
			goto out;
		}
	}
	/* /proc as a whole, read-only: /proc/self is another directory in
	 * every process, and a rule follows inodes, not names */
	if (ll_rule(&l, "/proc", FS_READ) < 0)
		goto out;
	/* POSIX shared memory and semaphores (glibc opens /dev/shm/NAME): the
	 * interposer gives each root its own names; the kernel layer grants
	 * the files, not the listing */
	if (ll_rule(&l, "/dev/shm", LANDLOCK_ACCESS_FS_READ_FILE | LANDLOCK_ACCESS_FS_WRITE_FILE |
			LANDLOCK_ACCESS_FS_TRUNCATE | LANDLOCK_ACCESS_FS_MAKE_REG |
			LANDLOCK_ACCESS_FS_REMOVE_FILE) < 0)
		goto out;
	/* the preloaded libraries, which the loader opens in every child */
	for (const char *s = p->preload; s && *s;) {
		size_t n = strcspn(s, ": ");

		if (n && n < CT_PATH_BUDGET && s[0] == '/') {
			memcpy(l.path, s, n);
			l.path[n] = 0;
			if (ll_rule(&l, l.path, LANDLOCK_ACCESS_FS_READ_FILE) < 0)
				goto out;
		}
		s += n;
		s += strspn(s, ": ");
	}
	/* the log: created now, then writable (appended to) by our reports */
	if (p->log_mode == CT_LOG_FILE && p->log_path) {
		int fd = sys_openat(AT_FDCWD, p->log_path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0600);

		if (fd >= 0)
			sys_close(fd);
		if (ll_rule(&l, p->log_path, LANDLOCK_ACCESS_FS_WRITE_FILE) < 0)
			goto out;
	}
	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0) {
		snprintf(err, errlen, "Landlock: cannot set no-new-privs: %s", strerror(errno));
		goto out;
	}
	if (syscall(SYS_landlock_restrict_self, l.fd, 0) != 0) {
		snprintf(err, errlen, "Landlock: cannot restrict the process: %s%s", strerror(errno),
			 errno == E2BIG ? " (16 nested rulesets already)" : "");
		goto out;
	}
	r = 0;
out:
	if (r < 0 && !err[0])
		snprintf(err, errlen, "Landlock: a path of the policy is too long");
	ll_flush(&l);
	if (l.dents)
		munmap(l.dents, DENTS);
	if (l.fd >= 0)
		sys_close(l.fd);
	munmap(mem, scratch);
	return r;
}
