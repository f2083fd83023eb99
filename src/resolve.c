/*
 * resolve.c: the resolver every wrapper trusts.
 *
 * A path is opened only if its final object lies in an allowed tree:
 *
 *  1. Fast path: the path starts in a tree (lexically, or relative to a
 *     directory known to lie in one) whose subtree holds no other tree and no
 *     deny entry. The kernel then does the containment: openat2() with
 *     RESOLVE_BENEATH | RESOLVE_NO_MAGICLINKS from the tree's fd held since
 *     load. One system call, the same as the bare call; what is checked is
 *     what is opened.
 *
 *  2. Walk: anything else (absolute symlinks, `..` out of a tree, crossing
 *     trees, nested trees and deny entries, /proc). The walk keeps the
 *     lexical path of its position. Outside every tree it only moves
 *     lexically (through ancestors of trees and symlinks recorded at load)
 *     and never makes a system call: an outside path is refused with the same
 *     result whether it exists or not. Inside a tree it steps one component
 *     at a time with O_PATH | O_NOFOLLOW from the fd of the directory it is
 *     in, reads symlinks itself (so magic links are ordinary links to their
 *     text) and opens the final object with openat2(RESOLVE_NO_SYMLINKS) from
 *     its parent's fd: a symlink swapped in after the check fails with ELOOP
 *     instead of being followed.
 *
 * No malloc and no locks: the walk's buffers are one private anonymous
 * mapping, so the code is safe in signal handlers and vfork children.
 */
#include "config.h"

#include <errno.h>
#include <string.h>
#include <sys/mman.h>

#include "contain.h"
#include "sys.h"

int ct_no_openat2;

/* ------------------------------------------------------------------ */
/* lexical helpers                                                      */

CT_START_TEXT
int ct_path_under(const char *path, size_t len, const char *prefix, size_t plen)
{
	if (plen == 0)		/* the root tree "/" */
		return len == 0 || path[0] == '/';
	if (len < plen || memcmp(path, prefix, plen) != 0)
		return 0;
	return len == plen || path[plen] == '/';
}

/* The process whose /proc/<pid> is "its own" to the policy: the caller,
 * or the target the supervisor resolves for (ct_resolve_as). */
static pid_t resolve_as;

void ct_resolve_as(pid_t pid)
{
	resolve_as = pid;
}

/* Length of "/proc/<pid>" if path starts with it (pid = the caller), else 0. */
CT_START_TEXT
static size_t proc_self_prefix(const char *path, size_t len, pid_t pid)
{
	char digits[16];
	size_t n = 0, i;

	if (len < 7 || memcmp(path, "/proc/", 6) != 0 || pid <= 0)
		return 0;
	do {
		digits[n++] = (char)('0' + pid % 10);
		pid /= 10;
	} while (pid && n < sizeof(digits));
	if (len < 6 + n)
		return 0;
	for (i = 0; i < n; i++)
		if (path[6 + i] != digits[n - 1 - i])
			return 0;
	if (len > 6 + n && path[6 + n] != '/')
		return 0;
	return 6 + n;
}

static int proc_tree(const struct ct_policy *p)
{
	int i;

	for (i = 0; i < p->ntrees; i++)
		if (p->trees[i].kind == CT_TREE_PROC)
			return i;
	return -1;
}

CT_START_TEXT
int ct_tree_for(const struct ct_policy *p, const char *path, size_t len, pid_t pid)
{
	int i;

	/* trees are sorted longest first: the first match is the innermost */
	for (i = 0; i < p->ntrees; i++) {
		const struct ct_tree *t = &p->trees[i];

		if (t->kind == CT_TREE_PROC)
			continue;
		if (t->kind == CT_TREE_FILE ? (len == t->len && memcmp(path, t->path, len) == 0)
					    : ct_path_under(path, len, t->path, t->len))
			return i;
	}
	if (proc_self_prefix(path, len, pid))
		return proc_tree(p);
	return -1;
}

int ct_tree_exact(const struct ct_policy *p, const char *path, size_t len, pid_t pid)
{
	int i;

	for (i = 0; i < p->ntrees; i++) {
		const struct ct_tree *t = &p->trees[i];

		if (t->kind != CT_TREE_PROC && t->len == len && memcmp(path, t->path, len) == 0)
			return i;
	}
	if (len && proc_self_prefix(path, len, pid) == len)
		return proc_tree(p);
	return -1;
}

int ct_is_ancestor(const struct ct_policy *p, const char *path, size_t len)
{
	int i;

	for (i = 0; i < p->ntrees; i++) {
		const struct ct_tree *t = &p->trees[i];

		if (t->kind == CT_TREE_PROC) {
			if (len == 0 || (len == 5 && memcmp(path, "/proc", 5) == 0))
				return 1;
			continue;
		}
		if (t->len > len && ct_path_under(t->path, t->len, path, len))
			return 1;
	}
	return 0;
}

int ct_is_denied(const struct ct_policy *p, const char *path, size_t len, pid_t pid)
{
	size_t self = pid > 0 ? proc_self_prefix(path, len, pid) : 0;
	int i;

	for (i = 0; i < p->ndeny; i++) {
		const struct ct_str *d = &p->deny[i];

		if (ct_path_under(path, len, d->s, d->len))
			return 1;
		/* "/proc/self/..." entries follow the calling process */
		if (self && d->len >= 10 && memcmp(d->s, "/proc/self", 10) == 0 &&
		    (d->len == 10 || d->s[10] == '/') &&
		    ct_path_under(path + self, len - self, d->s + 10, d->len - 10))
			return 1;
	}
	return 0;
}

static const struct ct_alias *alias_for(const struct ct_policy *p, const char *path, size_t len)
{
	int i;

	for (i = 0; i < p->nalias; i++)
		if (p->alias[i].len == len && memcmp(p->alias[i].from, path, len) == 0)
			return &p->alias[i];
	return NULL;
}

const char *ct_reason_text(int reason)
{
	switch (reason) {
	case CT_OUTSIDE: return "outside the allowed trees";
	case CT_UNVERIFIABLE: return "could not be verified";
	case CT_DENIED: return "denied by policy (CONTAIN_DENY or a default secret)";
	case CT_READONLY: return "read-only tree";
	case CT_NOEXEC: return "not executable in its tree";
	case CT_STATIC: return "static binary cannot be contained";
	case CT_SETID: return "set-user-ID, set-group-ID or file-capability program cannot be contained";
	case CT_ABI: return "program for another ABI or libc cannot be contained";
	default: return "allowed";
	}
}

const char *ct_reason_key(int reason)
{
	switch (reason) {
	case CT_OUTSIDE: return "outside";
	case CT_UNVERIFIABLE: return "unverifiable";
	case CT_DENIED: return "denied";
	case CT_READONLY: return "readonly";
	case CT_NOEXEC: return "noexec";
	case CT_STATIC: return "static";
	case CT_SETID: return "setid";
	case CT_ABI: return "abi";
	default: return "ok";
	}
}

/* ------------------------------------------------------------------ */
/* open helpers                                                         */

/* Flags openat2() accepts; openat() silently ignores the rest. */
#define CT_VALID_OPEN_FLAGS                                                    \
	(O_ACCMODE | O_CREAT | O_EXCL | O_NOCTTY | O_TRUNC | O_APPEND |         \
	 O_NONBLOCK | O_DSYNC | O_ASYNC | O_DIRECT | O_LARGEFILE | O_DIRECTORY | \
	 O_NOFOLLOW | O_NOATIME | O_CLOEXEC | O_SYNC | O_PATH | O_TMPFILE)
#define CT_PATH_FLAGS (O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)

static void make_how(struct open_how *how, int flags, mode_t mode, unsigned long long resolve)
{
	memset(how, 0, sizeof(*how));
	flags &= CT_VALID_OPEN_FLAGS;
	if (flags & O_PATH)
		flags &= CT_PATH_FLAGS;
	how->flags = (unsigned long long)(unsigned)flags;
	if ((flags & O_CREAT) || (flags & O_TMPFILE) == O_TMPFILE)
		how->mode = mode & 07777;
	how->resolve = resolve;
}

/* The fast path: one openat2 beneath a tree (or beneath a directory in it). */
static int open_beneath(int dirfd, const char *rel, const struct ct_req *rq)
{
	struct open_how how;

	make_how(&how, rq->flags, rq->mode, RESOLVE_BENEATH | RESOLVE_NO_MAGICLINKS);
	return sys_openat2(dirfd, rel, &how);
}

/* ------------------------------------------------------------------ */
/* tree fds                                                             */

/* Open tree t's directory (a file tree: its parent) by its real path,
 * refusing symlinks: the path was real when the policy was made. */
static int open_tree(const struct ct_tree *t)
{
	char parent[512];	/* file trees are short (/dev/null); longer: refused */
	const char *path = t->len ? t->path : "/";
	struct open_how how;
	int fd;

	if (t->kind == CT_TREE_FILE) {
		size_t dl = (size_t)(t->name - 1 - t->path);

		if (dl >= sizeof(parent))
			return -1;
		memcpy(parent, t->path, dl);
		parent[dl] = 0;
		path = dl ? parent : "/";
	}
	make_how(&how, O_PATH | O_DIRECTORY | O_CLOEXEC, 0, RESOLVE_NO_SYMLINKS);
	fd = ct_no_openat2 ? -1 : sys_openat2(AT_FDCWD, path, &how);
	if (fd < 0 && (ct_no_openat2 || errno == ENOSYS))
		fd = sys_openat(AT_FDCWD, path, O_PATH | O_DIRECTORY | O_CLOEXEC, 0);
	return fd;
}

int ct_tree_fd(const struct ct_policy *p, int i, int *owned)
{
	struct ct_slot *s = &p->slots[i];
	unsigned seq = __atomic_load_n(&s->seq, __ATOMIC_ACQUIRE), want;
	unsigned long long dev, ino;
	struct stat st;
	int fd, nfd, saved = errno;

	*owned = 0;
	/* seq 0: never opened (the slots start zeroed: no page is written
	 * for them at load) */
	if (seq && !(seq & 1)) {
		fd = __atomic_load_n(&s->fd, __ATOMIC_RELAXED);
		dev = __atomic_load_n(&s->dev, __ATOMIC_RELAXED);
		ino = __atomic_load_n(&s->ino, __ATOMIC_RELAXED);
		__atomic_thread_fence(__ATOMIC_ACQUIRE);
		/* still ours? the program may have closed it, the number reused */
		if (__atomic_load_n(&s->seq, __ATOMIC_RELAXED) == seq && fd >= 0 &&
		    sys_fstatat(fd, "", &st, AT_EMPTY_PATH) == 0 && S_ISDIR(st.st_mode) &&
		    (unsigned long long)st.st_dev == dev && (unsigned long long)st.st_ino == ino) {
			errno = saved;
			return fd;
		}
	}
	nfd = open_tree(&p->trees[i]);
	if (nfd < 0 || sys_fstatat(nfd, "", &st, AT_EMPTY_PATH) < 0) {
		if (nfd >= 0)
			sys_close(nfd);
		return -1;
	}
	errno = saved;
	/* install it; a stale fd number is not ours to close any more */
	want = seq;
	if ((want & 1) || !__atomic_compare_exchange_n(&s->seq, &want, want + 1, 0,
						       __ATOMIC_ACQUIRE, __ATOMIC_RELAXED)) {
		*owned = 1;	/* another writer: use ours once */
		return nfd;
	}
	__atomic_store_n(&s->fd, nfd, __ATOMIC_RELAXED);
	__atomic_store_n(&s->dev, (unsigned long long)st.st_dev, __ATOMIC_RELAXED);
	__atomic_store_n(&s->ino, (unsigned long long)st.st_ino, __ATOMIC_RELAXED);
	__atomic_store_n(&s->seq, want + 2, __ATOMIC_RELEASE);
	return nfd;
}

/* ------------------------------------------------------------------ */
/* anchors: which tree a directory fd (or the cwd) lies in              */

#define ANCHOR_SLOTS 64

/*
 * What names a directory for the cache: device, inode and birth time. The
 * inode alone is not enough: once a directory is removed its number is
 * reused at once (ext4), possibly for a directory outside every tree.
 */
struct ident {
	unsigned long long dev, ino, bsec;
	unsigned bnsec;
};

/* 1: a directory, id filled; 0: a directory without a birth time (not
 * cacheable); -1: not a directory, or an error. */
static int dir_ident(int fd, struct ident *id)
{
	struct statx sx;

	if (syscall(SYS_statx, fd, "", AT_EMPTY_PATH, STATX_TYPE | STATX_INO | STATX_BTIME, &sx) < 0 ||
	    !S_ISDIR(sx.stx_mode))
		return -1;
	id->dev = ((unsigned long long)sx.stx_dev_major << 32) | sx.stx_dev_minor;
	id->ino = sx.stx_ino;
	id->bsec = (unsigned long long)sx.stx_btime.tv_sec;
	id->bnsec = sx.stx_btime.tv_nsec;
	return (sx.stx_mask & STATX_BTIME) ? 1 : 0;
}

struct anchor {
	unsigned seq;		/* seqlock: odd while written */
	int tree;		/* fast tree index, or -1 */
	struct ident id;
};
static struct anchor anchors[ANCHOR_SLOTS];
/*
 * Keyed by the directory's identity, checked with one statx per call: an
 * open directory (or the cwd) pins its inode, and the birth time tells a
 * reused inode number apart, so no chdir/fchdir hook is needed. A
 * directory renamed within its tree stays in it; see SECURITY.md for one
 * moved out by an outside process. Used where no record can be kept (a
 * fork child, records off); an entry is made only once a fresh resolution
 * beneath its tree has confirmed it (anchor_confirmed).
 */

static struct anchor *anchor_slot(const struct ident *id)
{
	return &anchors[(id->ino ^ (id->dev << 5) ^ id->bnsec) % ANCHOR_SLOTS];
}

static int same_ident(const struct ident *a, const struct ident *b)
{
	return a->dev == b->dev && a->ino == b->ino && a->bsec == b->bsec && a->bnsec == b->bnsec;
}

static int anchor_get(const struct ident *id)
{
	struct anchor *a = anchor_slot(id);
	unsigned s1 = __atomic_load_n(&a->seq, __ATOMIC_ACQUIRE);
	struct ident got;
	int t;

	if (s1 == 0 || (s1 & 1))
		return -2;
	got.dev = __atomic_load_n(&a->id.dev, __ATOMIC_RELAXED);
	got.ino = __atomic_load_n(&a->id.ino, __ATOMIC_RELAXED);
	got.bsec = __atomic_load_n(&a->id.bsec, __ATOMIC_RELAXED);
	got.bnsec = __atomic_load_n(&a->id.bnsec, __ATOMIC_RELAXED);
	t = __atomic_load_n(&a->tree, __ATOMIC_RELAXED);
	__atomic_thread_fence(__ATOMIC_ACQUIRE);
	if (__atomic_load_n(&a->seq, __ATOMIC_RELAXED) != s1 || !same_ident(&got, id))
		return -2;
	return t;
}

static void anchor_put(const struct ident *id, int tree)
{
	struct anchor *a = anchor_slot(id);
	unsigned s = __atomic_load_n(&a->seq, __ATOMIC_RELAXED);

	/* a writer already in there (another thread, or the code a signal
	 * handler interrupted): the cache is optional, skip */
	if ((s & 1) || !__atomic_compare_exchange_n(&a->seq, &s, s + 1, 0,
						    __ATOMIC_ACQUIRE, __ATOMIC_RELAXED))
		return;
	__atomic_store_n(&a->id.dev, id->dev, __ATOMIC_RELAXED);
	__atomic_store_n(&a->id.ino, id->ino, __ATOMIC_RELAXED);
	__atomic_store_n(&a->id.bsec, id->bsec, __ATOMIC_RELAXED);
	__atomic_store_n(&a->id.bnsec, id->bnsec, __ATOMIC_RELAXED);
	__atomic_store_n(&a->tree, tree, __ATOMIC_RELAXED);
	__atomic_store_n(&a->seq, s + 2, __ATOMIC_RELEASE);
}

/*
 * Is the directory the path names now, beneath tree t through no symlink,
 * the one identified? The identity (statx of the number) and the path
 * (its /proc/self/fd link, or getcwd) come from two lookups of a number or
 * of the cwd, which another thread may switch in between (dup2, fchdir):
 * paired unchecked, a read-only directory could be cached as lying in a
 * writable tree, for good. A fresh resolution from the tree's fd does not
 * go through the number at all.
 */
static int anchor_confirmed(const struct ct_policy *p, int t, const char *path,
			    const struct ident *id)
{
	struct open_how how = { .flags = O_PATH | O_DIRECTORY | O_CLOEXEC,
				.resolve = RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS |
					   RESOLVE_NO_MAGICLINKS };
	const char *rel = path + p->trees[t].len;
	struct ident now;
	int owned, tfd, fd, ok;

	if (p->trees[t].kind != CT_TREE_DIR)
		return 0;
	while (*rel == '/')
		rel++;
	if (!*rel)
		rel = ".";
	if ((tfd = ct_tree_fd(p, t, &owned)) < 0)
		return 0;
	fd = sys_openat2(tfd, rel, &how);
	ok = fd >= 0 && dir_ident(fd, &now) >= 0 && same_ident(&now, id);
	if (fd >= 0)
		sys_close(fd);
	if (owned)
		sys_close(tfd);
	return ok;
}

/* The lexical path of dirfd (AT_FDCWD: the cwd) into buf; its length or -1. */
static long anchor_path(int dirfd, char *buf, size_t len)
{
	long n;

	if (dirfd == AT_FDCWD) {
		n = sys_getcwd(buf, len);
		if (n <= 0 || buf[0] != '/')
			return -1;	/* unreachable or deleted cwd */
		n--;		/* drop the NUL */
	} else {
		char name[40];
		int k = 0, v = dirfd;
		char rev[12];
		int m = 0;

		memcpy(name, "/proc/self/fd/", 14);
		k = 14;
		do {
			rev[m++] = (char)('0' + v % 10);
			v /= 10;
		} while (v);
		while (m)
			name[k++] = rev[--m];
		name[k] = 0;
		n = sys_readlinkat(AT_FDCWD, name, buf, len - 1);
		if (n <= 0 || (size_t)n >= len - 1 || buf[0] != '/')
			return -1;
		buf[n] = 0;
	}
	if (n == 1)
		n = 0;		/* "/" is the empty lexical path */
	buf[n] = 0;
	return n;
}

/* ------------------------------------------------------------------ */
/* anchor records: the tree of a descriptor number or of the cwd         */

/*
 * A record is epoch * 128 + (tree + 2), 0 for none. It is filled after a
 * readlink of the number (getcwd for the cwd) has named the directory, and
 * trusted until a wrapper forgets it: close and the calls that replace a
 * number forget that number, chdir and fchdir the cwd, _exit and a resuming
 * vfork parent everything (a new epoch). A fill reads the generation before
 * its readlink and takes itself back if a forget ran meanwhile, so a close
 * racing the fill leaves no record behind. A forget of an empty slot while
 * no fill is under way (rec_filling) has nothing to retire and writes
 * nothing.
 *
 * The records live in a mapping of their own, made at the first fill and
 * wiped by the kernel in every fork child (MADV_WIPEONFORK): a child's
 * table and cwd are its own from the fork on, and what another thread of
 * the parent was doing at that instant (a fill not yet taken back, a dup2
 * between the kernel's call and its bookkeeping) must not reach it. A fork
 * child starts with no records and, not being the owner, makes none.
 */
#define REC_FDS 1024
/* defined (1) by the preloaded library only (src/interpose.c) */
extern const int ct_records_default __attribute__((weak));
static int rec_off;		/* set for good by ct_records_off */
/* > 0 while a vfork child lives (src/fd.c vfork): no fills at all */
int ct_rec_frozen;
static unsigned long long rec_epoch = 1, rec_gen, rec_cwd_gen;
struct rec_table {
	unsigned long long cwd;
	unsigned long long fd[REC_FDS];
};
#define REC_TABLE_LEN ((sizeof(struct rec_table) + 4095) & ~(size_t)4095)
/*
 * The table (NULL until the first fill), and what a forget reads before it
 * may write: fills under way (from before their generation read to after
 * their last store: a fill that began after a forget looked at the table
 * its readlink saw, one that ended before it left its record where the
 * forget looks) and one past the highest number ever filled. In .data, a
 * page every process has written already: read without a fault.
 */
static struct rec_table *rec_tab CT_START_DATA;
static int rec_filling CT_START_DATA;
static int rec_fd_max CT_START_DATA;

/* The table; with make, mapped (once) if it is not yet. NULL: none. */
static struct rec_table *rec_table(int make)
{
	struct rec_table *t = __atomic_load_n(&rec_tab, __ATOMIC_ACQUIRE), *n;

	if (t || !make)
		return t;
	n = mmap(NULL, REC_TABLE_LEN, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (n == MAP_FAILED)
		return NULL;
	/* without it (Linux before 4.14) a fork child could inherit a record
	 * half made: no records then */
	if (madvise(n, REC_TABLE_LEN, MADV_WIPEONFORK) != 0) {
		munmap(n, REC_TABLE_LEN);
		ct_records_off();
		return NULL;
	}
	if (!__atomic_compare_exchange_n(&rec_tab, &t, n, 0, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE)) {
		munmap(n, REC_TABLE_LEN);	/* another thread's is in */
		return t;
	}
	return n;
}
/*
 * 1 until a fill announces itself (2): before that no record exists and a
 * forget has nothing to do, so close and chdir write no page for the
 * records (a page fault at every start where a fault costs 10 us). In
 * .data, initialised, so that reading it faults no fresh page either. A
 * fill sets 2 before it reads the generation it checks against, so a forget
 * that ran before it saw 1 happened before the fill's readlink.
 */
static int rec_state = 1;

static int rec_maybe(void)
{
	/* the close (or dup2, chdir) this forget follows is ordered before
	 * the load without relying on the kernel's own barriers */
	__atomic_thread_fence(__ATOMIC_SEQ_CST);
	return __atomic_load_n(&rec_state, __ATOMIC_SEQ_CST) == 2;
}

static int records_on(void)
{
	return &ct_records_default && ct_records_default &&
	       !__atomic_load_n(&rec_off, __ATOMIC_SEQ_CST);
}

void ct_records_off(void)
{
	__atomic_store_n(&rec_off, 1, __ATOMIC_SEQ_CST);
	ct_forget_all();
}

/* Nothing recorded in slot, and no fill under way that could still record
 * what its number or the cwd held before: a forget has nothing to retire.
 * It then writes nothing either: a fork child's every open would otherwise
 * copy two pages of its parent's (a page fault each), and the threads of
 * one process would contend for the generation's cache line. The count is
 * read first: a fill that ended before that read stored before it. */
static int nothing_to_forget(int fd)
{
	struct rec_table *t;

	if (__atomic_load_n(&rec_filling, __ATOMIC_SEQ_CST))
		return 0;
	if (!(t = rec_table(0)))
		return 1;
	if (fd == AT_FDCWD)
		return !__atomic_load_n(&t->cwd, __ATOMIC_SEQ_CST);
	/* a number never filled: its slot's page is not even read */
	return fd >= __atomic_load_n(&rec_fd_max, __ATOMIC_SEQ_CST) ||
	       !__atomic_load_n(&t->fd[fd], __ATOMIC_SEQ_CST);
}

void ct_forget_fd(int fd)
{
	struct rec_table *t;

	if (!rec_maybe() || fd < 0 || fd >= REC_FDS || nothing_to_forget(fd))
		return;
	__atomic_add_fetch(&rec_gen, 1, __ATOMIC_SEQ_CST);
	if ((t = rec_table(0)))
		__atomic_store_n(&t->fd[fd], 0, __ATOMIC_SEQ_CST);
}

void ct_forget_fds_from(unsigned lo, unsigned hi)
{
	struct rec_table *t;
	unsigned i;

	if (!rec_maybe() || lo >= REC_FDS)
		return;
	if (hi >= REC_FDS)
		hi = REC_FDS - 1;
	__atomic_add_fetch(&rec_gen, 1, __ATOMIC_SEQ_CST);
	if ((t = rec_table(0)))
		for (i = lo; i <= hi; i++)
			__atomic_store_n(&t->fd[i], 0, __ATOMIC_SEQ_CST);
}

void ct_forget_cwd(void)
{
	struct rec_table *t;

	if (!rec_maybe() || nothing_to_forget(AT_FDCWD))
		return;
	__atomic_add_fetch(&rec_cwd_gen, 1, __ATOMIC_SEQ_CST);
	if ((t = rec_table(0)))
		__atomic_store_n(&t->cwd, 0, __ATOMIC_SEQ_CST);
}

void ct_forget_all(void)
{
	if (!rec_maybe())
		return;
	/* a new epoch retires every record at once: no loop over the table */
	__atomic_add_fetch(&rec_epoch, 1, __ATOMIC_SEQ_CST);
	__atomic_add_fetch(&rec_gen, 1, __ATOMIC_SEQ_CST);
	ct_forget_cwd();
}

/* The generation a record of dirfd (AT_FDCWD: the cwd) is filled against,
 * or NULL when none is kept for it: records off, a number outside the
 * table, or 0-2 (daemon, login_tty... dup2 onto them inside libc). */
static unsigned long long *rec_gen_for(int dirfd)
{
	if (!records_on())
		return NULL;
	if (dirfd == AT_FDCWD)
		return &rec_cwd_gen;
	return dirfd >= 3 && dirfd < REC_FDS ? &rec_gen : NULL;
}

/* The record of dirfd (AT_FDCWD: the cwd's) and its generation; with make,
 * the table is mapped if need be. NULL: none can be kept. */
static unsigned long long *rec_slot(int dirfd, unsigned long long **gen, int make)
{
	struct rec_table *t;

	if (!(*gen = rec_gen_for(dirfd)) || !(t = rec_table(make)))
		return NULL;
	return dirfd == AT_FDCWD ? &t->cwd : &t->fd[dirfd];
}

/* The recorded tree (-1: none of the fast ones), or -2: no record. */
static int rec_get(int dirfd)
{
	unsigned long long *gen, *slot = rec_slot(dirfd, &gen, 0), v;

	if (!slot || !(v = __atomic_load_n(slot, __ATOMIC_SEQ_CST)) ||
	    v / 128 != __atomic_load_n(&rec_epoch, __ATOMIC_SEQ_CST))
		return -2;
	return (int)(v % 128) - 2;
}

/*
 * Only the process that loaded the library fills records (p->owner, set at
 * load): a vfork child shares this memory but not the fd table or cwd, and
 * a fork child's table is its own from then on; both only read and forget.
 */
static int may_fill(const struct ct_policy *p)
{
	/* one system call per fill (a miss), none per hit */
	return !__atomic_load_n(&ct_rec_frozen, __ATOMIC_SEQ_CST) && p->owner &&
	       sys_getpid() == p->owner;
}

static void rec_fill(int dirfd, int tree, unsigned long long gen0)
{
	unsigned long long *gen, *slot = rec_slot(dirfd, &gen, 1);

	if (!slot || __atomic_load_n(gen, __ATOMIC_SEQ_CST) != gen0)
		return;
	/* asked again: a vfork may have begun since the fill did */
	if (__atomic_load_n(&ct_rec_frozen, __ATOMIC_SEQ_CST))
		return;
	/* raised before the store, so a forget that sees the record's count
	 * below it finds no record (and one that sees the store sees this) */
	if (dirfd >= 0) {
		int m = __atomic_load_n(&rec_fd_max, __ATOMIC_SEQ_CST);

		while (m < dirfd + 1 &&
		       !__atomic_compare_exchange_n(&rec_fd_max, &m, dirfd + 1, 0, __ATOMIC_SEQ_CST,
						    __ATOMIC_SEQ_CST))
			;
	}
	__atomic_store_n(slot, __atomic_load_n(&rec_epoch, __ATOMIC_SEQ_CST) * 128 +
			 (unsigned long long)(tree + 2), __ATOMIC_SEQ_CST);
	if (__atomic_load_n(gen, __ATOMIC_SEQ_CST) != gen0)
		__atomic_store_n(slot, 0, __ATOMIC_SEQ_CST);	/* a forget ran: take it back */
}

/* The fast tree the lexical path lies in, or -1. */
static int path_tree(const struct ct_policy *p, const char *buf, long n)
{
	int t = n >= 0 ? ct_tree_for(p, buf, (size_t)n, 0) : -1;

	return t >= 0 && p->trees[t].fast ? t : -1;
}

int ct_anchor_tree(const struct ct_policy *p, int dirfd)
{
	struct ident id;
	char buf[1024];
	unsigned long long *gen, gen0;
	int t, cacheable, unsure = 0;

	if ((t = rec_get(dirfd)) != -2)
		return t;
	/*
	 * The owner keeps a record of the number (or the cwd): one readlink
	 * (getcwd) names the directory, and the generation takes the record
	 * back should the number change meanwhile. A number that is not a
	 * directory gets the tree of its path, and the kernel's ENOTDIR for
	 * anything relative to it. Only the owner fills: a fork or vfork
	 * child reads and forgets.
	 */
	if ((gen = rec_gen_for(dirfd)) && may_fill(p)) {
		__atomic_add_fetch(&rec_filling, 1, __ATOMIC_SEQ_CST);
		if (!rec_maybe())
			__atomic_store_n(&rec_state, 2, __ATOMIC_SEQ_CST);
		gen0 = __atomic_load_n(gen, __ATOMIC_SEQ_CST);
		t = path_tree(p, buf, anchor_path(dirfd, buf, sizeof(buf)));
		rec_fill(dirfd, t, gen0);
		__atomic_sub_fetch(&rec_filling, 1, __ATOMIC_SEQ_CST);
		return t;
	}
	/* otherwise the cache by the directory's identity: one statx a call */
	cacheable = dir_ident(dirfd, &id);
	if (cacheable < 0)
		return -1;
	if (cacheable && (t = anchor_get(&id)) != -2)
		return t;
	t = path_tree(p, buf, anchor_path(dirfd, buf, sizeof(buf)));
	/* the identity and the path may be of two directories */
	if (t >= 0 && !anchor_confirmed(p, t, buf, &id)) {
		t = -1;
		unsure = 1;
	}
	/* an unconfirmed pair is not kept (-1 only costs speed, but a rename
	 * under way would slow that directory for good) */
	if (cacheable && !unsure)
		anchor_put(&id, t);
	return t;
}

/* ------------------------------------------------------------------ */
/* the walk                                                             */

#define SCRATCH_LEN (2 * CT_PATH_BUDGET + 8192)

struct walk {
	const struct ct_policy *p;
	const struct ct_req *rq;
	struct ct_verdict *v;
	char *lex;		/* lexical path of the position ("" = /) */
	size_t lexlen;
	char *restbuf;		/* pending path, right-aligned in restbuf */
	char *rest;
	char *link;		/* readlink buffer */
	char *final;		/* final component (+ trailing slash) */
	int curfd;		/* fd of the position when in a tree */
	int own;		/* curfd is ours to close */
	int tree;		/* tree of the position, -1 outside every tree */
	int links;
	pid_t pid;
};

static void set_fd(struct walk *w, int fd, int own)
{
	if (w->own && w->curfd >= 0)
		sys_close(w->curfd);
	w->curfd = fd;
	w->own = own;
}

static void keep_resolved(struct walk *w, const char *extra, size_t elen)
{
	size_t n = w->lexlen, room = sizeof(w->v->resolved) - 1;
	char *r = w->v->resolved;

	if (n > room)
		n = room;
	memcpy(r, w->lex, n);
	if (elen && n < room) {
		r[n++] = '/';
		if (elen > room - n)
			elen = room - n;
		memcpy(r + n, extra, elen);
		n += elen;
	}
	if (n == 0)
		r[n++] = '/';
	r[n] = 0;
}

static int deny(struct walk *w, int reason, const char *detail, const char *extra, size_t elen)
{
	w->v->reason = reason;
	w->v->detail = detail;
	keep_resolved(w, extra, elen);
	errno = EACCES;
	return -1;
}

/* Put text in front of the pending path (a symlink's target). */
static int splice_text(struct walk *w, const char *text, size_t len)
{
	if (len + 1 > (size_t)(w->rest - w->restbuf))
		return -1;
	if (*w->rest && *w->rest != '/') {
		*--w->rest = '/';
	}
	w->rest -= len;
	memcpy(w->rest, text, len);
	return 0;
}

/*
 * Without openat2: open rel below anchor one real directory at a time
 * (O_NOFOLLOW | O_DIRECTORY: a symlink swapped in fails). tmp holds a name.
 */
static int open_real_dirs(int anchor, const char *rel, char *tmp)
{
	int fd = sys_openat(anchor, ".", O_PATH | O_DIRECTORY | O_CLOEXEC, 0);

	while (fd >= 0 && *rel) {
		const char *e = rel;
		int next;

		while (*e && *e != '/')
			e++;
		if (e - rel > 255) {
			sys_close(fd);
			return -1;
		}
		memcpy(tmp, rel, (size_t)(e - rel));
		tmp[e - rel] = 0;
		next = sys_openat(fd, tmp, O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC, 0);
		sys_close(fd);
		fd = next;
		rel = *e ? e + 1 : e;
	}
	return fd;
}

/* The position (a directory the walk stands in, or the directory of a
 * symlink it reads) lies in a writable tree: noted in the verdict. */
static void note_position(struct walk *w)
{
	if (w->tree >= 0 && (w->p->trees[w->tree].acc & CT_W))
		w->v->via_writable = 1;
}

/* Move the position to the lexical path w->lex[0..len) after a `..`. */
static int reposition(struct walk *w)
{
	const struct ct_policy *p = w->p;
	int t = ct_tree_for(p, w->lex, w->lexlen, w->pid);
	const struct ct_tree *tr;
	struct open_how how;
	int anchor, fd, owned = 0;
	const char *rel;

	if (t < 0) {		/* back among the ancestors of the trees */
		set_fd(w, -1, 0);
		w->tree = -1;
		return 0;
	}
	tr = &p->trees[t];
	w->tree = t;
	note_position(w);
	if (tr->kind == CT_TREE_DIR && w->lexlen == tr->len) {
		fd = ct_tree_fd(p, t, &owned);
		if (fd < 0)
			return -1;
		set_fd(w, fd, owned);
		return 0;
	}
	if (tr->kind == CT_TREE_PROC) {
		anchor = sys_openat(AT_FDCWD, "/proc", O_PATH | O_DIRECTORY | O_CLOEXEC, 0);
		owned = 1;
		rel = w->lex + 6;	/* "<pid>/..." below /proc */
	} else {
		anchor = ct_tree_fd(p, t, &owned);
		rel = w->lex + tr->len + 1;
	}
	if (anchor < 0)
		return -1;
	make_how(&how, O_PATH | O_DIRECTORY | O_CLOEXEC, 0,
		 RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS | RESOLVE_NO_MAGICLINKS);
	fd = ct_no_openat2 ? -1 : sys_openat2(anchor, rel, &how);
	if (fd < 0 && (ct_no_openat2 || errno == ENOSYS))
		fd = open_real_dirs(anchor, rel, w->final);
	if (owned) {
		int e = errno;

		sys_close(anchor);
		errno = e;
	}
	if (fd < 0)
		return -1;
	set_fd(w, fd, 1);
	return 0;
}

static int pid_text(pid_t v, char *out)
{
	char rev[12];
	int m = 0, k = 0;

	do {
		rev[m++] = (char)('0' + v % 10);
		v /= 10;
	} while (v);
	while (m)
		out[k++] = rev[--m];
	return k;
}

/* The final open, from the directory that holds the final object. */
static int final_open(struct walk *w, int dirfd, const char *name, int magic)
{
	const struct ct_req *rq = w->rq;
	struct open_how how;
	int fd;

	if (magic)		/* /proc/self/fd/N on a pipe or socket: no path */
		return sys_openat(dirfd, name, rq->flags, rq->mode);
	make_how(&how, rq->flags, rq->mode,
		 RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS | RESOLVE_NO_MAGICLINKS);
	if (!ct_no_openat2) {
		fd = sys_openat2(dirfd, name, &how);
		if (fd >= 0 || errno != ENOSYS)
			return fd;
		ct_no_openat2 = 1;
	}
	/* Kernels before 5.6: the final component is not a symlink (the walk
	 * read it), O_NOFOLLOW keeps one swapped in from being followed. */
	if (!(rq->flags & O_PATH) || !rq->follow)
		return sys_openat(dirfd, name, rq->flags | O_NOFOLLOW, rq->mode);
	return sys_openat(dirfd, name, rq->flags | O_NOFOLLOW, rq->mode);
}

/* Access check on the tree that holds the final object. */
static int check_access(struct walk *w, int t, const char *name, size_t nlen)
{
	unsigned need = w->rq->need, acc = w->p->trees[t].acc;

	w->v->tree = t;
	if ((need & acc) == need)
		return 0;
	if ((need & CT_W) && !(acc & CT_W))
		return deny(w, CT_READONLY, NULL, name, nlen);
	return deny(w, CT_NOEXEC, NULL, name, nlen);
}

/* The final object is the directory the walk stands in. */
static int finish_self(struct walk *w)
{
	if (w->tree < 0) {
		/*
		 * A directory above a tree (/, /home, /proc): its existence is
		 * implied by the policy, so metadata calls (stat, access, O_PATH)
		 * may see it; nothing may read or change it.
		 */
		if (w->rq->need == 0 && (w->lexlen == 0 || ct_is_ancestor(w->p, w->lex, w->lexlen))) {
			struct ct_req rq = *w->rq;

			keep_resolved(w, NULL, 0);
			return sys_openat(AT_FDCWD, w->lexlen ? w->lex : "/",
					  O_PATH | O_CLOEXEC | (rq.flags & O_DIRECTORY), 0);
		}
		return deny(w, CT_OUTSIDE, NULL, NULL, 0);
	}
	if (check_access(w, w->tree, NULL, 0) < 0)
		return -1;
	keep_resolved(w, NULL, 0);
	return final_open(w, w->curfd, ".", 0);
}

static int walk(struct walk *w)
{
	const struct ct_policy *p = w->p;
	struct stat st;

	for (;;) {
		const char *comp;
		size_t clen, newlen;
		int last, trailing, follow, t, fd, owned;

		while (*w->rest == '/')
			w->rest++;
		if (!*w->rest)
			return finish_self(w);
		comp = w->rest;
		while (*w->rest && *w->rest != '/')
			w->rest++;
		clen = (size_t)(w->rest - comp);
		{
			const char *q = w->rest;

			while (*q == '/')
				q++;
			last = !*q;
		}
		trailing = last && *w->rest == '/';
		follow = !last || trailing || w->rq->follow;

		if (clen == 1 && comp[0] == '.') {
			if (last)
				return finish_self(w);
			continue;
		}
		if (clen == 2 && comp[0] == '.' && comp[1] == '.') {
			while (w->lexlen && w->lex[w->lexlen - 1] != '/')
				w->lexlen--;
			if (w->lexlen)
				w->lexlen--;
			w->lex[w->lexlen] = 0;
			if (reposition(w) < 0)
				return deny(w, CT_UNVERIFIABLE, "a directory changed during the walk", NULL, 0);
			if (last)
				return finish_self(w);
			continue;
		}

		newlen = w->lexlen + 1 + clen;
		if (newlen >= CT_PATH_BUDGET)
			return deny(w, CT_UNVERIFIABLE, "path longer than the walk's budget", comp, clen);
		/* candidate position, committed by setting lexlen */
		w->lex[w->lexlen] = '/';
		memcpy(w->lex + w->lexlen + 1, comp, clen);
		w->lex[newlen] = 0;

		if (ct_is_denied(p, w->lex, newlen, w->pid)) {
			w->lexlen = newlen;
			return deny(w, CT_DENIED, NULL, NULL, 0);
		}

		t = ct_tree_exact(p, w->lex, newlen, w->pid);

		if (w->tree < 0 && t < 0) {
			/* outside every tree: only lexical moves, no system call */
			const struct ct_alias *a = alias_for(p, w->lex, newlen);

			if (!a && w->lexlen == 5 && memcmp(w->lex, "/proc", 5) == 0 &&
			    ((clen == 4 && memcmp(comp, "self", 4) == 0) ||
			     (clen == 11 && memcmp(comp, "thread-self", 11) == 0))) {
				char txt[48];
				int k = pid_text(w->pid, txt);

				if (clen == 11) {
					memcpy(txt + k, "/task/", 6);
					k += 6;
					k += pid_text(sys_gettid(), txt + k);
				}
				w->lex[w->lexlen] = 0;
				if (++w->links > CT_MAX_LINKS || splice_text(w, txt, (size_t)k) < 0)
					return deny(w, CT_UNVERIFIABLE, "symlink budget exceeded", comp, clen);
				continue;
			}
			if (a) {
				w->lex[w->lexlen] = 0;
				if (++w->links > CT_MAX_LINKS || splice_text(w, a->to, strlen(a->to)) < 0)
					return deny(w, CT_UNVERIFIABLE, "symlink budget exceeded", comp, clen);
				if (a->to[0] == '/') {
					w->lexlen = 0;
					w->lex[0] = 0;
				}
				continue;
			}
			if (ct_is_ancestor(p, w->lex, newlen)) {
				w->lexlen = newlen;
				if (last)
					return finish_self(w);
				continue;
			}
			/* report the whole lexical path, pending components included */
			w->lexlen = newlen;
			{
				const char *r = w->rest;

				while (*r == '/')
					r++;
				return deny(w, CT_OUTSIDE, NULL, r, strlen(r));
			}
		}

		if (t >= 0 && p->trees[t].kind == CT_TREE_FILE) {
			const struct ct_tree *tr = &p->trees[t];

			w->lexlen = newlen;
			if (!last || trailing) {	/* /dev/null/x, /dev/null/ */
				errno = ENOTDIR;
				return -1;
			}
			if (check_access(w, t, NULL, 0) < 0)
				return -1;
			keep_resolved(w, NULL, 0);
			/* the file's own name from its parent's fd, nothing else there */
			fd = ct_tree_fd(p, t, &owned);
			if (fd < 0)
				return deny(w, CT_UNVERIFIABLE, "an allowed tree cannot be opened", NULL, 0);
			set_fd(w, fd, owned);
			return final_open(w, fd, tr->name, 0);
		}
		if (t >= 0 && p->trees[t].kind == CT_TREE_DIR) {
			/* a tree's root: continue from the tree's own fd */
			w->lexlen = newlen;
			w->tree = t;
			note_position(w);
			fd = ct_tree_fd(p, t, &owned);
			if (fd < 0)
				return deny(w, CT_UNVERIFIABLE, "an allowed tree cannot be opened", NULL, 0);
			set_fd(w, fd, owned);
			if (last)
				return finish_self(w);
			continue;
		}
		if (t >= 0) {	/* /proc/<this process> */
			char txt[24];
			int k;

			memcpy(txt, "/proc/", 6);
			k = 6 + pid_text(w->pid, txt + 6);
			txt[k] = 0;
			fd = sys_openat(AT_FDCWD, txt, O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC, 0);
			if (fd < 0)
				return deny(w, CT_UNVERIFIABLE, "/proc is not available", NULL, 0);
			w->lexlen = newlen;
			w->tree = t;
			set_fd(w, fd, 1);
			if (last)
				return finish_self(w);
			continue;
		}

		/* inside tree w->tree, at directory w->curfd */
		if (clen > 255) {
			w->lex[w->lexlen] = 0;
			errno = ENAMETOOLONG;
			return -1;
		}
		memcpy(w->final, comp, clen);
		w->final[clen] = 0;
		if (!follow) {
			if (check_access(w, w->tree, w->final, clen) < 0)
				return -1;
			keep_resolved(w, w->final, clen);
			w->lex[w->lexlen] = 0;
			return final_open(w, w->curfd, w->final, 0);
		}
		if (last && p->trees[w->tree].kind != CT_TREE_PROC && !ct_no_openat2 &&
		    (w->rq->need & p->trees[w->tree].acc) == w->rq->need) {
			/*
			 * The final object at once, refusing symlinks: a plain
			 * file or directory is done in one call; a symlink
			 * answers ELOOP and is read below.
			 */
			if (trailing) {
				w->final[clen] = '/';
				w->final[clen + 1] = 0;
			}
			fd = final_open(w, w->curfd, w->final, 0);
			w->final[clen] = 0;
			if (fd >= 0 || errno != ELOOP) {
				int e = errno;

				w->lex[w->lexlen] = 0;
				w->v->tree = w->tree;
				keep_resolved(w, w->final, clen);
				errno = e;
				return fd;
			}
		}
		fd = sys_openat(w->curfd, w->final, O_PATH | O_NOFOLLOW | O_CLOEXEC, 0);
		if (fd < 0) {
			int e = errno;

			w->lex[w->lexlen] = 0;
			if (e == ENOENT && last) {
				/* missing final object: the open reports ENOENT or creates */
				if (check_access(w, w->tree, w->final, clen) < 0)
					return -1;
				keep_resolved(w, w->final, clen);
				if (trailing) {
					w->final[clen] = '/';
					w->final[clen + 1] = 0;
				}
				return final_open(w, w->curfd, w->final, 0);
			}
			if (e == ENOENT || e == ENOTDIR || e == ENAMETOOLONG) {
				errno = e;
				return -1;
			}
			return deny(w, CT_UNVERIFIABLE, "a component could not be opened", w->final, clen);
		}
		if (sys_fstatat(fd, "", &st, AT_EMPTY_PATH) < 0) {
			sys_close(fd);
			w->lex[w->lexlen] = 0;
			return deny(w, CT_UNVERIFIABLE, "a component could not be examined", w->final, clen);
		}
		if (S_ISLNK(st.st_mode)) {
			ssize_t n = sys_readlinkat(fd, "", w->link, 4096);

			note_position(w);	/* the link's own directory */
			sys_close(fd);
			w->lex[w->lexlen] = 0;
			if (n <= 0 || n >= 4096)
				return deny(w, CT_UNVERIFIABLE, "a symlink could not be read", w->final, clen);
			w->link[n] = 0;
			if (++w->links > CT_MAX_LINKS)
				return deny(w, CT_UNVERIFIABLE, "too many levels of symbolic links", w->final, clen);
			if (p->trees[w->tree].kind == CT_TREE_PROC && w->link[0] != '/') {
				/* a magic link to a pipe, socket or anon inode: no path,
				 * no tree (/dev/stdout on a pipe is writable) */
				if (!last) {
					errno = ENOTDIR;
					return -1;
				}
				keep_resolved(w, w->final, clen);
				return final_open(w, w->curfd, w->final, 1);
			}
			if (splice_text(w, w->link, (size_t)n) < 0)
				return deny(w, CT_UNVERIFIABLE, "path longer than the walk's budget", w->final, clen);
			if (w->link[0] == '/') {
				w->lexlen = 0;
				w->lex[0] = 0;
				w->tree = ct_tree_exact(p, "", 0, w->pid);
				set_fd(w, -1, 0);
				if (w->tree >= 0) {
					fd = ct_tree_fd(p, w->tree, &owned);
					if (fd < 0)
						return deny(w, CT_UNVERIFIABLE, "an allowed tree cannot be opened", NULL, 0);
					set_fd(w, fd, owned);
				}
			}
			continue;
		}
		if (S_ISDIR(st.st_mode) && !last) {
			w->lexlen = newlen;
			set_fd(w, fd, 1);
			note_position(w);
			continue;
		}
		sys_close(fd);
		w->lex[w->lexlen] = 0;
		if (!last) {
			errno = ENOTDIR;
			return -1;
		}
		if (check_access(w, w->tree, w->final, clen) < 0)
			return -1;
		keep_resolved(w, w->final, clen);
		if (trailing) {
			w->final[clen] = '/';
			w->final[clen + 1] = 0;
		}
		return final_open(w, w->curfd, w->final, 0);
	}
}

/* A mapping kept for the next call (src/contain.h). */
char *ct_kept_take(struct ct_kept *k)
{
	char *m = __atomic_exchange_n(&k->slot, NULL, __ATOMIC_ACQ_REL);

	if (m)
		return m;
	m = mmap(NULL, k->len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	return m == MAP_FAILED ? NULL : m;
}

void ct_kept_give(struct ct_kept *k, char *m)
{
	char *none = NULL;

	if (!__atomic_compare_exchange_n(&k->slot, &none, m, 0, __ATOMIC_ACQ_REL, __ATOMIC_RELAXED))
		munmap(m, k->len);
}

CT_START_TEXT
void ct_kept_release(struct ct_kept *k)
{
	char *m = __atomic_exchange_n(&k->slot, NULL, __ATOMIC_ACQ_REL);

	if (m)
		munmap(m, k->len);
}

/*
 * The walk's scratch, kept for the next walk: mapping it afresh costs mmap,
 * munmap and a page fault for each page touched (some 60 us a walk where a
 * fault costs 10 us). Not on the stack: a signal handler may walk on an 8
 * KiB alternate stack. A vfork child gives it back before its exec: every
 * walk ends before the exec wrapper executes.
 */
static struct ct_kept walk_scratch = { NULL, SCRATCH_LEN };

CT_START_TEXT
void ct_scratch_release(void)
{
	ct_kept_release(&walk_scratch);
}

static int walk_from(const struct ct_policy *p, const struct ct_req *rq, struct ct_verdict *v)
{
	struct walk w;
	char *mem;
	size_t plen = strlen(rq->path);
	int fd, e;

	mem = ct_kept_take(&walk_scratch);
	if (!mem) {
		v->reason = CT_UNVERIFIABLE;
		v->detail = "out of memory";
		errno = EACCES;
		return -1;
	}
	memset(&w, 0, sizeof(w));
	w.p = p;
	w.rq = rq;
	w.v = v;
	w.lex = mem;
	w.restbuf = mem + CT_PATH_BUDGET;
	w.link = mem + 2 * CT_PATH_BUDGET;
	w.final = w.link + 4097;
	w.curfd = -1;
	w.tree = -1;
	w.pid = resolve_as ? resolve_as : sys_getpid();

	if (plen >= CT_PATH_BUDGET) {
		fd = deny(&w, CT_UNVERIFIABLE, "path longer than the walk's budget", NULL, 0);
		goto out;
	}
	w.rest = w.restbuf + CT_PATH_BUDGET - 1 - plen;
	memcpy(w.rest, rq->path, plen + 1);

	if (rq->path[0] == '/') {
		w.lexlen = 0;
		w.lex[0] = 0;
	} else {
		long n = anchor_path(rq->dirfd, w.lex, CT_PATH_BUDGET);

		if (n < 0) {
			struct stat st;

			/* not a directory fd: the kernel's answer, no path involved */
			if (rq->dirfd != AT_FDCWD &&
			    (sys_fstatat(rq->dirfd, "", &st, AT_EMPTY_PATH) < 0 || !S_ISDIR(st.st_mode))) {
				if (errno != EBADF)
					errno = ENOTDIR;
				fd = -1;
				goto out;
			}
			fd = deny(&w, CT_UNVERIFIABLE, "the starting directory has no path", NULL, 0);
			goto out;
		}
		w.lexlen = (size_t)n;
	}
	w.tree = ct_tree_for(p, w.lex, w.lexlen, w.pid);
	if (w.tree >= 0) {
		const struct ct_tree *tr = &p->trees[w.tree];

		if (rq->path[0] != '/') {
			set_fd(&w, rq->dirfd, 0);	/* the directory itself */
		} else if (tr->kind == CT_TREE_DIR) {
			int owned;

			fd = ct_tree_fd(p, w.tree, &owned);
			if (fd < 0) {
				fd = deny(&w, CT_UNVERIFIABLE, "an allowed tree cannot be opened", NULL, 0);
				goto out;
			}
			set_fd(&w, fd, owned);
		}
		if (tr->kind == CT_TREE_FILE) {
			errno = ENOTDIR;
			fd = -1;
			goto out;
		}
		if (tr->kind == CT_TREE_PROC && rq->path[0] != '/') {
			/* cwd in /proc/self: re-anchor on the pid directory */
			if (reposition(&w) < 0) {
				fd = deny(&w, CT_UNVERIFIABLE, "/proc is not available", NULL, 0);
				goto out;
			}
		}
	} else if (w.lexlen && !ct_is_ancestor(p, w.lex, w.lexlen)) {
		/* starting outside every tree: only `..` may lead back in, and it
		 * is lexical (the start is a real path from the kernel) */
	}
	fd = walk(&w);
out:
	e = errno;
	set_fd(&w, -1, 0);
	ct_kept_give(&walk_scratch, mem);
	errno = e;
	return fd;
}

/* One name, neither "..", nor holding a '/'. */
static int one_name(const char *rel)
{
	return !strchr(rel, '/') && !(rel[0] == '.' && rel[1] == '.' && !rel[2]);
}

/* Does rel climb above where it starts (lexically, by `..`)? */
static int climbs_out(const char *rel)
{
	long depth = 0;

	while (*rel) {
		const char *e = rel;

		while (*e && *e != '/')
			e++;
		if (e - rel == 2 && rel[0] == '.' && rel[1] == '.') {
			if (--depth < 0)
				return 1;
		} else if (e - rel && !(e - rel == 1 && rel[0] == '.')) {
			depth++;
		}
		while (*e == '/')
			e++;
		rel = e;
	}
	return 0;
}

/*
 * path with a leading alias (/bin -> usr/bin) replaced by its target, in buf,
 * or NULL. The alias is the link's text recorded at load.
 */
CT_START_TEXT
static const char *expand_alias(const struct ct_policy *p, const char *path, char *buf, size_t len)
{
	size_t n = strlen(path);
	int i;

	for (i = 0; i < p->nalias; i++) {
		const struct ct_alias *a = &p->alias[i];
		size_t dl = a->len, tl = strlen(a->to), k = 0;

		if (!ct_path_under(path, n, a->from, a->len))
			continue;
		if (a->to[0] != '/') {
			while (dl && a->from[dl - 1] != '/')
				dl--;
			if (dl != 1)	/* only links at the top, as /bin */
				return NULL;
			buf[k++] = '/';
		}
		if (k + tl + (n - a->len) + 1 > len)
			return NULL;
		memcpy(buf + k, a->to, tl);
		memcpy(buf + k + tl, path + a->len, n - a->len + 1);
		return buf;
	}
	return NULL;
}

CT_START_TEXT
int ct_tree_lexical(const struct ct_policy *p, const char *path, char *buf, size_t len)
{
	int t = ct_tree_for(p, path, strlen(path), 0);

	if (t < 0 && (path = expand_alias(p, path, buf, len)) != NULL)
		t = ct_tree_for(p, path, strlen(path), 0);
	return t;
}

int ct_fast_anchor(const struct ct_policy *p, int dirfd, const char *path, unsigned need,
		   const char **rel, int *tree, int *owned, char *abuf)
{
	int t, one = (need & CT_ONE_NAME) != 0;

	need &= ~CT_ONE_NAME;
	*rel = path;
	*owned = 0;
	if (ct_no_openat2)
		return -1;

	if (path[0] == '/') {
		t = ct_tree_for(p, path, strlen(path), 0);
		if (t < 0 && abuf && (path = expand_alias(p, path, abuf, CT_ALIAS_BUF)) != NULL)
			t = ct_tree_for(p, path, strlen(path), 0);
		if (t < 0 || p->trees[t].kind != CT_TREE_DIR || !p->trees[t].fast)
			return -1;
		*rel = path + p->trees[t].len;
		while (**rel == '/')
			(*rel)++;
		if (!**rel)
			*rel = ".";
		dirfd = -2;	/* the tree's fd, opened below once the rest passes */
		if (one && !one_name(*rel))
			return -1;
	} else {
		/* decided on the text first: no statx of an anchor unused */
		if (one && !one_name(path))
			return -1;
		t = ct_anchor_tree(p, dirfd);
		if (t < 0)
			return -1;
	}
	if ((p->trees[t].acc & need) != need)
		return -1;
	/* a path that climbs out lexically is decided by the walk, which makes
	 * no system call on what lies outside (not even a refused openat2) */
	if (climbs_out(*rel))
		return -1;
	if (dirfd == -2) {
		dirfd = ct_tree_fd(p, t, owned);
		if (dirfd < 0)
			return -1;
	}
	*tree = t;
	return dirfd;
}

/*
 * After a fast attempt: 1 when its answer stands (the fd, or the kernel's
 * own error inside the tree), 0 to go on (a symlink, a climb out, a rename
 * race, no openat2: the walk decides).
 */
static int fast_answer(int fd, int t, struct ct_verdict *v, int saved)
{
	if (fd >= 0) {
		v->tree = t;
		errno = saved;
		return 1;
	}
	if (errno == ENOSYS) {
		ct_no_openat2 = 1;
		return 0;
	}
	return errno != EXDEV && errno != ELOOP && errno != EAGAIN;
}

int ct_open(const struct ct_policy *p, const struct ct_req *rq, struct ct_verdict *v)
{
	const char *path = rq->path, *rel;
	int fd, saved = errno, dirfd, t = -1, owned;
	char abuf[CT_ALIAS_BUF];

	v->reason = CT_OK;
	v->tree = -1;
	v->via_writable = 0;
	v->detail = NULL;
	v->resolved[0] = 0;
	if (!path || !*path)	/* EFAULT / ENOENT from the kernel, no path */
		return sys_openat(rq->dirfd, path, rq->flags, rq->mode);

	/*
	 * An absolute path lexically in a fast tree, not climbing out: if the
	 * kernel finds no symlink on the way, the lexical decision was exact
	 * (every component a real directory), so one openat2 refusing symlinks
	 * does it, without the tree's fd. A symlink answers ELOOP: below.
	 */
	if (path[0] == '/' && !ct_no_openat2) {
		const char *fp = path;

		t = ct_tree_for(p, path, strlen(path), 0);
		/* a leading load-time alias (/bin -> usr/bin) is followed as
		 * text, as the walk does: the expanded path, if symlink-free,
		 * is opened the same way */
		if (t < 0 && (fp = expand_alias(p, path, abuf, sizeof(abuf))) != NULL)
			t = ct_tree_for(p, fp, strlen(fp), 0);
		if (t >= 0 && p->trees[t].kind == CT_TREE_DIR && p->trees[t].fast &&
		    (p->trees[t].acc & rq->need) == rq->need && !climbs_out(fp + p->trees[t].len)) {
			struct open_how how;

			make_how(&how, rq->flags, rq->mode, RESOLVE_NO_SYMLINKS | RESOLVE_NO_MAGICLINKS);
			fd = sys_openat2(AT_FDCWD, fp, &how);
			if (fast_answer(fd, t, v, saved))
				return fd;
		}
		t = -1;
	}
	dirfd = ct_fast_anchor(p, rq->dirfd, path, rq->need, &rel, &t, &owned, abuf);
	if (dirfd != -1) {
		int tries, e;

		for (tries = 0; tries < 3; tries++) {
			fd = open_beneath(dirfd, rel, rq);
			if (fd >= 0 || errno != EAGAIN)
				break;
		}
		e = errno;
		if (owned)
			sys_close(dirfd);
		errno = e;
		if (fast_answer(fd, t, v, saved))
			return fd;
	}
	fd = walk_from(p, rq, v);
	if (fd >= 0)
		errno = saved;
	return fd;
}
