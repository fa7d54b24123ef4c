/*
 * registry.c - the tests a program holds, and running one of them.
 *
 * Registration. Every RAVEL_TEST expands to a static descriptor and a
 * constructor that hands it to ravel_test_register, so a test program
 * needs no list of its tests (Criterion and greatest do the same; a
 * linker section would also work, but its __start_ symbols are hidden
 * from a shared runtime). The list is a fixed array in the runtime's own
 * data: the runtime is not instrumented, so the reset between
 * executions never touches it, and constructors allocate nothing.
 *
 * The door (the runtime's table of hooks, struct ravel__door in
 * src/rt/rt.h; property testing is the other door). A program that
 * imports ravel_test_register is a test program (claim). Before
 * anything is set up, its arguments decide (arguments): with `--test
 * SUITE/NAME` it runs that one test under ravel, otherwise it is the
 * driver (driver.c) and ravel stays out of the way.
 *
 * One test. The executor calls the door's begin before its first
 * execution, after the program's constructors registered the tests: it
 * finds the test and puts the runner in place of main, so every
 * execution runs setup, body and teardown in thread 1. Tickets and the
 * JSON summary carry the test's name (case_name). Each test runs
 * in a process of its own, started by the driver: nothing one test
 * leaves behind (threads blocked forever, locks held, globals, heap,
 * descriptors) can reach the next, whatever the order.
 */
#include "unit.h"

#include "../../include/ravel.h"
#include "../report/elf.h"

#include <stdio.h>
#include <string.h>

/* Tests in one program. Constant: the list is static (see above). */
#define MAX_TESTS 4096

static const struct ravel_test *tests[MAX_TESTS];
static unsigned ntests;
static char registry_error[512];

RAVEL__EXPORT void ravel_test_register(const struct ravel_test *t)
{
    if (!t || !t->suite || !t->name || !t->body)
        return;
    if (ntests == MAX_TESTS) {
        if (!registry_error[0])
            snprintf(registry_error, sizeof registry_error,
                     "more than %d tests in one program", MAX_TESTS);
        return;
    }
    for (unsigned i = 0; i < ntests; i++) {
        if (!strcmp(tests[i]->suite, t->suite) &&
            !strcmp(tests[i]->name, t->name) && !registry_error[0])
            snprintf(registry_error, sizeof registry_error,
                     "test %s/%s is defined twice (%s:%d and %s:%d)",
                     t->suite, t->name, tests[i]->file, tests[i]->line,
                     t->file, t->line);
    }
    tests[ntests++] = t;
}

unsigned ravel__unit_count(void)
{
    return ntests;
}

const struct ravel_test *ravel__unit_at(unsigned i)
{
    return i < ntests ? tests[i] : NULL;
}

void ravel__unit_full_name(const struct ravel_test *t, char *buf, size_t len)
{
    snprintf(buf, len, "%s/%s", t->suite, t->name);
}

const struct ravel_test *ravel__unit_find(const char *full_name)
{
    const char *slash = strchr(full_name, '/');
    if (!slash)
        return NULL;
    size_t sl = (size_t)(slash - full_name);
    for (unsigned i = 0; i < ntests; i++)
        if (strlen(tests[i]->suite) == sl &&
            !strncmp(tests[i]->suite, full_name, sl) &&
            !strcmp(tests[i]->name, slash + 1))
            return tests[i];
    return NULL;
}

const char *ravel__unit_registry_error(void)
{
    return registry_error[0] ? registry_error : NULL;
}

/* ---- the door --------------------------------------------------------- */

/* The test this process runs (--test), NULL in other processes. */
static const char *one_name;
static const struct ravel_test *one;

/* A test program is one that imports ravel_test_register. */
static bool door_claim(const struct ravel__elf *exe)
{
    return ravel__elf_imports(exe, "ravel_test_register");
}

/* `--test SUITE/NAME [options]`: one test, ravel's options after the
 * name; anything else: the driver, natively (-1). */
static int door_arguments(int argc, char **argv)
{
    if (argc >= 3 && !strcmp(argv[1], "--test")) {
        one_name = argv[2];
        return 3;
    }
    if (argc >= 2 && !strncmp(argv[1], "--test=", 7)) {
        one_name = argv[1] + 7;
        return 2;
    }
    return -1;
}

/* main of every execution: the test's fixtures and body, in thread 1. */
static int run_test(int argc, char **argv, char **envp)
{
    (void)argc;
    (void)argv;
    (void)envp;
    if (one->setup)
        one->setup();
    one->body();
    if (one->teardown)
        one->teardown();
    return 0;
}

/* In the executor, the tests registered: put the test in place of main. */
static bool door_begin(struct ravel__rt *rt, char *err, size_t errlen)
{
    const char *problem = ravel__unit_registry_error();
    if (problem) {
        snprintf(err, errlen, "%s", problem);
        return false;
    }
    one = ravel__unit_find(one_name);
    if (!one) {
        snprintf(err, errlen,
                 "there is no test '%s' in %s (--list shows its tests)",
                 one_name, ravel__program_name());
        return false;
    }
    rt->main = run_test;
    /* Thread 1's start in reports and traces: the test's body. */
    rt->main_pc = (uint64_t)(uintptr_t)one->body;
    return true;
}

static const char *door_case_name(void)
{
    return one_name;
}

static const struct ravel__door unit_door = {
    .name = "unit test",
    .claim = door_claim,
    .arguments = door_arguments,
    .begin = door_begin,
    .case_name = door_case_name,
};

__attribute__((constructor)) static void door_register(void)
{
    ravel__door_register(&unit_door);
}
