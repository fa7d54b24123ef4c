/*
 * replay.c - `ravel replay`: re-execute a ticket's schedule, optionally
 * under gdb.
 */
#include "cli.h"

#include "../common/hash.h"
#include "../explore/ticket.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

void ravel__help_replay(void)
{
    fputs(
        "NAME\n"
        "    ravel replay - re-execute the schedule recorded in a ticket\n"
        "\n"
        "SYNOPSIS\n"
        "    ravel replay [--gdb] [OPTIONS] TICKET [-- PROGRAM [ARGS...]]\n"
        "\n"
        "DESCRIPTION\n"
        "    Runs the program named in TICKET with its recorded arguments,\n"
        "    making every scheduling choice the ticket records, and prints\n"
        "    the same report (the same trace, byte for byte) as the run that\n"
        "    wrote it. The ticket names the program by path and by a hash of\n"
        "    its contents; a ticket for another build is refused.\n"
        "\n"
        "    With -- PROGRAM [ARGS...], that program (which must be the same\n"
        "    build) and those arguments are used instead of the recorded ones.\n"
        "\n"
        "    If the program does not behave as recorded (it depends on time,\n"
        "    input or addresses ravel does not control), the replay stops at\n"
        "    the first step that differs and says so (exit status 2).\n"
        "\n"
        "OPTIONS\n"
        "  --gdb\n"
        "        Run the replay under gdb, stopped at the failing step: use\n"
        "        'bt' for the stack, 'up' to reach the program's frames.\n"
        "        Crashes stop gdb at the faulting instruction.\n"
        "  --trace FILE\n"
        "        Write the replayed interleaving to FILE.\n"
        "  --dot FILE, --html FILE\n"
        "        Draw the replayed execution: a GraphViz graph, or a\n"
        "        self-contained HTML page (lanes, happens-before arrows).\n"
        "  --junit FILE, --tap FILE\n"
        "        The replay's result for CI (JUnit XML; TAP, '-': stdout).\n"
        "  --json, --color WHEN, --watchdog SECONDS, --max-steps N\n"
        "        As for 'ravel run'.\n"
        "  -h, --help\n"
        "        Show this manual.\n"
        "\n"
        "EXIT STATUS\n"
        "    1 the failure was reproduced, 0 the execution ended without a\n"
        "    failure, 2 bad ticket, wrong program, diverged replay, or usage\n"
        "    error.\n"
        "\n"
        "EXAMPLES\n"
        "    ravel replay ravel-tickets/counter-s1-e3-assertion.ticket\n"
        "    ravel replay --gdb ravel-tickets/counter-s1-e3-assertion.ticket\n",
        stdout);
}

int ravel__cmd_replay(int argc, char **argv)
{
    struct ravel__options o;
    ravel__options_defaults(&o);
    bool gdb = false;
    const char *ticket_path = NULL;
    int i = 1;
    for (; i < argc; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "--")) {
            i++;
            break;
        }
        if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
            ravel__help_replay();
            ravel__options_free(&o);
            return 0;
        }
        if (!strcmp(a, "--gdb")) {
            gdb = true;
            continue;
        }
        if (a[0] == '-' && a[1]) {
            if (!ravel__parse_flag("replay", &o, argc, argv, &i))
                ravel__usage_error("replay", "unknown option '%s' (see 'ravel "
                                             "replay --help')",
                                   a);
            continue;
        }
        if (ticket_path)
            ravel__usage_error("replay", "unexpected argument '%s' (put a "
                                         "program after --)",
                               a);
        ticket_path = a;
    }
    if (!ticket_path)
        ravel__usage_error("replay", "no ticket given (usage: ravel replay "
                                     "[--gdb] TICKET)");

    struct ravel__ticket t;
    char err[1024];
    if (ravel__ticket_load(ticket_path, &t, err, sizeof err) != 0)
        ravel__usage_error("replay", "%s", err);

    char prog[PATH_MAX];
    char **prog_argv;
    if (i < argc) {
        ravel__check_program("replay", argv[i], prog, sizeof prog);
        prog_argv = argv + i;
    } else {
        if (access(t.program, X_OK) != 0)
            ravel__usage_error("replay", "the ticket's program %s: %s",
                               t.program, strerror(errno));
        ravel__check_program("replay", t.program, prog, sizeof prog);
        prog_argv = t.argv;
    }
    uint64_t h;
    if (ravel__hash_file(prog, &h) != 0)
        ravel__usage_error("replay", "%s: %s", prog, strerror(errno));
    if (h != t.program_hash)
        ravel__usage_error("replay",
                           "%s was recorded for %s (program hash %016llx), "
                           "not for %s (hash %016llx): a different program "
                           "or build",
                           ticket_path, t.program,
                           (unsigned long long)t.program_hash, prog,
                           (unsigned long long)h);

    char abs_ticket[PATH_MAX];
    if (!realpath(ticket_path, abs_ticket))
        ravel__usage_error("replay", "%s: %s", ticket_path, strerror(errno));
    char e2[256];
    if (ravel__options_set(&o, "strategy", "replay", e2, sizeof e2) ||
        ravel__options_set(&o, "ticket", abs_ticket, e2, sizeof e2))
        ravel__usage_error("replay", "%s", e2);
    if (!gdb)
        ravel__exec_program("replay", &o, prog, prog_argv);

    /* Under gdb: one process (no supervisor), stopped at the failure. */
    ravel__options_set(&o, "supervise", "0", e2, sizeof e2);
    ravel__options_set(&o, "debug_stop", "1", e2, sizeof e2);
    ravel__options_set(&o, "backend", "threads", e2, sizeof e2);
    struct ravel__strbuf env = RAVEL__STRBUF_INIT;
    ravel__options_serialize(&o, &env);
    setenv("RAVEL_OPTIONS", ravel__sb_str(&env), 1);
    ravel__sb_free(&env);
    int n = 0;
    while (prog_argv[n])
        n++;
    char **gargv = calloc((size_t)n + 16, sizeof *gargv);
    if (!gargv)
        ravel__usage_error("replay", "out of memory");
    int k = 0;
    gargv[k++] = (char *)"gdb";
    gargv[k++] = (char *)"-q";
    gargv[k++] = (char *)"-ex";
    gargv[k++] = (char *)"set breakpoint pending on";
    gargv[k++] = (char *)"-ex";
    gargv[k++] = (char *)"break ravel__debug_stop";
    gargv[k++] = (char *)"-ex";
    gargv[k++] = (char *)"run";
    gargv[k++] = (char *)"-ex";
    gargv[k++] = (char *)"echo ravel: stopped at the failing step; 'bt' shows the "
                 "stack, 'up' reaches the program's frames\\n";
    gargv[k++] = (char *)"--args";
    gargv[k++] = prog;
    for (int j = 1; j < n; j++)
        gargv[k++] = prog_argv[j];
    gargv[k] = NULL;
    fflush(NULL);
    execvp("gdb", gargv);
    ravel__usage_error("replay", "cannot start gdb: %s", strerror(errno));
}
