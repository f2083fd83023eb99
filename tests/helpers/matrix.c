/*
 * matrix: call one interposed function on one path, for the attack matrix.
 * usage: matrix kind SYM        prints the path kind SYM takes: file | new | none
 *        matrix call SYM PATH   calls SYM on PATH; prints "ok" or the errno name
 * (glob: a denial is "no match"; system/popen: the shell's exit status 126;
 * exec: run in a child, a program that runs exits 0).
 * fchdir and fexecve get an fd opened with a raw system call (no check), so
 * that their own check is what is tested.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <libintl.h>
#include <nl_types.h>
#include <mqueue.h>
#include <fts.h>
#include <glob.h>
#include <mntent.h>
#include <sys/ipc.h>
#include <utmp.h>
#include <utmpx.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/fanotify.h>
#include <sys/inotify.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/statvfs.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <sys/xattr.h>
#include <unistd.h>
#include <utime.h>

extern char **environ;

int __open_2(const char *, int);
int __open64_2(const char *, int);
int __openat_2(int, const char *, int);
int __openat64_2(int, const char *, int);
int __xstat(int, const char *, struct stat *);
int __xstat64(int, const char *, struct stat64 *);
int __lxstat(int, const char *, struct stat *);
int __lxstat64(int, const char *, struct stat64 *);
int __fxstatat(int, int, const char *, struct stat *, int);
int __fxstatat64(int, int, const char *, struct stat64 *, int);
ssize_t __readlink_chk(const char *, char *, size_t, size_t);
int __statfs(const char *, struct statfs *);
int __xmknod(int, const char *, mode_t, dev_t *);
int __xmknodat(int, int, const char *, mode_t, dev_t *);
char *__realpath_chk(const char *, char *, size_t);
int __connect(int, const struct sockaddr *, socklen_t);
FILE *__setmntent(const char *, const char *);
ssize_t __readlinkat_chk(int, const char *, char *, size_t, size_t);

static const char *const new_kind[] = {
	"mkdir", "mkdirat", "mknod", "mknodat", "mkfifo", "mkfifoat", "symlink", "symlinkat",
	"bind", "mkstemp", "mkstemp64", "mkostemp", "mkostemp64", "mkstemps", "mkstemps64",
	"mkostemps", "mkostemps64", "mkdtemp", "creat", "creat64", "__xmknod", "__xmknodat",
	"mktemp", NULL,
};
static const char *const no_path[] = { "tmpfile", "tmpfile64", "shm_open", "shm_unlink", "sem_open",
				       "sem_unlink", "mq_open", "mq_unlink", "wordexp", "tmpnam",
				       "tmpnam_r", "tempnam", "fts_read", "fts64_read", "fts_children",
				       "fts64_children", "fts_set", "fts64_set", "__mq_open_2", "textdomain",
				       "dcgettext", "__dcgettext", "dgettext", "__dgettext", "dcngettext",
				       "dngettext",
				       /* descriptor bookkeeping (src/fd.c): t-records.sh */
				       "close", "close_range", "closefrom", "dup2", "dup3", "fclose",
				       "fcloseall", "closedir", "daemon", "_exit", "_Exit", "unshare",
				       "fts_close", "fts64_close", "__close", "__dup2", "_IO_fclose",
				       "endmntent", "__endmntent", "setns", "vfork", "__vfork", "clone",
				       "__clone", "pclose", "_IO_proc_close", NULL };

static int in(const char *s, const char *const *list)
{
	for (; *list; list++)
		if (!strcmp(s, *list))
			return 1;
	return 0;
}

static int fdcheck(int fd)
{
	if (fd < 0)
		return -1;
	close(fd);
	return 0;
}

static int ptr(const void *p)
{
	return p ? 0 : -1;
}

/* run fn in a child: 0 when the child's program ran and exited 0 */
static int in_child(const char *sym, const char *path)
{
	char *argv[] = { (char *)path, NULL };
	pid_t pid = fork();
	int s;

	if (pid == 0) {
		int fd;

		if (!strcmp(sym, "execve")) execve(path, argv, environ);
		else if (!strcmp(sym, "execv")) execv(path, argv);
		else if (!strcmp(sym, "execl")) execl(path, path, (char *)NULL);
		else if (!strcmp(sym, "execle")) execle(path, path, (char *)NULL, environ);
		else if (!strcmp(sym, "execlp")) execlp(path, path, (char *)NULL);
		else if (!strcmp(sym, "execvp")) execvp(path, argv);
		else if (!strcmp(sym, "execvpe")) execvpe(path, argv, environ);
		else if (!strcmp(sym, "execveat")) execveat(AT_FDCWD, path, argv, environ, 0);
		else if (!strcmp(sym, "fexecve")) {
			fd = (int)syscall(SYS_openat, AT_FDCWD, path, O_RDONLY);
			if (fd >= 0)
				fexecve(fd, argv, environ);
		}
		_exit(100 + (errno & 0x7f));
	}
	waitpid(pid, &s, 0);
	if (WIFEXITED(s) && WEXITSTATUS(s) == 0)
		return 0;
	errno = WIFEXITED(s) && WEXITSTATUS(s) >= 100 ? WEXITSTATUS(s) - 100 : EIO;
	return -1;
}

static int nftw_cb(const char *p, const struct stat *s, int t, struct FTW *f) { (void)p; (void)s; (void)t; (void)f; return 0; }
static int nftw64_cb(const char *p, const struct stat64 *s, int t, struct FTW *f) { (void)p; (void)s; (void)t; (void)f; return 0; }
static int ftw_cb(const char *p, const struct stat *s, int t) { (void)p; (void)s; (void)t; return 0; }
static int ftw64_cb(const char *p, const struct stat64 *s, int t) { (void)p; (void)s; (void)t; return 0; }

static int call(const char *sym, const char *path)
{
	struct stat st;
	struct stat64 st64;
	struct statx sx;
	struct statfs sf;
	struct statfs64 sf64;
	struct statvfs sv;
	struct statvfs64 sv64;
	char buf[4096], tmpl[4200];
	struct timeval tv[2] = { { 0, 0 }, { 0, 0 } };
	struct timespec ts[2] = { { 0, 0 }, { 0, 0 } };
	struct utimbuf ub = { 0, 0 };
	const char *dest;
	int fd;

	snprintf(tmpl, sizeof(tmpl), "%sXXXXXX", path);
	dest = getenv("MATRIX_DEST");	/* an inside name for two-path calls */
	if (!strcmp(sym, "open")) return fdcheck(open(path, O_RDONLY));
	if (!strcmp(sym, "open64")) return fdcheck(open64(path, O_RDONLY));
	if (!strcmp(sym, "openat")) return fdcheck(openat(AT_FDCWD, path, O_RDONLY));
	if (!strcmp(sym, "openat64")) return fdcheck(openat64(AT_FDCWD, path, O_RDONLY));
	if (!strcmp(sym, "__open_2")) return fdcheck(__open_2(path, O_RDONLY));
	if (!strcmp(sym, "__open64_2")) return fdcheck(__open64_2(path, O_RDONLY));
	if (!strcmp(sym, "__openat_2")) return fdcheck(__openat_2(AT_FDCWD, path, O_RDONLY));
	if (!strcmp(sym, "__openat64_2")) return fdcheck(__openat64_2(AT_FDCWD, path, O_RDONLY));
	if (!strcmp(sym, "creat")) return fdcheck(creat(path, 0644));
	if (!strcmp(sym, "creat64")) return fdcheck(creat64(path, 0644));
	if (!strcmp(sym, "fopen")) { FILE *f = fopen(path, "r"); if (f) fclose(f); return ptr(f); }
	if (!strcmp(sym, "fopen64")) { FILE *f = fopen64(path, "r"); if (f) fclose(f); return ptr(f); }
	if (!strcmp(sym, "freopen") || !strcmp(sym, "freopen64")) {
		FILE *f = fopen("/dev/null", "r");
		f = !strcmp(sym, "freopen") ? freopen(path, "r", f) : freopen64(path, "r", f);
		if (f) fclose(f);
		return ptr(f);
	}
	if (!strcmp(sym, "stat")) return stat(path, &st);
	if (!strcmp(sym, "stat64")) return stat64(path, &st64);
	if (!strcmp(sym, "lstat")) return lstat(path, &st);
	if (!strcmp(sym, "lstat64")) return lstat64(path, &st64);
	if (!strcmp(sym, "fstatat")) return fstatat(AT_FDCWD, path, &st, 0);
	if (!strcmp(sym, "fstatat64")) return fstatat64(AT_FDCWD, path, &st64, 0);
	if (!strcmp(sym, "__xstat")) return __xstat(1, path, &st);
	if (!strcmp(sym, "__xstat64")) return __xstat64(1, path, &st64);
	if (!strcmp(sym, "__lxstat")) return __lxstat(1, path, &st);
	if (!strcmp(sym, "__lxstat64")) return __lxstat64(1, path, &st64);
	if (!strcmp(sym, "__fxstatat")) return __fxstatat(1, AT_FDCWD, path, &st, 0);
	if (!strcmp(sym, "__fxstatat64")) return __fxstatat64(1, AT_FDCWD, path, &st64, 0);
	if (!strcmp(sym, "statx")) return statx(AT_FDCWD, path, 0, STATX_BASIC_STATS, &sx);
	if (!strcmp(sym, "access")) return access(path, R_OK);
	if (!strcmp(sym, "faccessat")) return faccessat(AT_FDCWD, path, R_OK, 0);
	if (!strcmp(sym, "eaccess")) return eaccess(path, R_OK);
	if (!strcmp(sym, "euidaccess")) return euidaccess(path, R_OK);
	if (!strncmp(sym, "exec", 4) || !strcmp(sym, "fexecve")) return in_child(sym, path);
	if (!strcmp(sym, "posix_spawn") || !strcmp(sym, "posix_spawnp")) {
		char *argv[] = { (char *)path, NULL };
		pid_t pid;
		int r = !strcmp(sym, "posix_spawn") ? posix_spawn(&pid, path, NULL, NULL, argv, environ)
						    : posix_spawnp(&pid, path, NULL, NULL, argv, environ), s;
		if (r) { errno = r; return -1; }
		waitpid(pid, &s, 0);
		return 0;
	}
	if (!strcmp(sym, "system") || !strcmp(sym, "popen")) {
		char cmd[4200];
		int s;

		snprintf(cmd, sizeof(cmd), "exec '%s'", path);
		if (!strcmp(sym, "system")) {
			s = system(cmd);
		} else {
			FILE *f = popen(cmd, "r");

			s = f ? pclose(f) : -1;
		}
		if (WIFEXITED(s) && WEXITSTATUS(s) == 0) return 0;
		errno = WIFEXITED(s) && WEXITSTATUS(s) == 126 ? EACCES : EIO;
		return -1;
	}
	if (!strcmp(sym, "mkdir")) return mkdir(path, 0755);
	if (!strcmp(sym, "mkdirat")) return mkdirat(AT_FDCWD, path, 0755);
	if (!strcmp(sym, "unlink")) return unlink(path);
	if (!strcmp(sym, "unlinkat")) return unlinkat(AT_FDCWD, path, 0);
	if (!strcmp(sym, "rmdir")) return rmdir(path);
	if (!strcmp(sym, "remove")) return remove(path);
	if (!strcmp(sym, "rename")) return rename(path, dest);
	if (!strcmp(sym, "renameat")) return renameat(AT_FDCWD, path, AT_FDCWD, dest);
	if (!strcmp(sym, "renameat2")) return renameat2(AT_FDCWD, path, AT_FDCWD, dest, 0);
	if (!strcmp(sym, "link")) return link(path, dest);
	if (!strcmp(sym, "linkat")) return linkat(AT_FDCWD, path, AT_FDCWD, dest, 0);
	if (!strcmp(sym, "symlink")) return symlink("target", path);
	if (!strcmp(sym, "symlinkat")) return symlinkat("target", AT_FDCWD, path);
	if (!strcmp(sym, "chmod")) return chmod(path, 0644);
	if (!strcmp(sym, "fchmodat")) return fchmodat(AT_FDCWD, path, 0644, 0);
	if (!strcmp(sym, "chown")) return chown(path, getuid(), getgid());
	if (!strcmp(sym, "lchown")) return lchown(path, getuid(), getgid());
	if (!strcmp(sym, "fchownat")) return fchownat(AT_FDCWD, path, getuid(), getgid(), 0);
	if (!strcmp(sym, "truncate")) return truncate(path, 7);
	if (!strcmp(sym, "truncate64")) return truncate64(path, 7);
	if (!strcmp(sym, "opendir")) { DIR *d = opendir(path); if (d) closedir(d); return ptr(d); }
	if (!strcmp(sym, "chdir")) return chdir(path);
	if (!strcmp(sym, "fchdir")) {
		fd = (int)syscall(SYS_openat, AT_FDCWD, path, O_RDONLY | O_DIRECTORY);
		return fd < 0 ? -1 : fchdir(fd);
	}
	if (!strcmp(sym, "chroot")) return chroot(path);
	if (!strcmp(sym, "readlink")) return readlink(path, buf, sizeof(buf)) < 0 ? -1 : 0;
	if (!strcmp(sym, "readlinkat")) return readlinkat(AT_FDCWD, path, buf, sizeof(buf)) < 0 ? -1 : 0;
	if (!strcmp(sym, "__readlink_chk")) return __readlink_chk(path, buf, sizeof(buf), sizeof(buf)) < 0 ? -1 : 0;
	if (!strcmp(sym, "__readlinkat_chk"))
		return __readlinkat_chk(AT_FDCWD, path, buf, sizeof(buf), sizeof(buf)) < 0 ? -1 : 0;
	if (!strcmp(sym, "realpath")) return ptr(realpath(path, buf));
	if (!strcmp(sym, "canonicalize_file_name")) return ptr(canonicalize_file_name(path));
	if (!strcmp(sym, "utimensat")) return utimensat(AT_FDCWD, path, ts, 0);
	if (!strcmp(sym, "utimes")) return utimes(path, tv);
	if (!strcmp(sym, "lutimes")) return lutimes(path, tv);
	if (!strcmp(sym, "futimesat")) return futimesat(AT_FDCWD, path, tv);
	if (!strcmp(sym, "utime")) return utime(path, &ub);
	if (!strcmp(sym, "mknod")) return mknod(path, S_IFIFO | 0644, 0);
	if (!strcmp(sym, "mknodat")) return mknodat(AT_FDCWD, path, S_IFIFO | 0644, 0);
	if (!strcmp(sym, "mkfifo")) return mkfifo(path, 0644);
	if (!strcmp(sym, "mkfifoat")) return mkfifoat(AT_FDCWD, path, 0644);
	if (!strcmp(sym, "statfs")) return statfs(path, &sf);
	if (!strcmp(sym, "statfs64")) return statfs64(path, &sf64);
	if (!strcmp(sym, "statvfs")) return statvfs(path, &sv);
	if (!strcmp(sym, "statvfs64")) return statvfs64(path, &sv64);
	if (!strcmp(sym, "mkstemp")) return fdcheck(mkstemp(tmpl));
	if (!strcmp(sym, "mkstemp64")) return fdcheck(mkstemp64(tmpl));
	if (!strcmp(sym, "mkostemp")) return fdcheck(mkostemp(tmpl, 0));
	if (!strcmp(sym, "mkostemp64")) return fdcheck(mkostemp64(tmpl, 0));
	if (!strcmp(sym, "mkstemps")) return fdcheck(mkstemps(tmpl, 0));
	if (!strcmp(sym, "mkstemps64")) return fdcheck(mkstemps64(tmpl, 0));
	if (!strcmp(sym, "mkostemps")) return fdcheck(mkostemps(tmpl, 0, 0));
	if (!strcmp(sym, "mkostemps64")) return fdcheck(mkostemps64(tmpl, 0, 0));
	if (!strcmp(sym, "mkdtemp")) return ptr(mkdtemp(tmpl));
	if (!strcmp(sym, "glob")) {
		glob_t g;
		int r = glob(path, 0, NULL, &g);

		if (r == 0) { globfree(&g); return 0; }
		errno = EACCES;	/* nothing matched: nothing was shown */
		return -1;
	}
	if (!strcmp(sym, "scandir")) {
		struct dirent **l;
		int n = scandir(path, &l, NULL, NULL);

		return n < 0 ? -1 : 0;
	}
	if (!strcmp(sym, "scandirat")) {
		struct dirent **l;
		int n = scandirat(AT_FDCWD, path, &l, NULL, NULL);

		return n < 0 ? -1 : 0;
	}
	if (!strcmp(sym, "getxattr")) return getxattr(path, "user.none", buf, sizeof(buf)) < 0 && errno != ENODATA ? -1 : 0;
	if (!strcmp(sym, "lgetxattr")) return lgetxattr(path, "user.none", buf, sizeof(buf)) < 0 && errno != ENODATA ? -1 : 0;
	if (!strcmp(sym, "listxattr")) return listxattr(path, buf, sizeof(buf)) < 0 ? -1 : 0;
	if (!strcmp(sym, "llistxattr")) return llistxattr(path, buf, sizeof(buf)) < 0 ? -1 : 0;
	if (!strcmp(sym, "setxattr")) return setxattr(path, "user.m", "1", 1, 0);
	if (!strcmp(sym, "lsetxattr")) return lsetxattr(path, "user.m", "1", 1, 0);
	if (!strcmp(sym, "removexattr")) return removexattr(path, "user.m");
	if (!strcmp(sym, "lremovexattr")) return lremovexattr(path, "user.m");
	if (!strcmp(sym, "connect") || !strcmp(sym, "sendto") || !strcmp(sym, "sendmsg") || !strcmp(sym, "bind")) {
		struct sockaddr_un un = { .sun_family = AF_UNIX };
		int s = socket(AF_UNIX, !strcmp(sym, "connect") ? SOCK_STREAM : SOCK_DGRAM, 0);

		snprintf(un.sun_path, sizeof(un.sun_path), "%s", path);
		if (!strcmp(sym, "connect")) return connect(s, (struct sockaddr *)&un, sizeof(un));
		if (!strcmp(sym, "bind")) return bind(s, (struct sockaddr *)&un, sizeof(un));
		if (!strcmp(sym, "sendto")) return sendto(s, "x", 1, 0, (struct sockaddr *)&un, sizeof(un)) < 0 ? -1 : 0;
		{
			struct iovec io = { (void *)"x", 1 };
			struct msghdr m = { .msg_name = &un, .msg_namelen = sizeof(un), .msg_iov = &io, .msg_iovlen = 1 };

			return sendmsg(s, &m, 0) < 0 ? -1 : 0;
		}
	}
	if (!strcmp(sym, "__statfs")) return __statfs(path, &sf);
	if (!strcmp(sym, "pathconf")) return pathconf(path, _PC_NAME_MAX) < 0 ? -1 : 0;
	if (!strcmp(sym, "__xmknod")) { dev_t d = 0; return __xmknod(1, path, S_IFIFO | 0644, &d); }
	if (!strcmp(sym, "__xmknodat")) { dev_t d = 0; return __xmknodat(1, AT_FDCWD, path, S_IFIFO | 0644, &d); }
	if (!strcmp(sym, "__realpath_chk")) return ptr(__realpath_chk(path, buf, sizeof(buf)));
	if (!strcmp(sym, "lchmod")) return lchmod(path, 0644);
	if (!strcmp(sym, "mktemp")) return mktemp(tmpl)[0] ? 0 : -1;
	if (!strcmp(sym, "__connect")) {
		struct sockaddr_un un = { .sun_family = AF_UNIX };
		int sk = socket(AF_UNIX, SOCK_STREAM, 0);

		snprintf(un.sun_path, sizeof(un.sun_path), "%s", path);
		return __connect(sk, (struct sockaddr *)&un, sizeof(un));
	}
	if (!strcmp(sym, "fts_open") || !strcmp(sym, "fts64_open")) {
		char *roots[] = { (char *)path, NULL };
		FTS *f = !strcmp(sym, "fts_open") ? fts_open(roots, FTS_LOGICAL, NULL)
			 : (FTS *)fts64_open(roots, FTS_LOGICAL, NULL);

		if (!f)
			return -1;
		fts_close(f);
		return 0;
	}
	if (!strcmp(sym, "updwtmp") || !strcmp(sym, "updwtmpx")) {
		struct utmp ut;

		memset(&ut, 0, sizeof(ut));
		ut.ut_type = DEAD_PROCESS;
		errno = 0;
		if (!strcmp(sym, "updwtmp"))
			updwtmp(path, &ut);
		else
			updwtmpx(path, (struct utmpx *)&ut);
		return errno == EACCES ? -1 : 0;
	}
	if (!strcmp(sym, "catopen")) {
		nl_catd c = catopen(path, 0);

		if (c == (nl_catd)-1)
			return -1;
		catclose(c);
		return 0;
	}
	if (!strcmp(sym, "bindtextdomain")) return bindtextdomain("matrix", path) ? 0 : -1;
	if (!strcmp(sym, "setenv")) return setenv("TZ", path, 1);
	if (!strcmp(sym, "putenv")) {
		static char tz[4200];

		snprintf(tz, sizeof(tz), "TZ=%s", path);
		return putenv(tz) ? -1 : 0;
	}
	if (!strcmp(sym, "nftw")) return nftw(path, nftw_cb, 4, 0) < 0 ? -1 : 0;
	if (!strcmp(sym, "nftw64")) return nftw64(path, nftw64_cb, 4, 0) < 0 ? -1 : 0;
	if (!strcmp(sym, "ftw")) return ftw(path, ftw_cb, 4) < 0 ? -1 : 0;
	if (!strcmp(sym, "ftw64")) return ftw64(path, ftw64_cb, 4) < 0 ? -1 : 0;
	if (!strcmp(sym, "glob64")) {
		glob64_t g;
		int r = glob64(path, 0, NULL, &g);

		if (r == 0) { globfree64(&g); return 0; }
		errno = EACCES;
		return -1;
	}
	if (!strcmp(sym, "scandir64")) { struct dirent64 **l; return scandir64(path, &l, NULL, NULL) < 0 ? -1 : 0; }
	if (!strcmp(sym, "scandirat64")) { struct dirent64 **l; return scandirat64(AT_FDCWD, path, &l, NULL, NULL) < 0 ? -1 : 0; }
	if (!strcmp(sym, "ftok")) return ftok(path, 1) == (key_t)-1 ? -1 : 0;
	if (!strcmp(sym, "setmntent")) { FILE *f = setmntent(path, "r"); if (f) endmntent(f); return ptr(f); }
	if (!strcmp(sym, "__setmntent")) { FILE *f = __setmntent(path, "r"); if (f) endmntent(f); return ptr(f); }
	if (!strcmp(sym, "utmpname")) return utmpname(path);
	if (!strcmp(sym, "utmpxname")) return utmpxname(path);
	if (!strcmp(sym, "dlopen")) return ptr(dlopen(path, RTLD_NOW));
	if (!strcmp(sym, "dlmopen")) return ptr(dlmopen(LM_ID_NEWLM, path, RTLD_NOW));
	if (!strcmp(sym, "fanotify_mark")) {
		int ffd = fanotify_init(FAN_CLASS_NOTIF, O_RDONLY);

		if (ffd < 0) { errno = EACCES; return -1; }	/* cannot test without CAP_SYS_ADMIN */
		return fanotify_mark(ffd, FAN_MARK_ADD, FAN_OPEN, AT_FDCWD, path);
	}
	if (!strcmp(sym, "sendmmsg")) {
		struct sockaddr_un un = { .sun_family = AF_UNIX };
		struct iovec io = { (void *)"x", 1 };
		struct mmsghdr m = { .msg_hdr = { .msg_name = &un, .msg_namelen = sizeof(un), .msg_iov = &io, .msg_iovlen = 1 } };
		int sk = socket(AF_UNIX, SOCK_DGRAM, 0);

		snprintf(un.sun_path, sizeof(un.sun_path), "%s", path);
		return sendmmsg(sk, &m, 1, 0) < 0 ? -1 : 0;
	}
	if (!strcmp(sym, "inotify_add_watch")) return inotify_add_watch(inotify_init(), path, IN_MODIFY) < 0 ? -1 : 0;
	if (!strcmp(sym, "name_to_handle_at")) {
		struct { struct file_handle h; unsigned char b[128]; } fh = { .h.handle_bytes = 128 };
		int mid;

		return name_to_handle_at(AT_FDCWD, path, &fh.h, &mid, 0);
	}
	fprintf(stderr, "matrix: no call for %s\n", sym);
	exit(3);
}

int main(int argc, char **argv)
{
	if (argc == 3 && !strcmp(argv[1], "kind")) {
		puts(in(argv[2], no_path) ? "none" : in(argv[2], new_kind) ? "new" : "file");
		return 0;
	}
	if (argc != 4 || strcmp(argv[1], "call")) {
		fprintf(stderr, "usage: matrix kind SYM | matrix call SYM PATH\n");
		return 2;
	}
	if (call(argv[2], argv[3]) == 0)
		puts("ok");
	else
		puts(errno == EACCES ? "EACCES" : errno == EPERM ? "EPERM" : strerror(errno));
	return 0;
}
