/*
 * contain.h: internal interface of the policy and resolver (the convenience
 * library libcontaincore, linked into libcontain.so and the unit tests).
 */
#ifndef CONTAIN_H
#define CONTAIN_H

#include <stddef.h>
#include <sys/types.h>

/*
 * For the few variables every process writes (or reads) while it starts: in
 * .data, not .bss. The start of .bss shares .data's last page, which the
 * loader has already written (it zeroes that page's tail), so they cost no
 * page fault of their own (~10 us each on the machines measured, where a
 * trivial child's whole start-up in the library is ~100 us). Keep .data
 * under a page (size -A).
 */
#define CT_START_DATA __attribute__((section(".data")))

/*
 * For the functions every contained process runs while it starts (the
 * constructor, the snapshot's parse, the environment's check): one run of
 * code (~11 KiB with gcc) in .text.startup.*, instead of 11 pages spread over
 * the library's ~100 KiB and two or three of the kernel's 64 KiB fault-around
 * windows. GNU ld and gold place those sections together; configure asks LLD
 * to (-z keep-text-section-prefix). A trivial child's constructor measured
 * 184 -> 157 us (bench/RESULTS.md); t-exports checks the run. Some of these
 * also run per call (ct_tree_for, ct_path_under): that costs nothing there.
 */
#define CT_START_TEXT __attribute__((section(".text.startup.libcontain")))

#define CT_MAX_TREES  64
#define CT_MAX_DENY   64
#define CT_MAX_ALIAS  32
#define CT_MAX_ENV    12
#define CT_MAX_LINKS  40	/* as the kernel: more is "could not be verified" */
#define CT_PATH_BUDGET 8192	/* lexical path and pending-path budget of a walk */
#define CT_RESOLVED_MAX 512	/* resolved path kept for the report */

/* Access a tree grants and a call needs. 0 needed = metadata (any tree). */
enum { CT_R = 1, CT_W = 2, CT_X = 4 };

enum ct_tree_kind {
	CT_TREE_DIR,	/* a directory tree; its fd is an O_PATH fd on it */
	CT_TREE_FILE,	/* a single file; its fd is an O_PATH fd on its parent */
	CT_TREE_PROC,	/* /proc/<the calling process>, found at call time */
};

/*
 * A tree's fd, opened on first use and checked on every use: a program may
 * close any fd (Python's subprocess closes all of them before exec), and the
 * number may then name something else. Seqlock-protected, lock-free.
 */
struct ct_slot {
	unsigned seq;		/* odd while written */
	int fd;			/* -1 until opened */
	unsigned long long dev, ino;	/* identity of what fd must be */
};

struct ct_tree {
	const char *path;	/* real path, no trailing slash; "" is "/" */
	size_t len;
	const char *name;	/* CT_TREE_FILE: the file's name in its parent */
	unsigned acc;		/* CT_R | CT_W | CT_X */
	unsigned char kind;
	unsigned char fast;	/* no nested tree or deny entry below it */
};

struct ct_str {
	const char *s;
	size_t len;
};

struct ct_alias {
	const char *from;	/* a symlink outside every tree, e.g. "/lib" */
	size_t len;
	const char *to;		/* its text, e.g. "usr/lib" */
};

enum ct_log_mode { CT_LOG_STDERR, CT_LOG_FILE, CT_LOG_OFF };

/* Kernel layers (src/kernel.c): which are in force in this process. */
enum { CT_LAYER_LANDLOCK = 1, CT_LAYER_SECCOMP = 2, CT_LAYER_SUPERVISOR = 4 };

/* Both Landlock and the seccomp filter among layers: what runs under them
 * is held even where the preload does not load (static, foreign loader). */
static inline int ct_both_layers(unsigned layers)
{
	return (layers & (CT_LAYER_LANDLOCK | CT_LAYER_SECCOMP)) == (CT_LAYER_LANDLOCK | CT_LAYER_SECCOMP);
}

struct ct_policy {
	int active;		/* 0: opted out, every call passes through */
	int inherited;		/* taken from a parent's CONTAIN_POLICY */
	unsigned kernel;	/* CT_LAYER_* in force (inherited from the parent) */
	pid_t owner;		/* the process that loaded it: the only one filling
				 * anchor records (src/resolve.c); 0: none does */
	int ntrees, ndeny, nalias, nenv;
	struct ct_tree trees[CT_MAX_TREES];	/* longest path first */
	struct ct_str deny[CT_MAX_DENY];
	struct ct_alias alias[CT_MAX_ALIAS];
	const char *env[CT_MAX_ENV];	/* "NAME=value" put back into every exec */
	struct ct_slot *slots;	/* writable, one per tree (not in the RO mapping) */
	int log_mode;
	const char *log_path;
	const char *tmpdir;
	const char *preload;	/* LD_PRELOAD value children get */
	/* a program interpreter (PT_INTERP text) the first process verified
	 * at load: in a read-only tree, resolving inside the trees, and the
	 * loader it runs under. An exec of a program naming it needs no
	 * further look (src/exec.c). NULL: none. */
	const char *interp;
	/* string arena (the policy and its strings are one mapping) */
	char *arena;
	size_t arena_len, arena_used;
};

/* What the loader reads from the environment (all may be NULL). */
struct ct_env {
	const char *root, *read, *write, *deny, *log, *tmpdir, *optout;
	const char *preload;	/* LD_PRELOAD as loaded */
	const char *serialized;	/* CONTAIN_POLICY: a parent's resolved policy */
	const char *self_path;	/* this library's path as the loader found it */
	int create_tmpdir;	/* allowed to create a private TMPDIR */
	int no_defaults;	/* unit tests: no default read-only set */
	/* Landlock and the seccomp filter will hold this process tree (or
	 * the process exits before the program runs) */
	int kernel_holds;
	/* the running program's interpreter if it passes the exec check
	 * under the policy being built (libcontain.so's), or NULL; NULL
	 * here: nothing is recorded. kernel_holds: as above */
	const char *(*verified_interp)(const struct ct_policy *p, int kernel_holds);
};

/*
 * Build the policy. 0 on success; -1 with a one-line reason in err. A
 * CONTAIN_POLICY that matches the other variables is taken as it is (no
 * system call); otherwise every tree is opened and resolved.
 */
int ct_policy_load(struct ct_policy *p, size_t mapping_len, const struct ct_env *e,
		   char *err, size_t errlen);

/* Add NAME=value to the variables every child gets (before the policy is
 * made read-only). 0, or -1 when the policy is full. */
int ct_policy_env(struct ct_policy *p, const char *name, const char *value);

/*
 * Resolve as if the calling process were pid (0: the caller itself): its
 * /proc/<pid> is the /proc/self tree. For the contain supervisor, which is
 * single-threaded and resolves paths for the processes it serves.
 */
void ct_resolve_as(pid_t pid);

/* ---- kernel layers (src/kernel.c) ---- */

/*
 * A layer list (CONTAIN_LAYERS, contain --layers): NULL, "" or "auto" set
 * *is_auto (*want 0); "none"; or words landlock, seccomp, supervisor
 * separated by commas or spaces. -1 on any other word.
 */
int ct_layers_parse(const char *s, unsigned *want, int *is_auto);
/* The layers' names as a list ("landlock,seccomp", ... or ""): what
 * CONTAIN_KERNEL and CONTAIN_LAYERS carry. The supervisor is not named. */
const char *ct_layer_names(unsigned layers);

/* Landlock ABI version of this kernel, 0 when it has none (or it is off). */
int ct_landlock_abi(void);
/* Does this process already run under libcontain's seccomp filter? */
int ct_seccomp_present(void);
/* Install the filter (no-new-privs first; all threads). 0 or -1, err set. */
int ct_seccomp_install(char *err, size_t errlen);
/*
 * Restrict this process (and every later child) with a Landlock ruleset
 * mirroring p: trees with their rights, CONTAIN_DENY carved out of
 * read-only trees, /proc readable, the preloaded libraries readable, the
 * log writable. 0 or -1, err set. Single-threaded callers only (Landlock
 * holds the calling thread): -1 when other threads exist.
 */
int ct_landlock_apply(const struct ct_policy *p, char *err, size_t errlen);

/*
 * The fd of tree i (see struct ct_slot). *owned: the caller must close it
 * (the slot was being written by another thread). -1 when the tree cannot be
 * opened.
 */
int ct_tree_fd(const struct ct_policy *p, int i, int *owned);

/* ---- lexical helpers (pure) ---- */

/* Is path (len bytes) equal to prefix or below it, per component? */
int ct_path_under(const char *path, size_t len, const char *prefix, size_t plen);
/* Innermost tree containing path, or -1. Handles /proc/<pid>. */
int ct_tree_for(const struct ct_policy *p, const char *path, size_t len, pid_t pid);
/* Tree holding path lexically, a leading alias (/lib64) expanded into buf
 * (len bytes), or -1. */
int ct_tree_lexical(const struct ct_policy *p, const char *path, char *buf, size_t len);
/* Tree whose root is exactly path, or -1. */
int ct_tree_exact(const struct ct_policy *p, const char *path, size_t len, pid_t pid);
/* Is path a strict ancestor of some tree (traversable, not accessible)? */
int ct_is_ancestor(const struct ct_policy *p, const char *path, size_t len);
/* Is path denied by CONTAIN_DENY? (pid: the caller, for /proc/self entries) */
int ct_is_denied(const struct ct_policy *p, const char *path, size_t len, pid_t pid);

/* ---- resolution ---- */

enum ct_reason {
	CT_OK = 0,
	CT_OUTSIDE,
	CT_UNVERIFIABLE,
	CT_DENIED,
	CT_READONLY,
	CT_NOEXEC,
	CT_STATIC,
	CT_SETID,
	CT_ABI,
};

struct ct_verdict {
	int reason;		/* CT_OK when not denied by the policy */
	int tree;		/* tree holding the final object, -1 unknown */
	const char *detail;	/* for CT_UNVERIFIABLE */
	char resolved[CT_RESOLVED_MAX];	/* where known, else "" */
	int via_writable;	/* the walk passed a directory or read a symlink
				 * in a writable tree on the way: the same path
				 * can be made to lead elsewhere */
};

struct ct_req {
	int dirfd;
	const char *path;
	int flags;		/* open(2) flags of the final open */
	mode_t mode;
	unsigned need;		/* CT_R | CT_W | CT_X, 0 = metadata */
	int follow;		/* follow a final symlink */
};

/*
 * Open rq->path as the kernel would, but only if its final object lies in a
 * tree granting rq->need. Returns the fd, or -1 with errno. A policy denial
 * sets v->reason and errno = EACCES; other errors are the kernel's own.
 * No system call ever names a path outside the trees.
 */
int ct_open(const struct ct_policy *p, const struct ct_req *rq, struct ct_verdict *v);

/*
 * Where the kernel can contain path by itself: the fd to resolve it from with
 * RESOLVE_BENEATH (a fast tree's fd, or dirfd when it lies in one) and the
 * path relative to it in *rel; *tree the tree; *owned: close the fd after.
 * -1 (and *tree untouched) when the walk is needed. AT_FDCWD is a valid answer.
 */
/*
 * Anchor records (src/resolve.c): which tree a descriptor number, or the
 * cwd, lies in, kept from the first check until the number is closed or
 * replaced (or the cwd changed) through a wrapper, so that a dirfd call
 * needs no statx. On only in the preloaded library, which defines
 * ct_records_default and wraps every libc route that closes, replaces or
 * moves them (src/fd.c: close, dup2, dup3, close_range, closefrom, fclose,
 * fcloseall, closedir, endmntent, their exported aliases, daemon, _exit,
 * unshare, setns; freopen, chdir, fchdir, fts, exec). Every function is
 * async-signal-safe.
 */
/*
 * A mapping of len bytes kept for the next call instead of mmap and munmap
 * (and fresh page faults) each time: one slot, taken and given back
 * atomically; a caller that finds it empty (another thread, an interrupted
 * call under a signal handler) maps its own, and a give that finds it full
 * unmaps. Async-signal-safe. take: NULL when out of memory.
 */
struct ct_kept {
	char *slot;
	size_t len;
};
char *ct_kept_take(struct ct_kept *k);
void ct_kept_give(struct ct_kept *k, char *m);
void ct_kept_release(struct ct_kept *k);

/* Unmap the walk's kept scratch (24 KiB): after the policy is resolved at
 * load, so that only a process that walks later keeps it resident. */
void ct_scratch_release(void);

/* > 0 while a vfork child shares this memory: no record is filled */
extern int ct_rec_frozen;
/* for good: the fd table or cwd is no longer this address space's alone
 * (unshare(CLONE_FILES or CLONE_FS), close_range(CLOSE_RANGE_UNSHARE)) */
void ct_records_off(void);
void ct_forget_fd(int fd);			/* before and after it is closed or replaced */
void ct_forget_fds_from(unsigned lo, unsigned hi);	/* lo..hi, inclusive */
void ct_forget_cwd(void);			/* before and after the cwd changes */
/* everything: an exec or _exit (maybe a vfork child's, whose records would
 * otherwise outlive it in its parent's memory), a walk that closed its own */
void ct_forget_all(void);

#define CT_ALIAS_BUF 1024	/* abuf: room to expand a leading alias, or NULL */
/* in need: only a single name below the anchor will do (stat's one-name
 * fast path); anything else is -1 before any system call */
#define CT_ONE_NAME 0x100u
int ct_fast_anchor(const struct ct_policy *p, int dirfd, const char *path, unsigned need,
		   const char **rel, int *tree, int *owned, char *abuf);

/* The tree holding directory fd (AT_FDCWD: the cwd) if it is a fast tree, else -1. */
int ct_anchor_tree(const struct ct_policy *p, int dirfd);

/* Set when the kernel lacks openat2 (ENOSYS): the walk does everything. */
extern int ct_no_openat2;

/* Text for a reason (stderr form) and its JSON keyword. */
const char *ct_reason_text(int reason);
const char *ct_reason_key(int reason);

#endif
