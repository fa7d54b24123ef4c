/*
 * run.c - `ravel run`: explore a program's interleavings.
 */
#include "cli.h"

#include "../common/shard.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void ravel__help_run(void)
{
    struct ravel__strbuf sb = RAVEL__STRBUF_INIT;
    ravel__sb_add(
        &sb,
        "NAME\n"
        "    ravel run - explore the interleavings of a pthreads program\n"
        "\n"
        "SYNOPSIS\n"
        "    ravel run [OPTIONS] [--] PROGRAM [ARGS...]\n"
        "\n"
        "DESCRIPTION\n"
        "    Runs PROGRAM (built with ravel-cc or ravel_instrument) once per\n"
        "    execution, in one process, one thread at a time. At every\n"
        "    visible operation - thread create/join/exit, mutex, condition\n"
        "    variable, rwlock, semaphore, barrier, spinlock and once\n"
        "    operations, atomics and fences, yields and sleeps - the\n"
        "    strategy chooses which thread runs next. The program's globals,\n"
        "    heap, thread-local data, open files and exit handlers are\n"
        "    restored between executions, so each starts like the first.\n"
        "\n"
        "    A bug is an assertion failure or abort(), a crash, a deadlock,\n"
        "    lock misuse (unlocking a mutex not held, relocking a\n"
        "    non-recursive mutex, destroying a held one), an execution longer\n"
        "    than --max-steps (possible livelock), a hang (--watchdog), a\n"
        "    non-zero exit status, a data race, or - for programs that\n"
        "    declare their result with ravel_result() - results that differ\n"
        "    between executions. Each report shows where it happened (file:line\n"
        "    stacks), the interleaving with one column per thread, the\n"
        "    compact schedule (S = start or switch, P = preemption, each '-'\n"
        "    one more step), the program's output in that execution, and a\n"
        "    replay ticket: `ravel replay TICKET` re-executes that exact\n"
        "    schedule.\n"
        "\n"
        "    Data races: every plain memory access is checked against C11\n"
        "    happens-before (--races). A race is reported once per pair of\n"
        "    source lines, ThreadSanitizer-style (both accesses' stacks,\n"
        "    where the memory came from); then the racing locations become\n"
        "    scheduling points and the exploration starts over\n"
        "    (--promote-races), to show what the race breaks. Races you\n"
        "    have judged can be silenced with --suppressions FILE or\n"
        "    ravel_ignore_begin/end() (docs/races.md).\n"
        "\n"
        "    Reports, progress and the summary go to stderr; stdout carries\n"
        "    only the --json summary (or --tap -). The program's own output is\n"
        "    captured per execution and shown with the report of a failing\n"
        "    one. A run with findings ends with a table, one line per\n"
        "    distinct finding; --html FILE writes the whole run as one page\n"
        "    with a lane diagram per finding, --dot FILE the first failing\n"
        "    execution as a GraphViz graph, --junit FILE JUnit XML.\n"
        "\n"
        "OPTIONS\n");
    ravel__options_help(&sb);
    ravel__sb_add(
        &sb,
        "  -h, --help\n"
        "        Show this manual.\n"
        "\n"
        "    Boolean options take --name or --no-name. Every option can also\n"
        "    be given in RAVEL_OPTIONS as name=value (space or colon\n"
        "    separated), for programs run directly; flags override it.\n"
        "\n"
        "EXIT STATUS\n"
        "    0  no bug found\n"
        "    1  at least one bug found\n"
        "    2  usage error, bad input, or tool failure\n"
        "    130 interrupted\n"
        "\n"
        "    A program run directly (without `ravel run`) exits with its first\n"
        "    execution's status, or with --exitcode (66) when ravel found a\n"
        "    bug; it keeps its own stdout and stderr (docs/output.md).\n"
        "\n"
        "ENVIRONMENT\n"
        "    RAVEL_OPTIONS   options, as above\n"
        "    NO_COLOR        disables colour (with --color auto)\n"
        "    RAVEL_ADDR2LINE symbolizer to use instead of addr2line\n"
        "\n"
        "FILES\n"
        "    ravel-tickets/PROGRAM-sSEED-eN-KIND.ticket  replay tickets\n"
        "\n"
        "EXAMPLES\n"
        "    ravel run --seed 1 -- ./counter\n"
        "    ravel run --suppressions races.supp -- ./counter_plain\n"
        "    ravel run --executions 0 --time 60 --keep-going -- ./server -t4\n"
        "    RAVEL_OPTIONS='seed=7 executions=5000' ./counter\n");
    fputs(ravel__sb_str(&sb), stdout);
    ravel__sb_free(&sb);
}

int ravel__cmd_run(int argc, char **argv)
{
    struct ravel__options o;
    ravel__options_defaults(&o);
    const char *env = getenv("RAVEL_OPTIONS");
    char err[512];
    if (env && ravel__options_parse(&o, env, err, sizeof err) != 0)
        ravel__usage_error("run", "RAVEL_OPTIONS: %s", err);
    int i = 1;
    for (; i < argc; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "--")) {
            i++;
            break;
        }
        if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
            ravel__help_run();
            ravel__options_free(&o);
            return 0;
        }
        if (a[0] != '-')
            break;
        if (!ravel__parse_flag("run", &o, argc, argv, &i))
            ravel__usage_error("run", "unknown option '%s' (see 'ravel run "
                                      "--help')",
                               a);
    }
    if (i >= argc)
        ravel__usage_error("run", "no program given (usage: ravel run "
                                  "[OPTIONS] -- PROGRAM [ARGS...])");
    if (!strcmp(o.strategy, "replay"))
        ravel__usage_error("run", "use 'ravel replay TICKET' to replay");
    if (o.shard) {
        /* --shard auto (slurm, k8s, parallel): read the batch system's
         * variables here, once, and hand the program the shard they
         * name, which its summary then shows. */
        uint32_t si, sn;
        const char *source;
        if (ravel__shard_resolve(o.shard, &si, &sn, &source, err,
                                 sizeof err) != 0)
            ravel__usage_error("run", "%s", err);
        char spec[32];
        snprintf(spec, sizeof spec, "%u/%u", si + 1, sn);
        if (ravel__options_set(&o, "shard", spec, err, sizeof err) != 0)
            ravel__usage_error("run", "%s", err);
    }
    char prog[PATH_MAX];
    ravel__check_program("run", argv[i], prog, sizeof prog);
    ravel__exec_program("run", &o, prog, argv + i);
}
