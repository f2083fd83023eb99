/* interpose.h: state shared by the wrappers (interpose.c, exec.c). */
#ifndef CONTAIN_INTERPOSE_H
#define CONTAIN_INTERPOSE_H

#include "contain.h"

/* Exported names are the table's (src/symbols.def) and the documented API. */
#define API __attribute__((visibility("default")))

/*
 * The policy, loading it on first use (a constructor of another library may
 * call a wrapper before ours runs). NULL when a signal handler re-entered the
 * loader on the thread that is running it: callers fail closed with EACCES.
 */
const struct ct_policy *ct_policy(void);

/* getenv without libc's (src/interpose.c), of environ or of envp: used at
 * every start and by the exec wrappers */
const char *ct_env_in(char *const envp[], const char *name);
const char *ct_env_value(const char *name);

/* ptr == NULL, out of line: glibc declares some path arguments nonnull and
 * programs pass NULL all the same (src/exec.c). */
int ct_is_null(const void *ptr);

/* Filter and restore the policy variables in this process's environ
 * (system, popen: glibc spawns /bin/sh with environ). */
void ct_repair_environ(const struct ct_policy *p);
/* The running program's interpreter (PT_INTERP) when it passes the exec
 * check under p and is the loader this process runs under (or, when the
 * kernel layers will hold the tree, any loader check_elf accepts), else
 * NULL: recorded in the policy at load (struct ct_env.verified_interp). */
const char *ct_verified_interp(const struct ct_policy *p, int layers_hold);

/*
 * Shared by the default entry points and their compat versions (src/compat.c).
 * version: NULL for libc's default version, else the compat version's name.
 */
#include <glob.h>
#include <spawn.h>
#include <sys/stat.h>
struct FTW;
int ct_glob(const char *version, const char *pattern, int flags,
	    int (*errfunc)(const char *, int), glob_t *pglob);
int ct_glob64(const char *version, const char *pattern, int flags,
	      int (*errfunc)(const char *, int), glob64_t *pglob);
int ct_nftw(int compat, const char *path,
	    int (*fn)(const char *, const struct stat *, int, struct FTW *), int flags);
int ct_posix_spawn(const char *version, pid_t *pid, const char *path,
		   const posix_spawn_file_actions_t *fa, const posix_spawnattr_t *attr,
		   char *const argv[], char *const envp[]);
int ct_posix_spawnp(const char *version, pid_t *pid, const char *file,
		    const posix_spawn_file_actions_t *fa, const posix_spawnattr_t *attr,
		    char *const argv[], char *const envp[]);

#endif
