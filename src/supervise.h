/* supervise.h: the contain launcher's seccomp user-notification supervisor
 * (src/supervise.c). */
#ifndef CONTAIN_SUPERVISE_H
#define CONTAIN_SUPERVISE_H

#include <stddef.h>

#include "contain.h"

/* Does libseccomp here support user notification (API level 5)? */
int sv_available(void);
/* In the child: install the notifying filter (chmod, chown, utimes, xattr
 * writes; with strict the stat, access, readlink and getxattr families too).
 * The listener fd, or -1 with err set. */
int sv_install(int strict, char *err, size_t errlen);
/* In the launcher: receive and answer one notification. 0, or -1 when the
 * listener failed. */
int sv_handle(int nfd, const struct ct_policy *p);
/* Pass the listener over a unix socket (SCM_RIGHTS). */
int sv_send_fd(int sock, int fd);
int sv_recv_fd(int sock);

#endif
