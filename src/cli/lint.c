/*
 * lint.c - `ravel lint`: hands over to ravel-lint, the static analyser.
 *
 * The analyser links LLVM, which the rest of ravel does not need, so it is
 * a separate executable installed next to `ravel` (src/lint/). This file
 * only finds it there and execs it with the same arguments, so that
 * `ravel lint ARGS` and `ravel-lint ARGS` are the same command.
 */
#include "cli.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Writes the path of ravel-lint beside the running ravel into out. */
static void lint_path(char *out, size_t len)
{
    char self[PATH_MAX];
    ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
    if (n <= 0)
        ravel__usage_error("lint", "cannot find the ravel executable: %s",
                           strerror(errno));
    self[n] = 0;
    char *slash = strrchr(self, '/');
    if (slash)
        *slash = 0;
    if ((size_t)snprintf(out, len, "%s/ravel-lint", self) >= len)
        ravel__usage_error("lint", "path of ravel-lint too long");
    if (access(out, X_OK) != 0)
        ravel__usage_error("lint", "%s: not found (ravel lint needs LLVM 14: "
                                   "install llvm-14-dev and build with "
                                   "-DRAVEL_LINT=ON)",
                           out);
}

int ravel__cmd_lint(int argc, char **argv)
{
    char path[PATH_MAX];
    lint_path(path, sizeof path);
    char **av = calloc((size_t)argc + 1, sizeof *av);
    if (!av)
        ravel__usage_error("lint", "out of memory");
    av[0] = path;
    for (int i = 1; i < argc; i++)
        av[i] = argv[i];
    execv(path, av);
    ravel__usage_error("lint", "cannot run %s: %s", path, strerror(errno));
}

void ravel__help_lint(void)
{
    char *argv[] = {(char *)"lint", (char *)"--help", NULL};
    ravel__cmd_lint(2, argv);
}
