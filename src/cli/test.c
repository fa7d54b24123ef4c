/*
 * test.c - `ravel test`: run a program's RAVEL_TEST tests.
 *
 * Like `ravel run`, this does not run anything itself: it checks that
 * the program is a test program (it imports ravel_test_register, which
 * every RAVEL_TEST calls), turns its flags into RAVEL_OPTIONS and execs
 * the program, whose main (src/unit/driver.c) lists, selects and runs the
 * tests: `ravel test ./tests --seed 7` and `./tests --seed 7` are the
 * same run.
 */
#include "cli.h"

#include "../report/elf.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void ravel__help_test(void)
{
    struct ravel__strbuf sb = RAVEL__STRBUF_INIT;
    ravel__sb_add(
        &sb,
        "NAME\n"
        "    ravel test - run the concurrency unit tests of a program\n"
        "\n"
        "SYNOPSIS\n"
        "    ravel test [OPTIONS] [--] PROGRAM\n"
        "\n"
        "DESCRIPTION\n"
        "    PROGRAM holds tests written with RAVEL_TEST(suite, name) and\n"
        "    built with ravel-cc or ravel_add_tests (docs/tests.md). Each\n"
        "    selected test is explored on its own, in a process of its own,\n"
        "    under its own budget: the run's options, then the test's own\n"
        "    (RAVEL_TEST_WITH), with one seed for the whole run. A failing\n"
        "    test prints its report and a replay ticket that re-runs that\n"
        "    test alone; the run goes on with the next test and ends with a\n"
        "    table of the results. A test declared with .expect_failure\n"
        "    passes when ravel finds that kind of bug.\n"
        "\n"
        "    Running PROGRAM directly with the same arguments is the same\n"
        "    run: ./tests --filter 'queue/*' --seed 7.\n"
        "\n"
        "OPTIONS\n"
        "  --list, --filter PATTERNS, --junit FILE, --tap FILE, --json\n"
        "        As below: the tests' names, the selection (comma-separated\n"
        "        globs over SUITE/NAME, run in the order of the patterns),\n"
        "        JUnit XML, TAP ('-': stdout), and one JSON object with\n"
        "        every test's result on stdout.\n");
    ravel__options_help(&sb);
    ravel__sb_add(
        &sb,
        "EXIT STATUS\n"
        "    0  every test passed\n"
        "    1  a test failed\n"
        "    2  usage error, bad input, or tool failure (in any test)\n"
        "\n"
        "EXAMPLES\n"
        "    ravel test ./tests\n"
        "    ravel test --filter 'bank/*,counter/lost_update' ./tests\n"
        "    ravel test --seed 7 --executions 5000 --junit out.xml ./tests\n"
        "    ravel replay ravel-tickets/tests.bank.transfer-s7-e2-deadlock."
        "ticket\n");
    fputs(ravel__sb_str(&sb), stdout);
    ravel__sb_free(&sb);
}

int ravel__cmd_test(int argc, char **argv)
{
    struct ravel__options o;
    ravel__options_defaults(&o);
    const char *env = getenv("RAVEL_OPTIONS");
    char err[512];
    if (env && ravel__options_parse(&o, env, err, sizeof err) != 0)
        ravel__usage_error("test", "RAVEL_OPTIONS: %s", err);
    const char *program = NULL;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "--")) {
            if (i + 1 < argc && !program)
                program = argv[++i];
            if (i + 1 < argc)
                ravel__usage_error("test", "unexpected argument '%s' after "
                                           "the program (tests take no "
                                           "arguments of their own)",
                                   argv[i + 1]);
            break;
        }
        if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
            ravel__help_test();
            ravel__options_free(&o);
            return 0;
        }
        if (a[0] != '-') {
            if (program)
                ravel__usage_error("test", "unexpected argument '%s' (one "
                                           "program per run)",
                                   a);
            program = a;
            continue;
        }
        if (!ravel__parse_flag("test", &o, argc, argv, &i))
            ravel__usage_error("test", "unknown option '%s' (see 'ravel "
                                       "test --help')",
                               a);
    }
    if (!program)
        ravel__usage_error("test", "no program given (usage: ravel test "
                                   "[OPTIONS] PROGRAM)");
    if (!strcmp(o.strategy, "replay"))
        ravel__usage_error("test", "use 'ravel replay TICKET' to replay a "
                                   "test");
    char prog[PATH_MAX];
    ravel__check_program("test", program, prog, sizeof prog);
    struct ravel__elf e;
    if (ravel__elf_open(prog, &e, err, sizeof err) != 0)
        ravel__usage_error("test", "%s", err);
    bool tests = ravel__elf_imports(&e, "ravel_test_register");
    ravel__elf_close(&e);
    if (!tests)
        ravel__usage_error("test", "%s has no RAVEL_TEST tests (see "
                                   "docs/tests.md; other programs run with "
                                   "'ravel run')",
                           program);
    char *args[] = {prog, NULL};
    ravel__exec_program("test", &o, prog, args);
}
