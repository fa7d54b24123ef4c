/*
 * main.c - the `ravel` command: one subcommand per file.
 */
#include "cli.h"

#include <stdio.h>
#include <string.h>

static const char usage[] =
    "NAME\n"
    "    ravel - find concurrency bugs in C programs and replay each one\n"
    "\n"
    "SYNOPSIS\n"
    "    ravel run [OPTIONS] -- PROGRAM [ARGS...]\n"
    "    ravel test [OPTIONS] PROGRAM\n"
    "    ravel replay [--gdb] [OPTIONS] TICKET [-- PROGRAM [ARGS...]]\n"
    "    ravel lin --model NAME [OPTIONS] HISTORY...\n"
    "    ravel lint [OPTIONS] [-p BUILD_DIR] [FILES...] [-- COMPILER FLAGS]\n"
    "    ravel bench [--quick] [--jobs N] [--runs N] [--json]\n"
    "    ravel svcomp [OPTIONS] TASK.yml\n"
    "    ravel merge [--json] SUMMARY.json...\n"
    "    ravel help [COMMAND]\n"
    "    ravel --version\n"
    "\n"
    "DESCRIPTION\n"
    "    ravel runs a pthreads program one thread at a time under its own\n"
    "    scheduler, many times, choosing a different interleaving each time,\n"
    "    and reports assertion failures, crashes, deadlocks, lock misuse,\n"
    "    livelocks, hangs, non-zero exits and schedule-dependent results.\n"
    "    Every report comes with a replay ticket that re-executes exactly\n"
    "    the failing schedule.\n"
    "\n"
    "    Programs are built for ravel without source changes: compile and\n"
    "    link them with ravel-cc (CC=ravel-cc make), or use the CMake\n"
    "    function ravel_instrument(TARGET).\n"
    "\n"
    "COMMANDS\n"
    "    run      explore the interleavings of PROGRAM\n"
    "    test     run the RAVEL_TEST tests of PROGRAM, each explored alone\n"
    "    replay   re-execute the schedule recorded in a ticket\n"
    "    lin      check recorded histories (Jepsen, JSON) for "
    "linearizability\n"
    "    lint     find check-then-act races and inconsistent locking in the\n"
    "             sources, without running them (static analysis)\n"
    "    bench    the systematic strategies on the classic DPOR "
    "benchmarks\n"
    "    svcomp   build and run an SV-COMP task (.yml) and print its "
    "verdict\n"
    "    merge    one summary and guarantee for the shards of a split\n"
    "             search (ravel run --shard)\n"
    "    help     show the manual of a command\n"
    "\n"
    "EXIT STATUS\n"
    "    0  nothing found    1  bugs found    2  usage error or tool failure\n"
    "\n"
    "See 'ravel help run', 'ravel help test', 'ravel help replay',\n"
    "'ravel help lin', "
    "'ravel help lint', 'ravel help svcomp', 'ravel help merge', and README.md.\n";

int main(int argc, char **argv)
{
    if (argc < 2) {
        fputs(usage, stderr);
        return RAVEL__EXIT_USAGE;
    }
    const char *cmd = argv[1];
    if (!strcmp(cmd, "run"))
        return ravel__cmd_run(argc - 1, argv + 1);
    if (!strcmp(cmd, "test"))
        return ravel__cmd_test(argc - 1, argv + 1);
    if (!strcmp(cmd, "replay"))
        return ravel__cmd_replay(argc - 1, argv + 1);
    if (!strcmp(cmd, "lin"))
        return ravel__cmd_lin(argc - 1, argv + 1);
    if (!strcmp(cmd, "lint"))
        ravel__cmd_lint(argc - 1, argv + 1);
    if (!strcmp(cmd, "bench"))
        return ravel__cmd_bench(argc - 1, argv + 1);
    if (!strcmp(cmd, "svcomp"))
        return ravel__cmd_svcomp(argc - 1, argv + 1);
    if (!strcmp(cmd, "merge"))
        return ravel__cmd_merge(argc - 1, argv + 1);
    if (!strcmp(cmd, "--version") || !strcmp(cmd, "version")) {
        printf("ravel %s\n", RAVEL__VERSION);
        return 0;
    }
    if (!strcmp(cmd, "help") || !strcmp(cmd, "--help") || !strcmp(cmd, "-h")) {
        if (argc > 2 && !strcmp(argv[2], "run"))
            ravel__help_run();
        else if (argc > 2 && !strcmp(argv[2], "test"))
            ravel__help_test();
        else if (argc > 2 && !strcmp(argv[2], "replay"))
            ravel__help_replay();
        else if (argc > 2 && !strcmp(argv[2], "lin"))
            ravel__help_lin();
        else if (argc > 2 && !strcmp(argv[2], "lint"))
            ravel__help_lint();
        else if (argc > 2 && !strcmp(argv[2], "bench"))
            ravel__help_bench();
        else if (argc > 2 && !strcmp(argv[2], "merge"))
            ravel__help_merge();
        else if (argc > 2 && !strcmp(argv[2], "svcomp")) {
            char *av[] = {(char *)"svcomp", (char *)"--help", NULL};
            return ravel__cmd_svcomp(2, av);
        } else if (argc > 2)
            ravel__usage_error(NULL, "no manual for '%s' (commands: run, "
                                     "test, replay, lin, lint, bench, merge, "
                                     "svcomp)",
                               argv[2]);
        else
            fputs(usage, stdout);
        return 0;
    }
    ravel__usage_error(NULL, "unknown command '%s' (commands: run, test, "
                             "replay, lin, lint, bench, svcomp, merge, help; see "
                             "'ravel "
                             "--help')",
                       cmd);
}
