/*
 * ravel_cc.c - ravel-cc, the compiler wrapper: CC=ravel-cc make.
 *
 * Compiles like the underlying compiler, adding the instrumentation ravel
 * needs, and links against ravel's runtime instead of libtsan:
 *
 *   compiling   -fsanitize=thread -g (gcc: -Wno-tsan) -idirafter INCLUDE,
 *               and volatile accesses told apart (gcc: --param
 *               tsan-distinguish-volatile=1, clang: -mllvm
 *               -tsan-distinguish-volatile=1)
 *               The compiler then reports every atomic operation, plain
 *               and volatile memory access and function entry to
 *               __tsan_* hooks, which
 *               libravel_rt.so provides. Flags the user gives come after
 *               ours, so -g0 or -O2 still win; but with gcc, -fno-lto
 *               comes last, compiling and linking: gcc runs its
 *               instrumentation at link time under -flto, and a link
 *               without -fsanitize=thread (ours) leaves the program's
 *               accesses and atomics unseen.
 *   linking     -L LIB -Wl,-rpath,LIB -lravel_rt, placed first so that the
 *               runtime precedes libc in the program's dependencies (its
 *               interceptors must win symbol lookup); never
 *               -fsanitize=thread, which would link libtsan. An
 *               executable (not -shared, not -r) also gets the whole of
 *               LIB/libravel_hooks.a: its own copies of the hottest access
 *               hooks (src/rt/intercept/tsan_local.c). Last,
 *               LIB/libravel_test_main.a: the main of a program of
 *               RAVEL_TEST tests that has none (src/unit/main.c).
 *
 * A command that both compiles and links (cc -o prog a.c b.c) is split:
 * each source is compiled to a temporary object, then they are linked.
 * This is the only way to get instrumented code without libtsan from both
 * gcc and clang.
 *
 * The compiler is $RAVEL_CC (ravel-c++: $RAVEL_CXX), else chosen by this
 * program's name: ravel-gcc, ravel-clang, ravel-g++, ravel-clang++; ravel-cc
 * means cc and ravel-c++ means c++. The runtime is found relative to this
 * executable: BIN/../lib and BIN/../include, in the build tree and in an
 * installation alike. RAVEL_CC_VERBOSE=1 prints the commands run.
 */
#include <errno.h>
#include <limits.h>
#include <spawn.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

static const char *self_name = "ravel-cc";
static bool verbose;

static void die(const char *fmt, const char *arg)
{
    fprintf(stderr, "%s: ", self_name);
    fprintf(stderr, fmt, arg);
    fputc('\n', stderr);
    exit(2);
}

/* ---- a growable argv ---------------------------------------------------- */

struct args {
    char **v;
    size_t n, cap;
};

static void push(struct args *a, const char *s)
{
    if (a->n + 2 > a->cap) {
        a->cap = a->cap ? a->cap * 2 : 32;
        a->v = realloc(a->v, a->cap * sizeof *a->v);
        if (!a->v)
            die("%s", "out of memory");
    }
    a->v[a->n++] = (char *)s;
    a->v[a->n] = NULL;
}

static void show(const struct args *a)
{
    if (!verbose)
        return;
    fprintf(stderr, "%s:", self_name);
    for (size_t i = 0; i < a->n; i++)
        fprintf(stderr, " %s", a->v[i]);
    fputc('\n', stderr);
}

static int run(const struct args *a)
{
    show(a);
    pid_t pid;
    int rc = posix_spawnp(&pid, a->v[0], NULL, NULL, a->v, environ);
    if (rc != 0) {
        fprintf(stderr, "%s: cannot run %s: %s\n", self_name, a->v[0],
                strerror(rc));
        return 127;
    }
    int st;
    while (waitpid(pid, &st, 0) < 0)
        if (errno != EINTR)
            return 127;
    if (WIFEXITED(st))
        return WEXITSTATUS(st);
    return 128 + WTERMSIG(st);
}

static void exec_args(const struct args *a)
{
    show(a);
    execvp(a->v[0], a->v);
    fprintf(stderr, "%s: cannot run %s: %s\n", self_name, a->v[0],
            strerror(errno));
    exit(127);
}

/* ---- classification ------------------------------------------------------ */

static bool has_suffix(const char *s, const char *suf)
{
    size_t n = strlen(s), m = strlen(suf);
    return n > m && !strcmp(s + n - m, suf);
}

static bool is_source(const char *a)
{
    static const char *const ext[] = {".c",   ".cc", ".cpp", ".cxx", ".c++",
                                      ".C",   ".i",  ".ii",  ".s",   ".S",
                                      ".sx",  ".m",  NULL};
    if (a[0] == '-')
        return false;
    for (int i = 0; ext[i]; i++)
        if (has_suffix(a, ext[i]))
            return true;
    return false;
}

/* Options whose next argument is their value. */
static bool takes_value(const char *a)
{
    static const char *const opts[] = {
        "-o",         "-I",       "-D",          "-U",       "-include",
        "-imacros",   "-isystem", "-idirafter",  "-iprefix", "-iquote",
        "-isysroot",  "-MF",      "-MT",         "-MQ",      "-x",
        "-Xlinker",   "-Xassembler", "-Xpreprocessor", "-L", "-l",
        "-T",         "-u",       "-z",          "-aux-info", "-arch",
        "--param",    "-target",  "-Xclang",     NULL};
    for (int i = 0; opts[i]; i++)
        if (!strcmp(a, opts[i]))
            return true;
    return false;
}

/* Options that matter only when linking (dropped from split compiles). */
static bool link_only(const char *a)
{
    return !strncmp(a, "-l", 2) || !strncmp(a, "-L", 2) ||
           !strncmp(a, "-Wl,", 4) || !strcmp(a, "-Xlinker") ||
           !strcmp(a, "-shared") || !strcmp(a, "-static") ||
           !strcmp(a, "-pie") || !strcmp(a, "-no-pie") ||
           !strcmp(a, "-rdynamic") || !strcmp(a, "-s") ||
           !strcmp(a, "-T") || !strcmp(a, "-u") || !strcmp(a, "-z");
}

static bool is_object(const char *a)
{
    return a[0] != '-' && (has_suffix(a, ".o") || has_suffix(a, ".a") ||
                           has_suffix(a, ".so") || strstr(a, ".so.") ||
                           has_suffix(a, ".lo"));
}

/* Is the compiler clang? By name, following symlinks (cc -> gcc-12). */
static bool compiler_is_clang(const char *cc)
{
    if (strstr(cc, "clang"))
        return true;
    if (strstr(cc, "gcc") || strstr(cc, "g++"))
        return false;
    char path[PATH_MAX] = "";
    if (strchr(cc, '/')) {
        snprintf(path, sizeof path, "%s", cc);
    } else {
        const char *p = getenv("PATH");
        while (p && *p && !path[0]) {
            const char *colon = strchr(p, ':');
            size_t n = colon ? (size_t)(colon - p) : strlen(p);
            char cand[PATH_MAX];
            snprintf(cand, sizeof cand, "%.*s/%s", (int)n, p, cc);
            if (access(cand, X_OK) == 0)
                snprintf(path, sizeof path, "%s", cand);
            p = colon ? colon + 1 : NULL;
        }
    }
    char real[PATH_MAX];
    if (path[0] && realpath(path, real))
        return strstr(real, "clang") != NULL;
    return false;
}

static const char *choose_compiler(bool *cxx)
{
    const char *base = strrchr(self_name, '/');
    base = base ? base + 1 : self_name;
    *cxx = strstr(base, "++") || strstr(base, "cxx");
    const char *env = getenv(*cxx ? "RAVEL_CXX" : "RAVEL_CC");
    if (env && *env)
        return env;
    if (!strcmp(base, "ravel-gcc"))
        return "gcc";
    if (!strcmp(base, "ravel-g++"))
        return "g++";
    if (!strcmp(base, "ravel-clang"))
        return "clang";
    if (!strcmp(base, "ravel-clang++"))
        return "clang++";
    return *cxx ? "c++" : "cc";
}

int main(int argc, char **argv)
{
    self_name = argv[0];
    const char *v = getenv("RAVEL_CC_VERBOSE");
    verbose = v && *v && strcmp(v, "0");
    bool cxx;
    const char *cc = choose_compiler(&cxx);

    /* Where the runtime is: BIN/../lib, BIN/../include. */
    char exe[PATH_MAX];
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (n <= 0)
        die("%s", "cannot find its own location (/proc/self/exe)");
    exe[n] = 0;
    char *slash = strrchr(exe, '/');
    *slash = 0;
    static char libdir[PATH_MAX + 16], incdir[PATH_MAX + 16], lib[PATH_MAX + 48];
    snprintf(libdir, sizeof libdir, "%s/../lib", exe);
    snprintf(incdir, sizeof incdir, "%s/../include", exe);
    char rl[PATH_MAX];
    if (realpath(libdir, rl))
        snprintf(libdir, sizeof libdir, "%s", rl);
    if (realpath(incdir, rl))
        snprintf(incdir, sizeof incdir, "%s", rl);
    snprintf(lib, sizeof lib, "%s/libravel_rt.so", libdir);
    if (access(lib, R_OK) != 0)
        die("cannot find the runtime %s", lib);

    bool link = true, sources = false, inputs = false, info = false,
         lang = false, executable = true;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "-c") || !strcmp(a, "-S") || !strcmp(a, "-E") ||
            !strcmp(a, "-M") || !strcmp(a, "-MM") ||
            !strcmp(a, "-fsyntax-only"))
            link = false;
        else if (!strcmp(a, "-shared") || !strcmp(a, "-r") ||
                 !strcmp(a, "-Wl,-r") || !strcmp(a, "-Wl,--relocatable"))
            executable = false;
        else if (!strcmp(a, "-v") || !strcmp(a, "--version") ||
                 !strncmp(a, "-dump", 5) || !strncmp(a, "-print-", 7) ||
                 !strcmp(a, "--help"))
            info = true;
        else if (!strcmp(a, "-x"))
            lang = true;
        if (takes_value(a) && i + 1 < argc) {
            i++;
            continue;
        }
        if (is_source(a))
            sources = inputs = true;
        else if (a[0] != '-' || !strcmp(a, "-"))
            inputs = true;
    }

    char wno_tsan[] = "-Wno-tsan";
    bool clang = compiler_is_clang(cc);
    struct args compile_flags = {0};
    push(&compile_flags, "-fsanitize=thread");
    push(&compile_flags, "-g");
    if (!clang)
        push(&compile_flags, wno_tsan);
    /* Volatile accesses get hooks of their own: they are visible
     * operations (src/rt/intercept/tsan.c), so spin-waits on volatile
     * flags see the write they wait for. */
    if (clang) {
        push(&compile_flags, "-mllvm");
        push(&compile_flags, "-tsan-distinguish-volatile=1");
    } else {
        push(&compile_flags, "--param");
        push(&compile_flags, "tsan-distinguish-volatile=1");
    }
    push(&compile_flags, "-idirafter");
    push(&compile_flags, incdir);
    static char rpath[PATH_MAX + 48];
    snprintf(rpath, sizeof rpath, "-Wl,-rpath,%s", libdir);
    /* An executable also gets its own copies of the hottest access hooks
     * (src/rt/intercept/tsan_local.c): whole, since the runtime already
     * defines every name they would be pulled in for. For a shared
     * library the NULL ends the list before them. */
    static char hooks[PATH_MAX + 48];
    snprintf(hooks, sizeof hooks, "%s/libravel_hooks.a", libdir);
    if (executable && access(hooks, R_OK) != 0)
        die("cannot find %s", hooks);
    const char *link_flags[] = {"-L",
                                libdir,
                                rpath,
                                "-Wl,--push-state,--no-as-needed",
                                "-lravel_rt",
                                "-Wl,--pop-state",
                                executable ? "-Wl,--whole-archive" : NULL,
                                hooks,
                                "-Wl,--no-whole-archive",
                                NULL};
    /* Last on the line: the main of a RAVEL_TEST program that has none
     * (an archive member is linked only when main is still missing). */
    static char test_main[PATH_MAX + 48];
    snprintf(test_main, sizeof test_main, "%s/libravel_test_main.a", libdir);

    struct args cmd = {0};
    push(&cmd, cc);
    if (info || !inputs) {
        for (int i = 1; i < argc; i++)
            push(&cmd, argv[i]);
        exec_args(&cmd);
    }
    /* Last on every line, so that the user's -flto does not win (gcc
     * only: clang instruments at compile time either way). */
    const char *no_lto = clang ? NULL : "-fno-lto";
    if (!link) {
        for (size_t i = 0; i < compile_flags.n; i++)
            push(&cmd, compile_flags.v[i]);
        for (int i = 1; i < argc; i++)
            push(&cmd, argv[i]);
        if (no_lto)
            push(&cmd, no_lto);
        exec_args(&cmd);
    }
    if (!sources) {
        for (int i = 0; link_flags[i]; i++)
            push(&cmd, link_flags[i]);
        for (int i = 1; i < argc; i++)
            push(&cmd, argv[i]);
        push(&cmd, test_main);
        if (no_lto)
            push(&cmd, no_lto);
        exec_args(&cmd);
    }
    if (lang)
        die("%s", "-x together with linking is not supported; compile with "
                  "-c first, then link");

    /* Compile and link in one command: split it. */
    char tmpl[] = "/tmp/ravel-cc.XXXXXX";
    char *dir = mkdtemp(tmpl);
    if (!dir)
        die("cannot create a temporary directory: %s", strerror(errno));
    struct args objs = {0};
    int rc = 0;
    for (int i = 1; i < argc && rc == 0; i++) {
        if (takes_value(argv[i])) {
            i++;
            continue;
        }
        if (!is_source(argv[i]))
            continue;
        struct args c = {0};
        push(&c, cc);
        for (size_t k = 0; k < compile_flags.n; k++)
            push(&c, compile_flags.v[k]);
        for (int j = 1; j < argc; j++) {
            const char *a = argv[j];
            if (!strcmp(a, "-o") || (takes_value(a) && link_only(a))) {
                j++;
                continue;
            }
            if (is_source(a) || is_object(a) || link_only(a))
                continue;
            push(&c, a);
            if (takes_value(a) && j + 1 < argc)
                push(&c, argv[++j]);
        }
        char *obj = malloc(strlen(dir) + 32);
        if (!obj)
            die("%s", "out of memory");
        sprintf(obj, "%s/%zu.o", dir, objs.n);
        push(&objs, obj);
        push(&c, "-c");
        push(&c, argv[i]);
        push(&c, "-o");
        push(&c, obj);
        if (no_lto)
            push(&c, no_lto);
        rc = run(&c);
        free(c.v);
    }
    if (rc == 0) {
        for (int i = 0; link_flags[i]; i++)
            push(&cmd, link_flags[i]);
        size_t k = 0;
        for (int i = 1; i < argc; i++) {
            if (takes_value(argv[i]) && i + 1 < argc) {
                push(&cmd, argv[i]);
                push(&cmd, argv[++i]);
                continue;
            }
            push(&cmd, is_source(argv[i]) ? objs.v[k++] : argv[i]);
        }
        push(&cmd, test_main);
        if (no_lto)
            push(&cmd, no_lto);
        rc = run(&cmd);
    }
    for (size_t i = 0; i < objs.n; i++) {
        unlink(objs.v[i]);
        free(objs.v[i]);
    }
    rmdir(dir);
    free(objs.v);
    free(cmd.v);
    free(compile_flags.v);
    return rc;
}
