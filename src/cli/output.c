// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * output.c - atomic output files and directories, interruption, and the
 * progress line.
 *
 * An output is written to a temporary file (or directory) beside its target
 * and renamed into place only when complete: an error or Ctrl-C never
 * leaves half a file or half a tree. A device or FIFO (/dev/null, a named
 * pipe) is written directly instead. The signal handler removes a temporary
 * file; that path, whether it is a directory, and the interrupt flag are the
 * CLI's only globals.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"

volatile sig_atomic_t cli_interrupted;
static char tracked_tmp[4096];
static volatile sig_atomic_t tracked_is_dir;

/*
 * A temporary file is unlinked here and the signal raised again: unlink()
 * is async-signal-safe, and the process ends as interrupted wherever it
 * was. A temporary directory is a tree, and listing a directory (opendir,
 * readdir, nftw) allocates, which a handler must not do: the handler then
 * only sets the flag and returns, and the command, which checks the flag
 * between events (cmd-convert.c), stops and removes the tree in ordinary
 * context (cli_out_abort), then exits 130. This relies on the command not
 * being stuck in a read by then: the directory is made after the input
 * was opened, and the one directory format (criu) prescans, so its input is
 * a file and not a stalled pipe.
 */
static void on_signal(int sig)
{
	cli_interrupted = 1;
	if (tracked_is_dir)
		return;
	if (tracked_tmp[0])
		unlink(tracked_tmp);
	signal(sig, SIG_DFL);
	raise(sig);
}

void cli_signals_install(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
}

/* SIGINT and SIGTERM held back until signals_restore() */
static void signals_hold(sigset_t *old)
{
	sigset_t block;

	sigemptyset(&block);
	sigaddset(&block, SIGINT);
	sigaddset(&block, SIGTERM);
	sigprocmask(SIG_BLOCK, &block, old);
}

static void signals_restore(const sigset_t *old)
{
	sigprocmask(SIG_SETMASK, old, NULL);
}

static void track(const char *tmp_path, bool is_dir)
{
	sigset_t old;

	/* the handler must never see a half-copied path */
	signals_hold(&old);
	snprintf(tracked_tmp, sizeof(tracked_tmp), "%s", tmp_path ? tmp_path : "");
	tracked_is_dir = tmp_path && is_dir;
	signals_restore(&old);
}

void cli_signals_track(const char *tmp_path)
{
	track(tmp_path, false);
}

char *cli_default_output(const char *input, const char *suffix)
{
	const char *base = strrchr(input, '/'), *dot;
	size_t stem;
	char *out;

	base = base ? base + 1 : input;
	dot = strrchr(base, '.');
	stem = dot && dot != base ? (size_t)(dot - base) : strlen(base);
	if (!strcmp(input, "-"))
		return strdup("-");
	out = malloc(stem + strlen(suffix) + 1);
	if (!out)
		return NULL;
	memcpy(out, base, stem);
	strcpy(out + stem, suffix);
	return out;
}

static bool same_file(const char *a, const char *b)
{
	struct stat sa, sb;

	return a && b && strcmp(a, "-") && stat(a, &sa) == 0 && stat(b, &sb) == 0 &&
	       sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
}

/*
 * A device, FIFO or socket (/dev/null, /dev/stdout, a named pipe) is written
 * as it is: renaming a temporary file over it would replace the device
 * with a regular file. Such an output cannot be atomic anyway.
 */
static int open_special(struct cli_out *o, const char *path, const struct stat *sb,
			struct srep_error *err)
{
	if (S_ISDIR(sb->st_mode))
		return srep_error__set(err, SREP_E_INVAL, "'%s' is a directory", path);
	o->path = strdup(path);
	if (!o->path)
		return srep_error__set(err, SREP_E_NOMEM, "no memory");
	o->f = fopen(path, "w");
	if (!o->f) {
		srep_error__set(err, SREP_E_IO, "'%s': cannot open: %s", path, strerror(errno));
		free(o->path);
		o->path = NULL;
		return SREP_E_IO;
	}
	return 0;
}

int cli_out_open(struct cli_out *o, const char *path, const char *input_path,
		 struct srep_error *err)
{
	const char *slash;
	struct stat sb;
	int fd;

	memset(o, 0, sizeof(*o));
	if (!strcmp(path, "-")) {
		o->f = stdout;
		return 0;
	}
	if (same_file(path, input_path))
		return srep_error__set(err, SREP_E_INVAL, "'%s': refusing to overwrite the input", path);
	if (!stat(path, &sb) && !S_ISREG(sb.st_mode))
		return open_special(o, path, &sb, err);
	o->path = strdup(path);
	slash = strrchr(path, '/');
	if (!o->path || asprintf(&o->tmp, "%.*s.schedrep-tmp-XXXXXX",
				 (int)(slash ? slash - path + 1 : 0), path) < 0)
		return srep_error__set(err, SREP_E_NOMEM, "no memory");
	fd = mkstemp(o->tmp);
	if (fd < 0 || !(o->f = fdopen(fd, "w"))) {
		srep_error__set(err, SREP_E_IO, "'%s': cannot create a file beside it: %s", path,
				strerror(errno));
		if (fd >= 0)
			close(fd);
		free(o->tmp);
		o->tmp = NULL;
		return SREP_E_IO;
	}
	cli_signals_track(o->tmp);
	return 0;
}

/* ---- directories ---- */

static bool dir_is_empty(const char *path)
{
	DIR *d = opendir(path);
	struct dirent *e;
	bool empty = true;

	if (!d)
		return false;
	while (empty && (e = readdir(d)))
		empty = !strcmp(e->d_name, ".") || !strcmp(e->d_name, "..");
	closedir(d);
	return empty;
}

/* the target may be missing or an empty directory (which the rename replaces) */
static int check_dir_target(const char *path, const char *input_path, struct srep_error *err)
{
	struct stat sb;

	if (same_file(path, input_path))
		return srep_error__set(err, SREP_E_INVAL, "'%s': refusing to overwrite the input", path);
	if (stat(path, &sb)) {
		if (errno == ENOENT)
			return 0;
		return srep_error__set(err, SREP_E_IO, "'%s': %s", path, strerror(errno));
	}
	if (!S_ISDIR(sb.st_mode))
		return srep_error__set(err, SREP_E_INVAL, "'%s' exists and is not a directory: "
				       "refusing to replace it", path);
	if (!dir_is_empty(path))
		return srep_error__set(err, SREP_E_INVAL, "'%s' exists and is not empty: refusing to "
				       "replace it (remove it, or choose another -o)", path);
	return 0;
}

int cli_out_open_dir(struct cli_out *o, const char *path, const char *input_path,
		     struct srep_error *err)
{
	size_t len = strlen(path);
	sigset_t old;
	int ret;

	memset(o, 0, sizeof(*o));
	o->dir = true;
	while (len > 1 && path[len - 1] == '/')		/* "out.criu/" names "out.criu" */
		len--;
	o->path = strndup(path, len);
	if (!o->path || asprintf(&o->tmp, "%s.schedrep-tmp-XXXXXX", o->path) < 0) {
		o->tmp = NULL;
		cli_out_abort(o);
		return srep_error__set(err, SREP_E_NOMEM, "no memory");
	}
	ret = check_dir_target(o->path, input_path, err);
	if (ret) {
		free(o->tmp);
		o->tmp = NULL;
		cli_out_abort(o);
		return ret;
	}
	/* no Ctrl-C between making it and tracking it: either it is tracked or it is not there */
	signals_hold(&old);
	if (!mkdtemp(o->tmp)) {
		signals_restore(&old);
		ret = srep_error__set(err, SREP_E_IO, "'%s': cannot create a directory beside it: %s",
				      o->path, strerror(errno));
		free(o->tmp);
		o->tmp = NULL;
		cli_out_abort(o);
		return ret;
	}
	track(o->tmp, true);
	signals_restore(&old);
	return 0;
}

static int remove_entry(const char *path, const struct stat *sb, int flag, struct FTW *ftw)
{
	(void)sb;
	(void)flag;
	(void)ftw;
	return remove(path) ? -1 : 0;
}

/* the temporary tree, depth first; symbolic links are removed, not followed */
static void remove_tree(const char *path)
{
	nftw(path, remove_entry, 16, FTW_DEPTH | FTW_PHYS);
}

static int commit_dir(struct cli_out *o, struct srep_error *err)
{
	sigset_t old;
	mode_t mask;
	int ret = 0;

	/* a Ctrl-C from here on is seen after the rename: the output is then complete */
	signals_hold(&old);
	if (cli_interrupted) {
		ret = srep_error__set(err, SREP_E_INTERRUPTED, "interrupted");
	} else {
		/* the usual mode for a new directory (mkdtemp made it 0700) */
		mask = umask(0);
		umask(mask);
		chmod(o->tmp, 0777 & ~mask);
		if (rename(o->tmp, o->path))
			ret = srep_error__set(err, SREP_E_IO, "'%s': cannot move the output into place: "
					      "%s", o->path, errno == ENOTEMPTY || errno == EEXIST ?
					      "it is not empty any more" : strerror(errno));
	}
	if (ret) {
		cli_out_abort(o);
	} else {
		track(NULL, false);
		free(o->tmp);
		free(o->path);
		memset(o, 0, sizeof(*o));
	}
	signals_restore(&old);
	return ret;
}

/* ---- commit, abort ---- */

int cli_out_commit(struct cli_out *o, struct srep_error *err)
{
	mode_t mask;
	int failed;

	if (o->dir)
		return commit_dir(o, err);
	if (o->f == stdout)
		return fflush(stdout) ? srep_error__set(err, SREP_E_IO, "cannot write standard output: %s",
							strerror(errno)) : 0;
	/* new files get the usual mode (mkstemp made it 0600); a device is left as it is */
	if (o->tmp) {
		mask = umask(0);
		umask(mask);
		fchmod(fileno(o->f), 0666 & ~mask);
	}
	failed = fflush(o->f) || ferror(o->f);
	failed |= fclose(o->f) != 0;
	o->f = NULL;
	if (failed || (o->tmp && rename(o->tmp, o->path))) {
		srep_error__set(err, SREP_E_IO, "'%s': cannot write: %s", o->path, strerror(errno));
		cli_out_abort(o);
		return SREP_E_IO;
	}
	cli_signals_track(NULL);
	free(o->tmp);
	free(o->path);
	memset(o, 0, sizeof(*o));
	return 0;
}

void cli_out_abort(struct cli_out *o)
{
	if (o->f && o->f != stdout)
		fclose(o->f);
	if (o->tmp && o->dir)
		remove_tree(o->tmp);
	else if (o->tmp)
		unlink(o->tmp);
	cli_signals_track(NULL);
	free(o->tmp);
	free(o->path);
	memset(o, 0, sizeof(*o));
}

/* ---- progress ---- */

#define PROGRESS_MIN_BYTES (64u << 20)	/* smaller inputs finish before a line is useful */

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

void cli_progress_init(struct cli_progress *p, const char *what, const struct srep_session *s,
		       FILE *streaming)
{
	uint64_t done, total;

	srep_session__progress(s, &done, &total);
	*p = (struct cli_progress){ .what = what, .start_ns = now_ns() };
	/* a pipe's size is unknown: it may be long */
	p->on = !cli_quiet && isatty(STDERR_FILENO) && (!total || total >= PROGRESS_MIN_BYTES) &&
		!(streaming && isatty(fileno(streaming)));
}

void cli_progress_tick(struct cli_progress *p, const struct srep_session *s)
{
	uint64_t t = now_ns(), done, total;
	double secs, rate;

	if (t - p->last_ns < 200000000ull)
		return;
	p->last_ns = t;
	srep_session__progress(s, &done, &total);
	secs = (double)(t - p->start_ns) / 1e9;
	rate = secs > 0 ? (double)done / secs : 0;
	if (total && rate > 0 && done <= total)
		fprintf(stderr, "\r%s: %5.1f%% of %.1f MB, %.1f MB/s, %.0f s left\033[K", p->what,
			100.0 * (double)done / (double)total, (double)total / 1e6, rate / 1e6,
			(double)(total - done) / rate);
	else	/* a pipe: no size to go by */
		fprintf(stderr, "\r%s: %.1f MB, %.1f MB/s\033[K", p->what, (double)done / 1e6,
			rate / 1e6);
}

void cli_progress_done(struct cli_progress *p)
{
	if (p->on && p->last_ns)
		fprintf(stderr, "\r\033[K");
	p->last_ns = 0;
}
