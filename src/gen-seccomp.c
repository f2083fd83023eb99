/*
 * gen-seccomp: build-time generator of libcontain's seccomp filter.
 *
 * The filter is made with libseccomp here, at build time, and exported as
 * classic BPF into a C header (src/seccomp-bpf.h): the preload installs the
 * precompiled program with one seccomp(2) call and never loads libseccomp
 * (building the filter in every process cost +57% on a spawn loop here).
 *
 * libseccomp decides (which numbers this architecture has, what each gets);
 * its program tests the allowed calls one by one (482 instructions here,
 * ~100 us more to install, every first process). The header carries the
 * same decisions as ranges of refused numbers instead (62 instructions),
 * and the generator proves the two equal before writing it: every number
 * below 4096 under each argument the programs look at, the edges and a
 * seeded sample above, other ABIs. A difference stops the build.
 *
 * Policy of the filter (errors only: nothing kills or traps, so a program's
 * own filter and its SIGSYS handling keep working):
 *  - every system call libseccomp knows for this architecture is allowed,
 *    except the ones below; a number it does not know (newer than the
 *    filter) fails with ENOSYS, as on an older kernel
 *  - another ABI (i386 through int 0x80, x32) fails with ENOSYS
 *  - io_uring_setup/enter/register: ENOSYS (programs fall back to plain
 *    system calls, which the other layers see)
 *  - open_by_handle_at: EPERM; name_to_handle_at: EOPNOTSUPP (a handle
 *    opens a file with no path to check)
 *  - the mount API (mount, umount2, pivot_root, move_mount, open_tree,
 *    fsopen, fsconfig, fsmount, fspick, mount_setattr) and the privileged
 *    calls that name a file (acct, quotactl, quotactl_fd, swapon, swapoff):
 *    EPERM
 *  - ioctl TIOCSTI and TIOCLINUX (typing into the user's terminal): EPERM
 *  - the probe: sched_get_priority_max(CT_SECCOMP_PROBE) fails with
 *    EHWPOISON, which the kernel never returns for it: a process can tell
 *    that its tree already runs under this filter and does not stack another
 * Usage: gen-seccomp > src/seccomp-bpf.h
 */
#include <errno.h>
#include <fcntl.h>
#include <seccomp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "src/seccomp-probe.h"

static const char *const enosys[] = { "io_uring_setup", "io_uring_enter", "io_uring_register" };
static const char *const eperm[] = {
	"open_by_handle_at", "mount", "umount2", "pivot_root", "move_mount", "open_tree",
	"fsopen", "fsconfig", "fsmount", "fspick", "mount_setattr",
	/* privileged calls that name a path the other layers do not check */
	"acct", "quotactl", "quotactl_fd", "swapon", "swapoff",
};

static void die(const char *what, int rc)
{
	fprintf(stderr, "gen-seccomp: %s: %s\n", what, strerror(-rc));
	exit(1);
}

static int listed(const char *name, const char *const *list, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (!strcmp(name, list[i]))
			return 1;
	return 0;
}

/* ---- the program as libseccomp writes it, and as ranges ---- */

#define MAX_INSNS 4096
#define NR_SPAN 4096u		/* numbers checked one by one: 0 .. NR_SPAN - 1 */
#define SAMPLES 200000		/* numbers above, sampled */

struct prog {
	struct sock_filter f[MAX_INSNS];
	size_t n;
};

static struct prog ref, out;

static void emit(struct prog *p, struct sock_filter f)
{
	if (p->n >= MAX_INSNS) {
		fprintf(stderr, "gen-seccomp: program too long\n");
		exit(1);
	}
	p->f[p->n++] = f;
}

static void op(struct prog *p, unsigned short code, unsigned char jt, unsigned char jf, unsigned k)
{
	struct sock_filter f = { code, jt, jf, k };

	emit(p, f);
}

#define LD_ABS(p, off) op(p, BPF_LD | BPF_W | BPF_ABS, 0, 0, (off))
#define RET(p, v) op(p, BPF_RET | BPF_K, 0, 0, (v))

/* where a 32-bit half of a 64-bit argument lies in struct seccomp_data */
#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#define ARG_LO(i) (16u + 8u * (i))
#define ARG_HI(i) (20u + 8u * (i))
#else
#define ARG_LO(i) (20u + 8u * (i))
#define ARG_HI(i) (16u + 8u * (i))
#endif

/*
 * A prefix libseccomp cannot express: ioctl TIOCSTI and TIOCLINUX (typing
 * into the user's terminal, which would run commands in the user's shell,
 * outside every tree) fail with EPERM. The kernel takes the request as an
 * unsigned int: its low 32 bits are compared. Other calls fall through.
 */
static void add_prefix(struct prog *p)
{
#if defined(__x86_64__)
	LD_ABS(p, 4);	/* arch */
	op(p, BPF_JMP | BPF_JEQ | BPF_K, 0, 6, (unsigned)AUDIT_ARCH_X86_64);
	LD_ABS(p, 0);	/* nr */
	op(p, BPF_JMP | BPF_JEQ | BPF_K, 0, 4, (unsigned)SYS_ioctl);
	LD_ABS(p, ARG_LO(1));
	op(p, BPF_JMP | BPF_JEQ | BPF_K, 1, 0, (unsigned)TIOCSTI);
	op(p, BPF_JMP | BPF_JEQ | BPF_K, 0, 1, (unsigned)TIOCLINUX);
	RET(p, SECCOMP_RET_ERRNO | EPERM);
#else
	(void)p;
#endif
}

/* Classic BPF as the kernel runs a seccomp filter (the subset used here;
 * anything else stops the generator). */
static unsigned run(const struct prog *p, const struct seccomp_data *d)
{
	unsigned a = 0;
	size_t pc = 0;

	while (pc < p->n) {
		const struct sock_filter *f = &p->f[pc++];

		switch (f->code) {
		case BPF_LD | BPF_W | BPF_ABS:
			if (f->k % 4 || f->k + 4 > sizeof(*d))
				goto bad;
			memcpy(&a, (const unsigned char *)d + f->k, 4);
			break;
		case BPF_ALU | BPF_AND | BPF_K:
			a &= f->k;
			break;
		case BPF_JMP | BPF_JA:
			pc += f->k;
			break;
		case BPF_JMP | BPF_JEQ | BPF_K:
			pc += a == f->k ? f->jt : f->jf;
			break;
		case BPF_JMP | BPF_JGT | BPF_K:
			pc += a > f->k ? f->jt : f->jf;
			break;
		case BPF_JMP | BPF_JGE | BPF_K:
			pc += a >= f->k ? f->jt : f->jf;
			break;
		case BPF_JMP | BPF_JSET | BPF_K:
			pc += (a & f->k) ? f->jt : f->jf;
			break;
		case BPF_RET | BPF_K:
			return f->k;
		default:
			goto bad;
		}
	}
bad:
	fprintf(stderr, "gen-seccomp: instruction %zu (code 0x%04x) cannot be checked\n", pc - 1,
		pc ? p->f[pc - 1].code : 0);
	exit(1);
}

static unsigned answer(const struct prog *p, unsigned arch, unsigned nr, unsigned long long a0,
		       unsigned long long a1)
{
	struct seccomp_data d;

	memset(&d, 0, sizeof(d));
	d.nr = (int)nr;
	d.arch = arch;
	d.args[0] = a0;
	d.args[1] = a1;
	return run(p, &d);
}

/*
 * The same decisions, shorter: the prefix; the probe; then only the runs of
 * numbers that are not allowed, in order, four instructions each (every
 * jump short). Nearly every call is decided by the kernel's cache of
 * constant answers and never runs the program; ioctl, the one frequent
 * call that does, is decided in the first instructions.
 */
static void compact(const struct prog *r, struct prog *p, unsigned arch, unsigned sgpm)
{
	unsigned act[NR_SPAN], tail = answer(r, arch, NR_SPAN, 0, 0), nr;

	for (nr = 0; nr < NR_SPAN; nr++)
		act[nr] = nr == sgpm ? SECCOMP_RET_ALLOW : answer(r, arch, nr, 0, 0);
	p->n = 0;
	add_prefix(p);
	LD_ABS(p, 4);	/* another ABI: as libseccomp's bad-arch action */
	op(p, BPF_JMP | BPF_JEQ | BPF_K, 1, 0, arch);
	RET(p, answer(r, arch ^ 1u, 0, 0, 0));
	LD_ABS(p, 0);
	/* sched_get_priority_max(CT_SECCOMP_PROBE), as a 64-bit compare */
	op(p, BPF_JMP | BPF_JEQ | BPF_K, 0, 6, sgpm);
	LD_ABS(p, ARG_HI(0));
	op(p, BPF_JMP | BPF_JEQ | BPF_K, 0, 3, 0);
	LD_ABS(p, ARG_LO(0));
	op(p, BPF_JMP | BPF_JEQ | BPF_K, 0, 1, CT_SECCOMP_PROBE);
	RET(p, SECCOMP_RET_ERRNO | CT_SECCOMP_PROBE_ERRNO);
	RET(p, SECCOMP_RET_ALLOW);
	for (nr = 0; nr < NR_SPAN;) {
		unsigned lo = nr, a = act[nr];

		while (nr < NR_SPAN && act[nr] == a)
			nr++;
		if (a == SECCOMP_RET_ALLOW)
			continue;
		if (nr == NR_SPAN && a == tail)
			break;	/* the last run goes on above: the tail below */
		op(p, BPF_JMP | BPF_JGE | BPF_K, 1, 0, lo);
		RET(p, SECCOMP_RET_ALLOW);
		op(p, BPF_JMP | BPF_JGT | BPF_K, 1, 0, nr - 1);
		RET(p, a);
	}
	/* above every run: allowed up to the last known number, then the
	 * default (numbers newer than the filter, x32's) */
	for (nr = NR_SPAN; nr > 0 && act[nr - 1] == tail; nr--)
		;
	op(p, BPF_JMP | BPF_JGT | BPF_K, 0, 1, nr - 1);
	RET(p, tail);
	RET(p, SECCOMP_RET_ALLOW);
}

static int differs(const struct prog *r, const struct prog *p, unsigned arch, unsigned nr,
		   unsigned long long a0, unsigned long long a1)
{
	static int told;
	unsigned x = answer(r, arch, nr, a0, a1), y = answer(p, arch, nr, a0, a1);

	if (x == y)
		return 0;
	if (told++ < 3)
		fprintf(stderr, "gen-seccomp: the short program differs from libseccomp's at arch 0x%x "
			"nr %u args 0x%llx 0x%llx: 0x%x against 0x%x\n", arch, nr, a0, a1, y, x);
	return 1;
}

/* Every number below NR_SPAN, the edges above it and a seeded sample, under
 * each ABI, with the arguments the programs look at. */
static int same_answers(const struct prog *r, const struct prog *p, unsigned arch)
{
	static const unsigned arches[] = { 0, 1, 0x40000003 /* i386 */, 0xc00000b7 /* aarch64 */,
					   0xffffffffu };
	static const unsigned long long args[] = {
		0, 1, CT_SECCOMP_PROBE, CT_SECCOMP_PROBE | 1ULL << 32, 1ULL << 32, TIOCSTI,
		TIOCLINUX, TIOCSTI | 1ULL << 32, TIOCLINUX | 0xffffffffULL << 32, 0xffffffffffffffffULL,
	};
	static const unsigned edges[] = { 0x3fffffffu, 0x40000000u, 0x40000001u, 0x7fffffffu,
					  0x80000000u, 0xfffffffeu, 0xffffffffu };
	unsigned long long seed = 0x6c6962636f6e7461ULL;
	unsigned nr;
	size_t i, j;
	int bad = 0;

	for (i = 0; i < sizeof(arches) / sizeof(arches[0]); i++)
		for (nr = 0; nr < 64; nr++)
			bad |= differs(r, p, arches[i] == 1 ? arch : arches[i], nr, 0, 0);
	for (nr = 0; nr < NR_SPAN && !bad; nr++)
		for (i = 0; i < sizeof(args) / sizeof(args[0]); i++)
			for (j = 0; j < sizeof(args) / sizeof(args[0]); j++)
				bad |= differs(r, p, arch, nr, args[i], args[j]);
	for (i = 0; i < sizeof(edges) / sizeof(edges[0]); i++) {
		bad |= differs(r, p, arch, edges[i], 0, 0);
		bad |= differs(r, p, arch, edges[i] | (unsigned)NR_SPAN, 0, 0);
		bad |= differs(r, p, arch, edges[i], CT_SECCOMP_PROBE, TIOCSTI);
	}
	for (i = 0; i < SAMPLES && !bad; i++) {
		seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
		nr = (unsigned)(seed >> 32);
		bad |= differs(r, p, arch, nr, seed & 0xffff, seed >> 16);
		bad |= differs(r, p, arch, nr | 0x40000000u, 0, 0);
	}
	return !bad;
}

int main(void)
{
	scmp_filter_ctx ctx = seccomp_init(SCMP_ACT_ERRNO(ENOSYS));
	char tmpl[] = "/tmp/gen-seccomp.XXXXXX";
	unsigned char buf[65536];
	int fd, rc, nr, max = 0, allowed = 0, sgpm = -1;
	ssize_t n;

	if (!ctx)
		die("seccomp_init", -ENOMEM);
	if ((rc = seccomp_attr_set(ctx, SCMP_FLTATR_ACT_BADARCH, SCMP_ACT_ERRNO(ENOSYS))) < 0)
		die("bad-arch action", rc);
	if ((rc = seccomp_attr_set(ctx, SCMP_FLTATR_CTL_NNP, 0)) < 0)
		die("no-new-privs attribute", rc);
	/* a binary tree: every call is a few comparisons, not a list */
	if ((rc = seccomp_attr_set(ctx, SCMP_FLTATR_CTL_OPTIMIZE, 2)) < 0)
		die("optimize attribute", rc);

	for (nr = 0; nr < 1024; nr++) {
		char *name = seccomp_syscall_resolve_num_arch(SCMP_ARCH_NATIVE, nr);

		if (!name)
			continue;
		max = nr;
		if (listed(name, enosys, sizeof(enosys) / sizeof(enosys[0])))
			rc = 0;	/* the default action: ENOSYS */
		else if (listed(name, eperm, sizeof(eperm) / sizeof(eperm[0])))
			rc = seccomp_rule_add(ctx, SCMP_ACT_ERRNO(EPERM), nr, 0);
		else if (!strcmp(name, "name_to_handle_at"))
			rc = seccomp_rule_add(ctx, SCMP_ACT_ERRNO(EOPNOTSUPP), nr, 0);
		else if (!strcmp(name, "sched_get_priority_max")) {
			sgpm = nr;
			/* (spelt out: SCMP_A0 leaves datum_b to the compiler) */
			struct scmp_arg_cmp eq = { .arg = 0, .op = SCMP_CMP_EQ, .datum_a = CT_SECCOMP_PROBE,
						   .datum_b = 0 };
			struct scmp_arg_cmp ne = { .arg = 0, .op = SCMP_CMP_NE, .datum_a = CT_SECCOMP_PROBE,
						   .datum_b = 0 };

			rc = seccomp_rule_add_array(ctx, SCMP_ACT_ERRNO(CT_SECCOMP_PROBE_ERRNO), nr, 1, &eq);
			if (rc == 0)
				rc = seccomp_rule_add_array(ctx, SCMP_ACT_ALLOW, nr, 1, &ne);
		} else {
			rc = seccomp_rule_add(ctx, SCMP_ACT_ALLOW, nr, 0);
			allowed++;
		}
		free(name);
		if (rc < 0)
			die("rule", rc);
	}

	if (sgpm < 0) {
		fprintf(stderr, "gen-seccomp: libseccomp does not know sched_get_priority_max\n");
		return 1;
	}
	fd = mkstemp(tmpl);
	if (fd < 0) {
		perror("gen-seccomp: mkstemp");
		return 1;
	}
	unlink(tmpl);
	if ((rc = seccomp_export_bpf(ctx, fd)) < 0)
		die("export", rc);
	n = pread(fd, buf, sizeof(buf), 0);
	if (n <= 0 || n % 8 || n == (ssize_t)sizeof(buf)) {
		fprintf(stderr, "gen-seccomp: bad BPF size %zd\n", n);
		return 1;
	}
	ref.n = 0;
	add_prefix(&ref);
	for (ssize_t i = 0; i < n; i += 8) {
		struct sock_filter f;

		f.code = (unsigned short)(buf[i] | buf[i + 1] << 8);
		f.jt = buf[i + 2];
		f.jf = buf[i + 3];
		f.k = (unsigned)buf[i + 4] | (unsigned)buf[i + 5] << 8 | (unsigned)buf[i + 6] << 16 |
		      (unsigned)buf[i + 7] << 24;
		emit(&ref, f);
	}
	compact(&ref, &out, seccomp_arch_native(), (unsigned)sgpm);
	/* the proof: both programs give every input the same answer */
	if (!same_answers(&ref, &out, seccomp_arch_native()))
		return 1;
	printf("/* generated by gen-seccomp (libseccomp %u.%u.%u) at build time: do not edit */\n",
	       seccomp_version()->major, seccomp_version()->minor, seccomp_version()->micro);
	printf("/* %d system calls allowed, numbers above %d fail with ENOSYS */\n", allowed, max);
	printf("/* libseccomp's program: %zu instructions; as ranges, proved equal on every\n"
	       " * number below %u and %d sampled above, in every branch: %zu */\n",
	       ref.n, NR_SPAN, SAMPLES, out.n);
	printf("#define CT_SECCOMP_MAX_NR %d\n", max);
	printf("static const struct sock_filter ct_seccomp_bpf[%zu] = {\n", out.n);
	for (size_t i = 0; i < out.n; i++)
		printf("\t{ 0x%04x, %u, %u, 0x%08x },\n", out.f[i].code, out.f[i].jt, out.f[i].jf, out.f[i].k);
	printf("};\n");
	seccomp_release(ctx);
	return 0;
}
