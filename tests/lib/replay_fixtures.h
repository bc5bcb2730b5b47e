/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * replay_fixtures.h - traces with known timings for the replay suites, and
 * a shortcut from a fixture to a plan. Times are T0 + x * unit: unit 1 gives
 * nanosecond-exact plans for unit tests, unit 1000 a replay of a few ms.
 */
#ifndef SREP_REPLAY_FIXTURES_H
#define SREP_REPLAY_FIXTURES_H

#include <stdbool.h>
#include <stdint.h>

#include "fixture.h"
#include "replay.h"

#define RF_T0 5170000000000ull	/* a plausible perf clock */

/*
 * server (100) and client (200) on two CPUs; the client wakes the server
 * (T 4000), the outsider (300) wakes the client (T 6500) after preempting
 * the server; the server exits (T 8000), the client ends asleep (T 9000).
 */
void rf_wakeups(struct fixture *fx, uint64_t unit);
/*
 * parent (100) forks 101 (T 2000), which migrates, wakes the parent and
 * exits (T 5000); the parent forks a new 101 (T 6000: tid reuse) that
 * exits at T 6500; the parent blocks at T 7000.
 */
void rf_fork(struct fixture *fx, uint64_t unit);
/* ping (100) and pong (200) wake each other 'rounds' times, running 'run' units each time */
void rf_pingpong(struct fixture *fx, uint64_t unit, int rounds, uint64_t run);

/*
 * Write, open with PRESCAN, select and build. 'only'/'exclude' are
 * NULL-terminated lists (NULL: none); without 'only' the default
 * exclusions apply, as in the command. Fails the test on error.
 */
struct rp_plan *rf_build(struct fixture *fx, const char *const *only,
			 const char *const *exclude);
/* the nth (0-based) planned task with this tid; NULL if none */
const struct rp_task *rf_task(const struct rp_plan *p, int32_t tid, int nth);
/* its plan index */
uint32_t rf_index(const struct rp_plan *p, const struct rp_task *t);
/* action i of t, as a cursor yields it (fails the test if there is none) */
struct rp_action rf_action(const struct rp_plan *p, const struct rp_task *t, size_t i);

#endif
