/* report.h: denial records and configuration errors (see report.c). */
#ifndef CONTAIN_REPORT_H
#define CONTAIN_REPORT_H

#include "contain.h"

/* Report a denial; errno is preserved. */
void ct_report(const struct ct_policy *p, const char *op, const char *path,
	       const struct ct_verdict *v);
/*
 * Open path for op, report a denial, and return the fd or -1 with errno.
 * need and follow as in struct ct_req; v receives the verdict.
 */
int ct_checked_open(const struct ct_policy *p, const char *op, int dirfd, const char *path,
		    int flags, mode_t mode, unsigned need, int follow, struct ct_verdict *v);
/* One line on stderr for a policy that cannot be loaded. */
void ct_config_error(const char *msg);
/* One line "libcontain: MSG" on stderr: a note, not a refusal. */
void ct_config_note(const char *msg);

#endif
