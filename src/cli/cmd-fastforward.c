// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * cmd-fastforward.c - "schedrep fastforward": parse the targets and the
 * action, run the engine (fastforward/fastforward.h), run the action at
 * each stop into OUT/NNN-COUNT/, keep OUT/fastforward.json up to date and
 * say how far off each stop was. Messages go to stderr: the workload's
 * standard streams are its own.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cli.h"
#include "fastforward.h"
#include "ff-log.h"
#include "record.h"

static const char ff_usage[] =
	"usage: schedrep fastforward [-e EVENT] (--at N[,N]... | --every N | --plan PLAN) "
	"[--exec CMD | --no-action] [--exact [--tolerance N]] [--only] [--keep-going] "
	"[--on-interrupt resume|kill] [-o DIR] -- CMD [ARGS]...";
static const char ff_desc[] =
	"Run CMD under one counting perf event (default instructions:u) summed over its\n"
	"threads and children, stop the whole process tree when the count reaches each\n"
	"target, run the checkpoint action with the tree stopped and the counter disabled,\n"
	"then let it go on. The action runs through /bin/sh with {pid}, {n}, {count} and\n"
	"{dir} replaced; without --exec it is 'criu dump -t {pid} -D {dir} --shell-job\n"
	"--leave-running'. {dir} is DIR/NNN-TARGET. DIR/fastforward.json logs every stop:\n"
	"target, count reached, skid, time, the action's status. Counts take K, M, G, T\n"
	"(decimal). The plan is the JSON of 'schedrep simpoint': its points' starts.";

#define CRIU_ACTION "criu dump -t {pid} -D {dir} --shell-job --leave-running"

enum {
	OPT_EVENT = 1, OPT_AT, OPT_EVERY, OPT_PLAN, OPT_EXEC, OPT_NO_ACTION, OPT_EXACT, OPT_TOL,
	OPT_ONLY, OPT_KEEP, OPT_INTR, OPT_OUTPUT, OPT_QUIET,
};

static const struct cli_opt ff_opts[] = {
	{ "event", 'e', "EVENT", "the counter (instructions:u; task-clock without a PMU)", OPT_EVENT },
	{ "at", 0, "N[,N]", "stop at these counts; repeatable", OPT_AT },
	{ "every", 0, "N", "stop every N, to the end", OPT_EVERY },
	{ "plan", 0, "PLAN", "stop at the starts of a 'schedrep simpoint' plan", OPT_PLAN },
	{ "exec", 0, "CMD", "the action (default: criu dump into {dir})", OPT_EXEC },
	{ "no-action", 0, NULL, "only stop, measure and go on", OPT_NO_ACTION },
	{ "exact", 0, NULL, "re-arm for the remainder until within the tolerance", OPT_EXACT },
	{ "tolerance", 0, "N", "--exact: how far below a target is close enough (1% of the interval)",
	  OPT_TOL },
	{ "only", 0, NULL, "count the first thread only, not its threads and children", OPT_ONLY },
	{ "keep-going", 0, NULL, "go on after a failed action", OPT_KEEP },
	{ "on-interrupt", 0, "WHAT", "after SIGINT or a failed action: resume (default) or kill",
	  OPT_INTR },
	{ "output", 'o', "DIR", "the checkpoints and fastforward.json (fastforward/)", OPT_OUTPUT },
	{ "quiet", 'q', NULL, "no progress or summary", OPT_QUIET },
	{ NULL, 0, NULL, NULL, 0 },
};

struct ff_cli {
	struct srep_ff_opts o;
	uint64_t *targets;
	const char *plan_path, *exec, *out;
	struct ff_plan plan;
	bool no_action, keep_going, tol_given, progress;
	struct ff_log log;
	uint64_t prev;			/* the previous target, for intervals */
	unsigned failed;		/* actions that failed */
};

static int add_at(struct ff_cli *c, const char *arg)
{
	char *copy = strdup(arg), *tok, *save = NULL;
	struct srep_error err = { 0 };
	uint64_t *n, v;
	int ret = EXIT_OK;

	if (!copy)
		return (cli_errorf("out of memory"), EXIT_FAIL);
	for (tok = strtok_r(copy, ",", &save); tok && !ret; tok = strtok_r(NULL, ",", &save)) {
		if (srep_ff_parse_count(tok, &v, &err)) {
			ret = cli_usage_error(ff_usage, "--at: %s", err.msg);
		} else if (c->o.nr_targets && v < c->targets[c->o.nr_targets - 1]) {
			ret = cli_usage_error(ff_usage, "--at: %s comes before the previous target", tok);
		} else if (!(n = realloc(c->targets, (c->o.nr_targets + 1) * sizeof(*n)))) {
			ret = (cli_errorf("out of memory"), EXIT_FAIL);
		} else {
			c->targets = n;
			c->targets[c->o.nr_targets++] = v;
		}
	}
	free(copy);
	c->o.targets = c->targets;
	return ret;
}

static int on_opt(void *ctx, int id, const char *arg)
{
	struct ff_cli *c = ctx;
	struct srep_error err = { 0 };

	switch (id) {
	case OPT_EVENT:		c->o.event = arg; break;
	case OPT_AT:		return add_at(c, arg);
	case OPT_PLAN:		c->plan_path = arg; break;
	case OPT_EXEC:		c->exec = arg; break;
	case OPT_NO_ACTION:	c->no_action = true; break;
	case OPT_EXACT:		c->o.exact = true; break;
	case OPT_ONLY:		c->o.only_main = true; break;
	case OPT_KEEP:		c->keep_going = true; break;
	case OPT_OUTPUT:	c->out = arg; break;
	case OPT_QUIET:		cli_quiet = true; break;
	case OPT_EVERY:
		if (srep_ff_parse_count(arg, &c->o.every, &err) || !c->o.every)
			return cli_usage_error(ff_usage, "bad --every '%s': expected a count such as 100M", arg);
		break;
	case OPT_TOL:
		c->tol_given = true;
		if (srep_ff_parse_count(arg, &c->o.tolerance, &err))
			return cli_usage_error(ff_usage, "bad --tolerance '%s': expected a count", arg);
		break;
	case OPT_INTR:
		if (strcmp(arg, "resume") && strcmp(arg, "kill"))
			return cli_usage_error(ff_usage, "bad --on-interrupt '%s': expected resume or kill", arg);
		c->o.kill_on_stop = !strcmp(arg, "kill");
		break;
	default:
		return EXIT_USAGE;
	}
	return EXIT_OK;
}

/* 'criu' in $PATH */
static bool have_criu(void)
{
	const char *path = getenv("PATH");
	char *copy = strdup(path ? path : "/usr/sbin:/usr/bin:/sbin:/bin"), *dir, *save = NULL;
	char file[4096];
	bool found = false;

	for (dir = copy ? strtok_r(copy, ":", &save) : NULL; dir && !found;
	     dir = strtok_r(NULL, ":", &save)) {
		snprintf(file, sizeof(file), "%s/criu", dir);
		found = !access(file, X_OK);
	}
	free(copy);
	return found;
}

static bool action_ok(const struct ff_log_entry *e)
{
	return WIFEXITED(e->action.status) && WEXITSTATUS(e->action.status) == 0;
}

/* the action failed: its status and the end of what it said */
static void report_failure(const struct ff_log_entry *e)
{
	const char *out = e->action.output ? e->action.output : "";
	int st = e->action.status;

	if (WIFEXITED(st))
		cli_errorf("target %zu: the action exited with status %d: %s", e->stop.index + 1,
			   WEXITSTATUS(st), e->command);
	else
		cli_errorf("target %zu: the action was killed by signal %d: %s", e->stop.index + 1,
			   WIFSIGNALED(st) ? WTERMSIG(st) : 0, e->command);
	if (*out)
		fprintf(stderr, "%s%s", out, out[strlen(out) - 1] == '\n' ? "" : "\n");
}

static int run_action(struct ff_cli *c, struct ff_log_entry *e)
{
	struct srep_ff_subst s = { e->stop.pid, e->stop.index + 1, e->stop.reached, NULL };
	struct srep_error err = { 0 };
	char *dir = NULL;
	int ret;

	if (asprintf(&dir, "%s/%s", c->out, e->dir) < 0)
		return -1;
	if (mkdir(dir, 0777) && errno != EEXIST) {
		cli_errorf("'%s': %s", dir, strerror(errno));
		free(dir);
		return -1;
	}
	s.dir = dir;
	e->command = srep_ff_expand(c->exec, &s);
	ret = e->command ? srep_ff_action_run(e->command, &e->action, &err) : -1;
	if (ret && e->command)
		cli_error(&err);
	rmdir(dir);		/* an action that wrote nothing there leaves no empty directory */
	free(dir);
	if (!ret && !action_ok(e)) {
		report_failure(e);
		c->failed++;
		ret = c->keep_going ? 0 : 1;
	}
	return ret;
}

static enum srep_ff_next on_stop(void *arg, const struct srep_ff_stop *st)
{
	struct ff_cli *c = arg;
	struct ff_log_entry *e = ff_log_add(&c->log);
	struct srep_error err = { 0 };
	int ret = 0;

	if (c->progress)
		fputs("\r\033[K", stderr);
	if (!e)
		return (cli_errorf("out of memory"), SREP_FF_STOP);
	e->stop = *st;
	e->interval = st->requested - c->prev;
	c->prev = st->requested;
	if (c->plan.nr && st->index < c->plan.nr)
		e->point = c->plan.points[st->index];
	if (asprintf(&e->dir, "%03zu-%" PRIu64, st->index + 1, st->requested) < 0)
		e->dir = NULL;
	if (!c->no_action)
		ret = run_action(c, e);
	if (!cli_quiet)
		fprintf(stderr, "schedrep fastforward: target %zu: %" PRIu64 " %s reached at %" PRIu64
			" (skid %+" PRId64 ", %u stop%s, %.3f s)%s\n", st->index + 1, st->requested,
			c->log.unit, st->reached, st->skid, st->hops, st->hops == 1 ? "" : "s",
			(double)st->wall_ns / 1e9, !e->command ? "" : action_ok(e) ? ", action done" : ", action failed");
	if (ff_log_write(&c->log, &err)) {
		cli_error(&err);
		return SREP_FF_STOP;
	}
	return ret ? SREP_FF_STOP : SREP_FF_CONTINUE;
}

static void on_tick(void *arg, uint64_t count, size_t next)
{
	struct ff_cli *c = arg;

	if (!c->progress)
		return;
	if (c->o.every || next < c->o.nr_targets)
		fprintf(stderr, "\r\033[Kschedrep fastforward: %" PRIu64 " %s, next target %zu", count,
			c->log.unit, next + 1);
	else
		fprintf(stderr, "\r\033[Kschedrep fastforward: %" PRIu64 " %s, every target done", count,
			c->log.unit);
}

/* one source of targets, an event that is a counter, an action and an output directory */
static int prepare(struct ff_cli *c)
{
	struct srep_rec_counter k;
	struct srep_error err = { 0 };
	int sources = (c->o.nr_targets > 0) + (c->o.every > 0) + (c->plan_path != NULL);

	if (sources != 1)
		return cli_usage_error(ff_usage, "give exactly one of --at, --every and --plan");
	if (c->plan_path) {
		if (ff_plan_read(c->plan_path, &c->plan, &err))
			return cli_error(&err);
		c->o.targets = c->plan.starts;
		c->o.nr_targets = c->plan.nr;
		if (!c->o.event)
			c->o.event = c->plan.event;
		else if (c->plan.event && strcmp(c->plan.event, c->o.event))
			fprintf(stderr, "schedrep fastforward: warning: the plan counts '%s', not '%s'\n",
				c->plan.event, c->o.event);
	}
	if (!c->o.event)
		c->o.event = SREP_FF_DEFAULT_EVENT;
	if (srep_rec_counter__parse(c->o.event, &k, &err))
		return cli_usage_error(ff_usage, "%s", err.msg);
	if (c->tol_given && !c->o.exact)
		return cli_usage_error(ff_usage, "--tolerance needs --exact");
	if (c->exec && c->no_action)
		return cli_usage_error(ff_usage, "--exec and --no-action exclude each other");
	if (!c->exec && !c->no_action && !have_criu()) {
		cli_errorf("criu is not installed: install it, or give the action with --exec CMD");
		return EXIT_FAIL;
	}
	if (!c->exec)
		c->exec = CRIU_ACTION;
	if (mkdir(c->out, 0777) && errno != EEXIST) {
		cli_errorf("'%s': cannot create the output directory: %s", c->out, strerror(errno));
		return EXIT_FAIL;
	}
	c->log.event = c->o.event;
	c->log.unit = k.unit;
	return EXIT_OK;
}

/* --exact without --tolerance: 1% of the smallest interval, at least 1 */
static uint64_t default_tolerance(const struct srep_ff_opts *o)
{
	uint64_t prev = 0, least = o->every ? o->every : UINT64_MAX;
	size_t i;

	for (i = 0; i < o->nr_targets; i++) {
		if (o->targets[i] > prev && o->targets[i] - prev < least)
			least = o->targets[i] - prev;
		prev = o->targets[i];
	}
	return least == UINT64_MAX || least < 100 ? 1 : least / 100;
}

static void summary(const struct ff_cli *c, const struct srep_ff_result *r)
{
	int64_t med, max;
	double medf, maxf;

	ff_log_skid(&c->log, &med, &max, &medf, &maxf);
	fprintf(stderr, "schedrep fastforward: %zu target%s reached", r->reached, r->reached == 1 ? "" : "s");
	if (r->reached)
		fprintf(stderr, "; skid median %+" PRId64 " %s (%.3f%% of the interval), max %+" PRId64
			" %s (%.3f%%)", med, c->log.unit, 100 * medf, max, c->log.unit, 100 * maxf);
	if (c->failed)
		fprintf(stderr, "; %u action%s failed", c->failed, c->failed == 1 ? "" : "s");
	fprintf(stderr, "; log '%s'\n", c->log.path);
	if (r->exited && WIFEXITED(r->status))
		fprintf(stderr, "  the workload exited with status %d (%" PRIu64 " %s)\n",
			WEXITSTATUS(r->status), r->final_count, c->log.unit);
	else if (r->exited && WIFSIGNALED(r->status))
		fprintf(stderr, "  the workload was killed by signal %d\n", WTERMSIG(r->status));
	else
		fprintf(stderr, "  the workload %s\n", r->killed ? "was killed" : "runs on, unobserved");
}

static int fastforward(struct ff_cli *c)
{
	struct srep_ff_result r;
	struct srep_error err = { 0 };
	int ret;

	if (c->o.exact && !c->tol_given)
		c->o.tolerance = default_tolerance(&c->o);
	c->o.action = on_stop;
	c->o.tick = on_tick;
	c->o.arg = c;
	/* the workload writes to its stdout as it runs: a line there would cut its output */
	c->progress = !cli_quiet && isatty(STDERR_FILENO) && !isatty(STDOUT_FILENO);
	ret = srep_ff__run(&c->o, &r, &err);
	if (c->progress)
		fputs("\r\033[K", stderr);
	if (ret)
		return cli_error(&err);
	c->log.result = &r;
	/* the next target, when the workload left before it */
	c->log.gave_up = r.exited && !r.interrupted && !r.stopped &&
			 (r.reached < c->o.nr_targets || c->o.every);
	c->log.missed_target = r.reached < c->o.nr_targets ? c->o.targets[r.reached]
							   : c->o.every * (r.reached + 1);
	if (ff_log_write(&c->log, &err))
		return cli_error(&err);
	if (!cli_quiet)
		summary(c, &r);
	if (r.interrupted)
		return EXIT_INTERRUPTED;
	if (r.stopped)
		return EXIT_FAIL;
	if (c->log.gave_up && r.reached < c->o.nr_targets) {
		cli_errorf("the workload exited at %" PRIu64 " %s, before target %zu (%" PRIu64 ")",
			   r.final_count, c->log.unit, r.reached + 1, c->log.missed_target);
		return EXIT_FAIL;
	}
	return c->failed ? EXIT_FAIL : EXIT_OK;
}

int cmd_fastforward(int argc, char **argv)
{
	struct ff_cli c;
	char *log_path = NULL;
	int first, ret;
	bool done;

	memset(&c, 0, sizeof(c));
	c.out = "fastforward";
	ret = cli_parse(argc, argv, ff_usage, ff_desc, ff_opts, on_opt, &c, &first, &done);
	if (!ret && !done) {
		if (first >= argc)
			ret = cli_usage_error(ff_usage, "no command to run after --");
		if (!ret)
			ret = prepare(&c);
		if (!ret && asprintf(&log_path, "%s/fastforward.json", c.out) < 0)
			ret = (cli_errorf("out of memory"), EXIT_FAIL);
		if (!ret) {
			c.o.argv = argv + first;
			c.log.argv = argv + first;
			c.log.path = log_path;
			c.log.stop_method = SREP_FF_STOP_METHOD;
			ret = fastforward(&c);
		}
	}
	ff_log_free(&c.log);
	ff_plan_free(&c.plan);
	free(c.targets);
	free(log_path);
	return ret;
}
