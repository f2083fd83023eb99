/*
 * libcontain.h: the documented interface of libcontain.so.
 *
 * libcontain.so is used through LD_PRELOAD and the environment (see
 * libcontain(7)); it exports the interposed libc names and this one function.
 */
#ifndef LIBCONTAIN_H
#define LIBCONTAIN_H

#ifdef __cplusplus
extern "C" {
#endif

/* Exit status of a process whose containment policy could not be loaded. */
#define LIBCONTAIN_EXIT_POLICY 126

/* Environment variables read once when the library loads. */
#define LIBCONTAIN_ENV_ROOT   "CONTAIN_ROOT"
#define LIBCONTAIN_ENV_READ   "CONTAIN_READ"
#define LIBCONTAIN_ENV_WRITE  "CONTAIN_WRITE"
#define LIBCONTAIN_ENV_DENY   "CONTAIN_DENY"
#define LIBCONTAIN_ENV_LOG    "CONTAIN_LOG"
#define LIBCONTAIN_ENV_TMPDIR "CONTAIN_TMPDIR"
#define LIBCONTAIN_ENV_OPTOUT "CONTAIN_OPTOUT"

/*
 * libcontain_version: the library version, followed by " (active)" when a
 * policy is enforced in this process or " (opted out)" when CONTAIN_OPTOUT
 * let it pass every call through. Launchers look it up with dlsym() to check
 * that the preload really loaded.
 */
const char *libcontain_version(void);

#ifdef __cplusplus
}
#endif
#endif
