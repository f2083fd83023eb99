/* seccomp-probe.h: the call that tells a process its tree already runs under
 * libcontain's seccomp filter (src/gen-seccomp.c, src/kernel.c). */
#ifndef CONTAIN_SECCOMP_PROBE_H
#define CONTAIN_SECCOMP_PROBE_H
/* sched_get_priority_max(policy) with this policy: EINVAL from the kernel,
 * EHWPOISON from the filter */
#define CT_SECCOMP_PROBE 0x6c63u
#define CT_SECCOMP_PROBE_ERRNO 133	/* EHWPOISON */
#endif
