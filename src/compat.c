/*
 * compat.c: entry points for the older (compat) versions libc keeps of some
 * interposed names, e.g. realpath@GLIBC_2.2.5 beside realpath@@GLIBC_2.3.
 *
 * A program linked long ago references the old version; libcontain.so
 * exports that version too (scripts/gen-map.sh writes the version nodes
 * from libc's own symbol table and compat-versions.h says which compat
 * versions exist), so the call is checked and then behaves as that version
 * of libc did. t-exports.sh fails if libc has a version of an interposed
 * name that this file does not provide.
 */
#include "config.h"

#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <glob.h>
#include <limits.h>
#include <mqueue.h>
#include <semaphore.h>
#include <spawn.h>
#include <stdarg.h>
#include <stdlib.h>
#include <sys/mman.h>

#include "interpose.h"
#include "src/compat-versions.h"

/* COMPAT(name, "version"): a default-visibility entry point bound to the
 * versioned name; the version script makes it name@version. */
#define COMPAT_SYMVER(fn, name, ver) __asm__(".symver " #fn "," #name "@" ver)
#define COMPAT_FN __attribute__((visibility("default"), used))

/* Same behaviour as the default version: the function moved into libc
 * (libdl, librt, libpthread before 2.34) without changing. */
#ifdef CONTAIN_COMPAT_dlopen_GLIBC_2_2_5
COMPAT_FN void *contain_compat_dlopen(const char *file, int mode);
COMPAT_FN void *contain_compat_dlopen(const char *file, int mode)
{
	return dlopen(file, mode);
}
COMPAT_SYMVER(contain_compat_dlopen, dlopen, "GLIBC_2.2.5");
#endif

#ifdef CONTAIN_COMPAT_dlmopen_GLIBC_2_3_4
COMPAT_FN void *contain_compat_dlmopen(Lmid_t lmid, const char *file, int mode);
COMPAT_FN void *contain_compat_dlmopen(Lmid_t lmid, const char *file, int mode)
{
	return dlmopen(lmid, file, mode);
}
COMPAT_SYMVER(contain_compat_dlmopen, dlmopen, "GLIBC_2.3.4");
#endif

#ifdef CONTAIN_COMPAT_shm_open_GLIBC_2_2_5
COMPAT_FN int contain_compat_shm_open(const char *name, int oflag, mode_t mode);
COMPAT_FN int contain_compat_shm_open(const char *name, int oflag, mode_t mode)
{
	return shm_open(name, oflag, mode);
}
COMPAT_SYMVER(contain_compat_shm_open, shm_open, "GLIBC_2.2.5");
#endif

#ifdef CONTAIN_COMPAT_shm_unlink_GLIBC_2_2_5
COMPAT_FN int contain_compat_shm_unlink(const char *name);
COMPAT_FN int contain_compat_shm_unlink(const char *name)
{
	return shm_unlink(name);
}
COMPAT_SYMVER(contain_compat_shm_unlink, shm_unlink, "GLIBC_2.2.5");
#endif

#ifdef CONTAIN_COMPAT_sem_open_GLIBC_2_2_5
COMPAT_FN sem_t *contain_compat_sem_open(const char *name, int oflag, ...);
COMPAT_FN sem_t *contain_compat_sem_open(const char *name, int oflag, ...)
{
	mode_t mode = 0;
	unsigned value = 0;

	if (oflag & O_CREAT) {
		va_list ap;

		va_start(ap, oflag);
		mode = (mode_t)va_arg(ap, unsigned);
		value = va_arg(ap, unsigned);
		va_end(ap);
	}
	return sem_open(name, oflag, mode, value);
}
COMPAT_SYMVER(contain_compat_sem_open, sem_open, "GLIBC_2.2.5");
#endif

#ifdef CONTAIN_COMPAT_sem_unlink_GLIBC_2_2_5
COMPAT_FN int contain_compat_sem_unlink(const char *name);
COMPAT_FN int contain_compat_sem_unlink(const char *name)
{
	return sem_unlink(name);
}
COMPAT_SYMVER(contain_compat_sem_unlink, sem_unlink, "GLIBC_2.2.5");
#endif

#ifdef CONTAIN_COMPAT_mq_open_GLIBC_2_3_4
COMPAT_FN mqd_t contain_compat_mq_open(const char *name, int oflag, ...);
COMPAT_FN mqd_t contain_compat_mq_open(const char *name, int oflag, ...)
{
	mode_t mode = 0;
	struct mq_attr *attr = NULL;

	if (oflag & O_CREAT) {
		va_list ap;

		va_start(ap, oflag);
		mode = (mode_t)va_arg(ap, unsigned);
		attr = va_arg(ap, struct mq_attr *);
		va_end(ap);
	}
	return mq_open(name, oflag, mode, attr);
}
COMPAT_SYMVER(contain_compat_mq_open, mq_open, "GLIBC_2.3.4");
#endif

#ifdef CONTAIN_COMPAT_mq_unlink_GLIBC_2_3_4
COMPAT_FN int contain_compat_mq_unlink(const char *name);
COMPAT_FN int contain_compat_mq_unlink(const char *name)
{
	return mq_unlink(name);
}
COMPAT_SYMVER(contain_compat_mq_unlink, mq_unlink, "GLIBC_2.3.4");
#endif

#ifdef CONTAIN_COMPAT___mq_open_2_GLIBC_2_7
mqd_t __mq_open_2(const char *name, int oflag);
COMPAT_FN mqd_t contain_compat___mq_open_2(const char *name, int oflag);
COMPAT_FN mqd_t contain_compat___mq_open_2(const char *name, int oflag)
{
	return __mq_open_2(name, oflag);
}
COMPAT_SYMVER(contain_compat___mq_open_2, __mq_open_2, "GLIBC_2.7");
#endif

/* realpath@GLIBC_2.2.5 required a buffer: NULL was EINVAL. */
#ifdef CONTAIN_COMPAT_realpath_GLIBC_2_2_5
COMPAT_FN char *contain_compat_realpath(const char *path, char *resolved);
COMPAT_FN char *contain_compat_realpath(const char *path, char *resolved)
{
	if (!resolved) {
		errno = EINVAL;
		return NULL;
	}
	return realpath(path, resolved);
}
COMPAT_SYMVER(contain_compat_realpath, realpath, "GLIBC_2.2.5");
#endif

/* glob@GLIBC_2.2.5 calls gl_stat where the current one calls gl_lstat
 * (GLOB_ALTDIRFUNC callers of that time set no gl_lstat): libc's own compat
 * version runs, with the checked directory functions unless the caller
 * brought its own. */
#ifdef CONTAIN_COMPAT_glob_GLIBC_2_2_5
COMPAT_FN int contain_compat_glob(const char *pattern, int flags,
				  int (*errfunc)(const char *, int), glob_t *pglob);
COMPAT_FN int contain_compat_glob(const char *pattern, int flags,
				  int (*errfunc)(const char *, int), glob_t *pglob)
{
	return ct_glob("GLIBC_2.2.5", pattern, flags, errfunc, pglob);
}
COMPAT_SYMVER(contain_compat_glob, glob, "GLIBC_2.2.5");
#endif

#ifdef CONTAIN_COMPAT_glob64_GLIBC_2_2_5
COMPAT_FN int contain_compat_glob64(const char *pattern, int flags,
				    int (*errfunc)(const char *, int), glob64_t *pglob);
COMPAT_FN int contain_compat_glob64(const char *pattern, int flags,
				    int (*errfunc)(const char *, int), glob64_t *pglob)
{
	return ct_glob64("GLIBC_2.2.5", pattern, flags, errfunc, pglob);
}
COMPAT_SYMVER(contain_compat_glob64, glob64, "GLIBC_2.2.5");
#endif

/* nftw@GLIBC_2.2.5 ignored unknown flags (and FTW_ACTIONRETVAL). */
#ifdef CONTAIN_COMPAT_nftw_GLIBC_2_2_5
COMPAT_FN int contain_compat_nftw(const char *path,
				  int (*fn)(const char *, const struct stat *, int, struct FTW *),
				  int nopenfd, int flags);
COMPAT_FN int contain_compat_nftw(const char *path,
				  int (*fn)(const char *, const struct stat *, int, struct FTW *),
				  int nopenfd, int flags)
{
	(void)nopenfd;
	return ct_nftw(1, path, fn, flags);
}
COMPAT_SYMVER(contain_compat_nftw, nftw, "GLIBC_2.2.5");
#endif

#ifdef CONTAIN_COMPAT_nftw64_GLIBC_2_2_5
COMPAT_FN int contain_compat_nftw64(const char *path,
				    int (*fn)(const char *, const struct stat64 *, int, struct FTW *),
				    int nopenfd, int flags);
COMPAT_FN int contain_compat_nftw64(const char *path,
				    int (*fn)(const char *, const struct stat64 *, int, struct FTW *),
				    int nopenfd, int flags)
{
	(void)nopenfd;
	/* struct stat64 is struct stat on these ABIs (see interpose.c) */
	return ct_nftw(1, path, (int (*)(const char *, const struct stat *, int, struct FTW *))
		       (void (*)(void))fn, flags);
}
COMPAT_SYMVER(contain_compat_nftw64, nftw64, "GLIBC_2.2.5");
#endif

/* posix_spawn(p)@GLIBC_2.2.5 ran a file the kernel refused with ENOEXEC
 * through /bin/sh. */
#ifdef CONTAIN_COMPAT_posix_spawn_GLIBC_2_2_5
COMPAT_FN int contain_compat_posix_spawn(pid_t *pid, const char *path,
					 const posix_spawn_file_actions_t *fa,
					 const posix_spawnattr_t *attr, char *const argv[],
					 char *const envp[]);
COMPAT_FN int contain_compat_posix_spawn(pid_t *pid, const char *path,
					 const posix_spawn_file_actions_t *fa,
					 const posix_spawnattr_t *attr, char *const argv[],
					 char *const envp[])
{
	return ct_posix_spawn("GLIBC_2.2.5", pid, path, fa, attr, argv, envp);
}
COMPAT_SYMVER(contain_compat_posix_spawn, posix_spawn, "GLIBC_2.2.5");
#endif

#ifdef CONTAIN_COMPAT_posix_spawnp_GLIBC_2_2_5
COMPAT_FN int contain_compat_posix_spawnp(pid_t *pid, const char *file,
					  const posix_spawn_file_actions_t *fa,
					  const posix_spawnattr_t *attr, char *const argv[],
					  char *const envp[]);
COMPAT_FN int contain_compat_posix_spawnp(pid_t *pid, const char *file,
					  const posix_spawn_file_actions_t *fa,
					  const posix_spawnattr_t *attr, char *const argv[],
					  char *const envp[])
{
	return ct_posix_spawnp("GLIBC_2.2.5", pid, file, fa, attr, argv, envp);
}
COMPAT_SYMVER(contain_compat_posix_spawnp, posix_spawnp, "GLIBC_2.2.5");
#endif
