/*
 * unit.h - concurrency unit tests inside the runtime (docs/tests.md).
 *
 * A test program holds RAVEL_TEST bodies; their constructors register
 * them here (registry.c). The program runs in one of two ways, decided
 * at start-up by the door's `arguments` (registry.c; the runtime knows
 * this module only through its door, struct ravel__door in rt.h):
 *
 *   driver    `./tests [--list] [--filter P] [options]`: ravel does not
 *             take over; main (ravel_test_main, driver.c) runs natively,
 *             lists and selects the tests and runs each one in a process
 *             of its own: this program again, with --test SUITE/NAME;
 *   one test  `./tests --test SUITE/NAME`: an ordinary ravel run (a
 *             supervisor, executors, strategies, reports, tickets) whose
 *             executions run that test's setup, body and teardown
 *             instead of main (the door's begin swaps them).
 *
 * This header is what the module's files share.
 */
#ifndef RAVEL_UNIT_H
#define RAVEL_UNIT_H

#include "../rt/rt.h"

struct ravel_test;

/* Registered tests, in registration order (constructor order: within a
 * file, top to bottom). */
unsigned ravel__unit_count(void);
const struct ravel_test *ravel__unit_at(unsigned i);
/* The test named "suite/name", or NULL. */
const struct ravel_test *ravel__unit_find(const char *full_name);
/* Writes "suite/name" into buf. */
void ravel__unit_full_name(const struct ravel_test *t, char *buf, size_t len);
/* Registration problems (too many tests, one name defined twice): a
 * one-line message, or NULL. */
const char *ravel__unit_registry_error(void);

#endif
