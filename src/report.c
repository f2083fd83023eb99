/*
 * report.c: the one diagnostics funnel for denials.
 *
 * stderr:  libcontain: denied OP "PATH": REASON
 * JSON:    {"op":..,"path":..,"resolved":..,"reason":..,"pid":..,"exe":..}
 *
 * Each record is formatted into a bounded buffer and written with one
 * write(2) (O_APPEND for the log), so records from concurrent processes never
 * interleave. No stdio, no malloc: this runs in signal handlers and vfork
 * children.
 */
#include "config.h"

#include <errno.h>
#include <string.h>

#include "contain.h"
#include "report.h"
#include "sys.h"

struct out {
	char *buf;
	size_t len, cap;
};

static void put(struct out *o, const char *s, size_t n)
{
	if (n > o->cap - o->len)
		n = o->cap - o->len;
	memcpy(o->buf + o->len, s, n);
	o->len += n;
}

static void puts_(struct out *o, const char *s)
{
	put(o, s, strlen(s));
}

static void putnum(struct out *o, long v)
{
	char rev[24];
	int m = 0;

	if (v < 0) {
		put(o, "-", 1);
		v = -v;
	}
	do {
		rev[m++] = (char)('0' + v % 10);
		v /= 10;
	} while (v);
	while (m)
		put(o, &rev[--m], 1);
}

/* Length of the valid UTF-8 sequence at s (1 to 4), or 0. */
static size_t utf8_len(const unsigned char *s)
{
	size_t n, i;

	if (s[0] < 0x80)
		return 1;
	if (s[0] >= 0xc2 && s[0] <= 0xdf)
		n = 2;
	else if (s[0] >= 0xe0 && s[0] <= 0xef)
		n = 3;
	else if (s[0] >= 0xf0 && s[0] <= 0xf4)
		n = 4;
	else
		return 0;
	for (i = 1; i < n; i++)
		if ((s[i] & 0xc0) != 0x80)
			return 0;
	return n;
}

enum { ESC_TEXT, ESC_LINE, ESC_JSON };

/*
 * A path, escaped. ESC_LINE (stderr): one line, `"` and `\` escaped, other
 * odd bytes as \xNN. ESC_JSON: a valid JSON string; bytes that are not UTF-8
 * become the text \xNN. ESC_TEXT: control bytes only.
 */
static void putpath(struct out *o, const char *s, int mode, size_t max)
{
	static const char hex[] = "0123456789abcdef";
	size_t i;

	for (i = 0; s[i];) {
		const unsigned char *c = (const unsigned char *)s + i;
		size_t n = utf8_len(c);

		if (i >= max) {
			puts_(o, "...");
			return;
		}
		if (mode != ESC_TEXT && (*c == '"' || *c == '\\')) {
			char e[2] = { '\\', (char)*c };

			put(o, e, 2);
		} else if (mode == ESC_JSON && (*c < 0x20 || *c == 0x7f)) {
			char e[6] = { '\\', 'u', '0', '0', hex[*c >> 4], hex[*c & 15] };

			put(o, e, 6);
		} else if (*c < 0x20 || *c == 0x7f || (mode == ESC_LINE && *c >= 0x80) ||
			   (mode == ESC_JSON && n == 0)) {
			char e[5] = { '\\', '\\', 'x', hex[*c >> 4], hex[*c & 15] };

			/* JSON needs the backslash itself escaped */
			if (mode == ESC_JSON)
				put(o, e, 5);
			else
				put(o, e + 1, 4);
		} else if (mode == ESC_JSON && n > 1) {
			put(o, (const char *)c, n);
			i += n;
			continue;
		} else {
			put(o, (const char *)c, 1);
		}
		i++;
	}
}

/* The log fd as this process sees it: reopened if the program closed it. */
static int log_fd = -1;
static unsigned long long log_dev, log_ino;

static int current_log_fd(const struct ct_policy *p)
{
	struct stat st;
	int fd = __atomic_load_n(&log_fd, __ATOMIC_RELAXED);

	if (fd >= 0 && sys_fstatat(fd, "", &st, AT_EMPTY_PATH) == 0 &&
	    st.st_dev == log_dev && st.st_ino == log_ino)
		return fd;
	/* opened on the first denial, reopened if the program closed it */
	fd = sys_openat(AT_FDCWD, p->log_path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0600);
	if (fd >= 0 && fd < 200) {
		/* keep the log out of the low fds programs close and reuse */
		int high = (int)syscall(SYS_fcntl, fd, F_DUPFD_CLOEXEC, 200);

		if (high >= 0) {
			sys_close(fd);
			fd = high;
		}
	}
	if (fd >= 0 && sys_fstatat(fd, "", &st, AT_EMPTY_PATH) == 0) {
		log_dev = st.st_dev;
		log_ino = st.st_ino;
		__atomic_store_n(&log_fd, fd, __ATOMIC_RELAXED);
	}
	return fd;
}

/*
 * stderr is for people: the same denial (operation, path, reason) is shown
 * once per process (git asks for ~/.gitconfig a dozen times). The JSON log
 * records every denial. Lock-free: a table of hashes claimed with CAS.
 */
#define SEEN_SLOTS 256
static unsigned long long seen[SEEN_SLOTS];

static int seen_before(const char *op, const char *path, int reason)
{
	unsigned long long h = 1469598103934665603ULL;
	const char *s;
	unsigned i;

	for (s = op; *s; s++)
		h = (h ^ (unsigned char)*s) * 1099511628211ULL;
	for (s = path ? path : ""; *s; s++)
		h = (h ^ (unsigned char)*s) * 1099511628211ULL;
	h = (h ^ (unsigned)reason) * 1099511628211ULL;
	if (!h)
		h = 1;
	for (i = 0; i < 8; i++) {
		unsigned long long *slot = &seen[(h + i) % SEEN_SLOTS], cur = 0;

		if (__atomic_load_n(slot, __ATOMIC_RELAXED) == h)
			return 1;
		if (__atomic_compare_exchange_n(slot, &cur, h, 0, __ATOMIC_RELAXED, __ATOMIC_RELAXED))
			return 0;
		if (cur == h)
			return 1;
	}
	return 0;		/* table full around h: show it */
}

void ct_report(const struct ct_policy *p, const char *op, const char *path,
	       const struct ct_verdict *v)
{
	char buf[2048];
	struct out o = { buf, 0, sizeof(buf) - 1 };
	int saved = errno;

	if (p->log_mode == CT_LOG_OFF)
		goto out;
	if (p->log_mode == CT_LOG_STDERR) {
		if (seen_before(op, path, v->reason))
			goto out;
		puts_(&o, "libcontain: denied ");
		puts_(&o, op);
		puts_(&o, " \"");
		putpath(&o, path ? path : "(null)", ESC_LINE, 1024);
		puts_(&o, "\": ");
		puts_(&o, ct_reason_text(v->reason));
		if (v->reason == CT_UNVERIFIABLE && v->detail) {
			puts_(&o, " (");
			puts_(&o, v->detail);
			puts_(&o, ")");
		}
		if (o.len >= o.cap)
			o.len = o.cap;
		buf[o.len++] = '\n';
		sys_write(2, buf, o.len);
	} else {
		char exe[512];
		ssize_t n = -1;
		int fd;

		n = sys_readlinkat(AT_FDCWD, "/proc/self/exe", exe, sizeof(exe) - 1);
		exe[n > 0 ? n : 0] = 0;
		puts_(&o, "{\"op\":\"");
		puts_(&o, op);
		puts_(&o, "\",\"path\":\"");
		putpath(&o, path ? path : "", ESC_JSON, 700);
		puts_(&o, "\",\"resolved\":");
		if (v->resolved[0]) {
			puts_(&o, "\"");
			putpath(&o, v->resolved, ESC_JSON, 500);
			puts_(&o, "\"");
		} else {
			puts_(&o, "null");
		}
		puts_(&o, ",\"reason\":\"");
		puts_(&o, ct_reason_key(v->reason));
		puts_(&o, "\"");
		if (v->reason == CT_UNVERIFIABLE && v->detail) {
			puts_(&o, ",\"detail\":\"");
			puts_(&o, v->detail);
			puts_(&o, "\"");
		}
		puts_(&o, ",\"pid\":");
		putnum(&o, (long)sys_getpid());
		puts_(&o, ",\"exe\":\"");
		putpath(&o, exe, ESC_JSON, 400);
		puts_(&o, "\"}");
		if (o.len >= o.cap)
			o.len = o.cap;
		buf[o.len++] = '\n';
		fd = current_log_fd(p);
		if (fd >= 0)
			sys_write(fd, buf, o.len);
	}
out:
	errno = saved;
}

void ct_config_error(const char *msg)
{
	char buf[1200];
	struct out o = { buf, 0, sizeof(buf) - 1 };

	puts_(&o, "libcontain: ");
	putpath(&o, msg, ESC_TEXT, 1000);
	puts_(&o, "; refusing to run uncontained");
	buf[o.len++] = '\n';
	sys_write(2, buf, o.len);
}

void ct_config_note(const char *msg)
{
	char buf[1200];
	struct out o = { buf, 0, sizeof(buf) - 1 };

	puts_(&o, "libcontain: ");
	putpath(&o, msg, ESC_TEXT, 1000);
	buf[o.len++] = '\n';
	sys_write(2, buf, o.len);
}

/* The funnel of the wrappers and the supervisor: open, and report a denial. */
int ct_checked_open(const struct ct_policy *p, const char *op, int dirfd, const char *path,
		    int flags, mode_t mode, unsigned need, int follow, struct ct_verdict *v)
{
	struct ct_req rq;
	int fd;

	rq.dirfd = dirfd;
	rq.path = path;
	rq.flags = flags;
	rq.mode = mode;
	rq.need = need;
	rq.follow = follow;
	fd = ct_open(p, &rq, v);
	if (fd < 0 && v->reason != CT_OK)
		ct_report(p, op, path, v);
	/* a number just handed out has no history: should a record of it
	 * have outlived a close libc made out of sight, it goes now */
	if (fd >= 0)
		ct_forget_fd(fd);
	return fd;
}
