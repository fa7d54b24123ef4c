/*
 * cli.c - helpers shared by the subcommands (see cli.h).
 */
#include "cli.h"

#include "../report/elf.h"

#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

void ravel__usage_error(const char *cmd, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "ravel%s%s: ", cmd ? " " : "", cmd ? cmd : "");
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
    exit(RAVEL__EXIT_USAGE);
}

static bool executable_file(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && S_ISREG(st.st_mode) &&
           access(path, X_OK) == 0;
}

void ravel__check_program(const char *cmd, const char *prog, char *out,
                          size_t outlen)
{
    if (!prog || !*prog)
        ravel__usage_error(cmd, "no program given (usage: ravel %s [OPTIONS] "
                                "-- PROGRAM [ARGS...])",
                           cmd);
    if (strchr(prog, '/')) {
        struct stat st;
        if (stat(prog, &st) != 0)
            ravel__usage_error(cmd, "%s: %s", prog, strerror(errno));
        if (!executable_file(prog))
            ravel__usage_error(cmd, "%s: not an executable file", prog);
        snprintf(out, outlen, "%s", prog);
    } else {
        const char *path = getenv("PATH");
        bool found = false;
        if (path && *path) {
            const char *p = path;
            while (!found) {
                const char *colon = strchr(p, ':');
                size_t n = colon ? (size_t)(colon - p) : strlen(p);
                char cand[PATH_MAX];
                snprintf(cand, sizeof cand, "%.*s/%s", (int)n, n ? p : ".",
                         prog);
                if (executable_file(cand)) {
                    snprintf(out, outlen, "%s", cand);
                    found = true;
                }
                if (!colon)
                    break;
                p = colon + 1;
            }
        }
        if (!found)
            ravel__usage_error(cmd, "%s: command not found", prog);
    }
    /* A script (a libtool wrapper, say) runs the real program, whose
     * runtime reads RAVEL_OPTIONS; ravel cannot check that program. */
    FILE *f = fopen(out, "rb");
    char magic[2] = {0, 0};
    if (f) {
        if (fread(magic, 1, 2, f) != 2)
            magic[0] = 0;
        fclose(f);
    }
    if (magic[0] == '#' && magic[1] == '!') {
        fprintf(stderr,
                "ravel %s: note: %s is a script; the program it runs must be "
                "built with ravel\n",
                cmd, prog);
        return;
    }
    struct ravel__elf e;
    char err[PATH_MAX + 64];
    if (ravel__elf_open(out, &e, err, sizeof err) != 0)
        ravel__usage_error(cmd, "%s: not a program ravel can run (%s)", prog,
                           strstr(err, ": ") ? strstr(err, ": ") + 2 : err);
    bool ours = ravel__elf_needs(&e, "libravel_rt.so");
    ravel__elf_close(&e);
    if (!ours)
        ravel__usage_error(cmd,
                           "%s was not built with ravel (it does not load "
                           "libravel_rt.so); rebuild it with CC=ravel-cc or "
                           "the CMake function ravel_instrument()",
                           prog);
}

bool ravel__parse_flag(const char *cmd, struct ravel__options *o, int argc,
                       char **argv, int *i)
{
    const char *a = argv[*i];
    if (strncmp(a, "--", 2) != 0 || !a[2])
        return false;
    char name[64];
    const char *eq = strchr(a + 2, '=');
    size_t n = eq ? (size_t)(eq - (a + 2)) : strlen(a + 2);
    if (n >= sizeof name)
        return false;
    memcpy(name, a + 2, n);
    name[n] = 0;
    bool is_bool;
    bool negated = false;
    if (!ravel__options_known(name, &is_bool)) {
        if (strncmp(name, "no-", 3) != 0 ||
            !ravel__options_known(name + 3, &is_bool) || !is_bool || eq)
            return false;
        negated = true;
    }
    const char *value;
    if (is_bool) {
        value = eq ? eq + 1 : negated ? "0" : "1";
    } else if (eq) {
        value = eq + 1;
    } else {
        if (*i + 1 >= argc)
            ravel__usage_error(cmd, "option '--%s' needs a value", name);
        value = argv[++*i];
    }
    char err[256];
    if (ravel__options_set(o, negated ? name + 3 : name, value, err,
                           sizeof err) != 0)
        ravel__usage_error(cmd, "%s", err);
    return true;
}

void ravel__exec_program(const char *cmd, const struct ravel__options *o,
                         const char *prog, char **argv)
{
    char err[256];
    if (ravel__options_validate(o, err, sizeof err) != 0)
        ravel__usage_error(cmd, "%s", err);
    struct ravel__strbuf sb = RAVEL__STRBUF_INIT;
    ravel__options_serialize(o, &sb);
    /* The program is not run directly: it reports as `ravel run` does. */
    ravel__sb_add(&sb, sb.len ? " run_by_cli=1" : "run_by_cli=1");
    setenv("RAVEL_OPTIONS", ravel__sb_str(&sb), 1);
    ravel__sb_free(&sb);
    fflush(NULL);
    execv(prog, argv);
    ravel__usage_error(cmd, "%s: %s", prog, strerror(errno));
}
