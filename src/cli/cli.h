/*
 * cli.h - what the subcommands of `ravel` share: usage errors, finding and
 * checking the program to run, and handing over to it.
 *
 * `ravel run` does not run the exploration itself: it checks the program,
 * turns its own flags into RAVEL_OPTIONS and execs the program, whose
 * runtime does the rest (src/rt). Running an instrumented program directly
 * with RAVEL_OPTIONS set is therefore exactly equivalent.
 */
#ifndef RAVEL_CLI_H
#define RAVEL_CLI_H

#include "../common/options.h"

/* Prints "ravel CMD: message" and exits 2. */
RAVEL__NORETURN void ravel__usage_error(const char *cmd, const char *fmt, ...)
    RAVEL__PRINTF(2, 3);

/*
 * Resolves PROG as execvp would (PATH lookup without a slash) into `out`
 * and checks that it is an executable built with ravel. Exits 2 with a
 * one-line message otherwise.
 */
void ravel__check_program(const char *cmd, const char *prog, char *out,
                          size_t outlen);

/*
 * Parses one option at argv[*i] ("--max-steps 5", "--max-steps=5",
 * "--keep-going", "--no-keep-going") into o. Returns false if argv[*i] is
 * not an option of the table. Exits 2 on a bad value.
 */
bool ravel__parse_flag(const char *cmd, struct ravel__options *o, int argc,
                       char **argv, int *i);

/* Sets RAVEL_OPTIONS from o and execs prog with argv (never returns). */
RAVEL__NORETURN void ravel__exec_program(const char *cmd,
                                         const struct ravel__options *o,
                                         const char *prog, char **argv);

int ravel__cmd_run(int argc, char **argv);
int ravel__cmd_replay(int argc, char **argv);
int ravel__cmd_test(int argc, char **argv);
void ravel__help_test(void);
int ravel__cmd_lin(int argc, char **argv);
int ravel__cmd_bench(int argc, char **argv);
/* `ravel svcomp TASK.yml`: build, run and give SV-COMP verdicts
 * (svcomp.c). Exits 2 with one line on bad input. */
int ravel__cmd_svcomp(int argc, char **argv);
void ravel__help_bench(void);
/* `ravel merge SUMMARY.json...`: one summary and guarantee for the
 * shards of a split search (merge.c). Exits 2 with one line on bad or
 * missing input. */
int ravel__cmd_merge(int argc, char **argv);
void ravel__help_merge(void);
void ravel__help_run(void);
void ravel__help_replay(void);
void ravel__help_lin(void);

/*
 * `ravel lint ARGS`: execs ravel-lint (the static analyser, built only
 * with LLVM) found next to the ravel executable, with ARGS. Exits 2 with a
 * one-line message when it is not there. Never returns otherwise.
 */
RAVEL__NORETURN int ravel__cmd_lint(int argc, char **argv);
/* `ravel help lint`: ravel-lint --help. */
RAVEL__NORETURN void ravel__help_lint(void);

#endif
