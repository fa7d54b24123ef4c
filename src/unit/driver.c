/*
 * driver.c - a test program's main: list, select and run its tests.
 *
 * `./tests [--list] [--filter P] [ravel options]`, or `ravel test
 * ./tests ...` which execs exactly that, runs here, natively: the
 * runtime did not take over this process (the door, registry.c). For
 * each selected test the driver starts this program again as
 *
 *     ./tests --test SUITE/NAME        RAVEL_OPTIONS="<the test's options>"
 *
 * an ordinary ravel run of that one test (registry.c): its own
 * supervisor, strategy, budget, reports, guarantee line and tickets.
 * A ticket records the arguments, so `ravel replay TICKET` runs that
 * test and no other. The child's stderr is the driver's, so its report
 * and summary appear in place, between the driver's [ RUN ] and result
 * lines; its JSON summary comes back on a pipe (the internal option
 * result_fd), from which the driver takes the result, the counts and
 * the first bug's kind and ticket.
 *
 * A process per test (libuv's test runner does the same) costs an exec
 * and a fork of the supervisor, a few milliseconds, and buys the
 * independence the tests need: a test that deadlocks, leaves threads
 * blocked forever or locks held, crashes or hangs cannot touch the
 * next one, so the results do not depend on the order (--filter 'b,a'
 * runs b first) or on which other tests run.
 *
 * Options. Every test gets the options of the run (defaults, then
 * RAVEL_OPTIONS, then the arguments), then its own (RAVEL_TEST_WITH:
 * strategy, executions, time, max_steps), then the run's seed: one seed,
 * fresh unless given, printed first, shared by all the tests, so that
 * `--seed N` repeats a whole run and any one test alone. list, filter,
 * junit and json are the driver's and are not passed on.
 *
 * Results. A test passes when its run finds no bug, or, when it is
 * expected to fail (.expect_failure), when the first bug found has the
 * expected kind. A tool error (bad options, a test that does not exist)
 * is an error. The exit status is 2 if any test had an error, else 1 if
 * any failed, else 0; an interrupted child (exit 130) stops the run.
 */
#include "unit.h"

#include "../../include/ravel.h"
#include "../common/json.h"
#include "../common/strbuf.h"
#include "../report/ci.h"
#include "../report/symbolize.h"

#include <errno.h>
#include <fcntl.h>
#include <fnmatch.h>
#include <limits.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/wait.h>
#include <unistd.h>

enum result { PASS, FAIL, ERROR };

/* What one test's run gave. */
struct outcome {
    const struct ravel_test *t;
    char name[256];
    enum result result;
    bool expected;           /* an expected failure, found */
    int status;              /* the child's exit status */
    unsigned long long executions, traces;
    bool complete;
    double seconds;
    char kind[32];           /* first bug's kind, "" */
    char message[512];       /* its headline, or why the test failed */
    char ticket[PATH_MAX];
    char guarantee[512];
};

static void help(const char *prog)
{
    struct ravel__strbuf sb = RAVEL__STRBUF_INIT;
    ravel__sb_printf(
        &sb,
        "usage: %s [--list] [--filter PATTERNS] [OPTIONS]\n"
        "\n"
        "Runs the program's RAVEL_TEST tests, each explored by ravel on its\n"
        "own (a process per test) under its own budget, and prints a\n"
        "result per test. Exit status: 0 all passed, 1 a test failed, 2\n"
        "usage or tool error. docs/tests.md describes the API.\n"
        "\n"
        "  --list              print the tests' names and exit\n"
        "  --filter PATTERNS   comma-separated globs over SUITE/NAME\n"
        "  --junit FILE        also write JUnit XML\n"
        "  --tap FILE          also write TAP ('-': on stdout)\n"
        "  --json              print one JSON object with every result\n"
        "  --test SUITE/NAME   run that test alone, in this process (what\n"
        "                      the driver and replay tickets do)\n"
        "  --seed, --strategy, --executions, --time ... every option of\n"
        "                      `ravel run --help`, for every test (a\n"
        "                      test's own options win)\n",
        prog);
    fputs(ravel__sb_str(&sb), stdout);
    ravel__sb_free(&sb);
}

/* One-line usage error: exit 2. */
RAVEL__NORETURN RAVEL__PRINTF(1, 2) static void usage(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "ravel test: ");
    vfprintf(stderr, fmt, ap);
    fprintf(stderr, "\n");
    va_end(ap);
    exit(RAVEL__EXIT_USAGE);
}

/* ---- options ---------------------------------------------------------- */

/* The options the arguments gave, as name=value pairs, applied to every
 * test's options after RAVEL_OPTIONS. */
struct arg_option {
    char name[64];
    const char *value;
};

static void apply_args(struct ravel__options *o, const struct arg_option *a,
                       int n)
{
    char err[512];
    for (int i = 0; i < n; i++)
        if (ravel__options_set(o, a[i].name, a[i].value, err, sizeof err))
            usage("%s", err);
}

/* Defaults, RAVEL_OPTIONS, the arguments. */
static void run_options(struct ravel__options *o, const struct arg_option *a,
                        int n)
{
    char err[512];
    ravel__options_defaults(o);
    const char *env = getenv("RAVEL_OPTIONS");
    if (env && ravel__options_parse(o, env, err, sizeof err) != 0)
        usage("RAVEL_OPTIONS: %s", err);
    apply_args(o, a, n);
}

/* Unsets the driver's own options before passing the rest on. */
static void driver_only(struct ravel__options *o)
{
    static const enum ravel__option_id own[] = {
        RAVEL__OPT_list, RAVEL__OPT_filter, RAVEL__OPT_junit,
        RAVEL__OPT_tap,  RAVEL__OPT_json, RAVEL__OPT_result_fd};
    for (size_t i = 0; i < sizeof own / sizeof own[0]; i++)
        o->set[own[i]] = false;
    o->json = false;
    o->list = false;
}

/* The options of test t's run, as RAVEL_OPTIONS text; false (message in
 * err) when its own options are invalid. */
static bool test_options(const struct ravel_test *t,
                         const struct arg_option *a, int n, uint64_t seed,
                         int fd, struct ravel__strbuf *out, char *err,
                         size_t errlen)
{
    struct ravel__options o;
    run_options(&o, a, n);
    driver_only(&o);
    char v[64];
    bool ok = true;
    if (t->strategy &&
        ravel__options_set(&o, "strategy", t->strategy, err, errlen) != 0)
        ok = false;
    if (ok && t->executions) {
        snprintf(v, sizeof v, "%llu", t->executions);
        ok = ravel__options_set(&o, "executions", v, err, errlen) == 0;
    }
    if (ok && t->time > 0) {
        snprintf(v, sizeof v, "%.17g", t->time);
        ok = ravel__options_set(&o, "time", v, err, errlen) == 0;
    }
    if (ok && t->max_steps) {
        snprintf(v, sizeof v, "%llu", t->max_steps);
        ok = ravel__options_set(&o, "max_steps", v, err, errlen) == 0;
    }
    if (ok) {
        snprintf(v, sizeof v, "%llu", (unsigned long long)seed);
        ok = ravel__options_set(&o, "seed", v, err, errlen) == 0;
    }
    if (ok) {
        snprintf(v, sizeof v, "%d", fd);
        ok = ravel__options_set(&o, "result_fd", v, err, errlen) == 0;
    }
    if (ok && ravel__options_validate(&o, err, errlen) != 0)
        ok = false;
    if (ok && !strcmp(o.strategy, "replay")) {
        snprintf(err, errlen, "a test's ticket is replayed with "
                              "`ravel replay TICKET`");
        ok = false;
    }
    if (ok)
        ravel__options_serialize(&o, out);
    ravel__options_free(&o);
    return ok;
}

/* ---- selection ------------------------------------------------------------ */

/* The tests --filter selects, in the order of its patterns (registration
 * order within one), each once. Returns how many; exits 2 when a
 * pattern matches nothing. */
static unsigned select_tests(const char *filter, const struct ravel_test **sel)
{
    unsigned n = ravel__unit_count(), k = 0;
    if (!filter || !*filter) {
        for (unsigned i = 0; i < n; i++)
            sel[k++] = ravel__unit_at(i);
        return k;
    }
    char *copy = strdup(filter);
    if (!copy)
        usage("%s", "out of memory");
    char *save = NULL;
    for (char *p = strtok_r(copy, ",", &save); p;
         p = strtok_r(NULL, ",", &save)) {
        bool any = false;
        for (unsigned i = 0; i < n; i++) {
            const struct ravel_test *t = ravel__unit_at(i);
            char name[256];
            ravel__unit_full_name(t, name, sizeof name);
            if (fnmatch(p, name, 0) != 0)
                continue;
            any = true;
            bool dup = false;
            for (unsigned j = 0; j < k && !dup; j++)
                dup = sel[j] == t;
            if (!dup)
                sel[k++] = t;
        }
        if (!any) {
            fprintf(stderr,
                    "ravel test: no test matches '%s' (--list shows the "
                    "tests)\n",
                    p);
            free(copy);
            exit(RAVEL__EXIT_USAGE);
        }
    }
    free(copy);
    return k;
}

/* ---- one test ------------------------------------------------------------- */

/* The value of "key": in the JSON text js from `from` on: a string
 * (unescaped) or a bare value, into out. False when absent. The text is
 * ravel's own summary (supervisor.c), so this is no general parser: keys
 * are found by their quoted form followed by a colon, which cannot occur
 * inside an escaped string value. */
static bool json_get(const char *from, const char *key, char *out,
                     size_t len)
{
    char pat[80];
    snprintf(pat, sizeof pat, "\"%s\":", key);
    const char *p = from ? strstr(from, pat) : NULL;
    if (!p || !len)
        return false;
    p += strlen(pat);
    size_t k = 0;
    if (*p == '"') {
        for (p++; *p && *p != '"'; p++) {
            char c = *p;
            if (c == '\\' && p[1]) {
                p++;
                c = *p == 'n' ? '\n' : *p == 't' ? '\t' : *p;
                if (*p == 'u') { /* \u00XX control characters */
                    c = '?';
                    for (int i = 0; i < 4 && p[1]; i++)
                        p++;
                }
            }
            if (k + 1 < len)
                out[k++] = c;
        }
    } else {
        for (; *p && *p != ',' && *p != '}' && *p != ']'; p++)
            if (k + 1 < len)
                out[k++] = *p;
    }
    out[k] = 0;
    return true;
}

/* Reads everything from fd into a string (caller frees). */
static char *read_all(int fd)
{
    struct ravel__strbuf sb = RAVEL__STRBUF_INIT;
    char buf[4096];
    for (;;) {
        ssize_t n = read(fd, buf, sizeof buf);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            break;
        ravel__sb_addn(&sb, buf, (size_t)n);
    }
    ravel__sb_addc(&sb, 0);
    return sb.data;
}

static bool expected_kind(const struct ravel_test *t, const char *kind)
{
    return t->expect_failure && *kind &&
           (!strcmp(t->expect_failure, "any") ||
            !strcmp(t->expect_failure, kind));
}

/* Runs test t in a process of its own and fills o. */
static void run_test(const char *exe, const struct ravel_test *t,
                     const struct arg_option *a, int n, uint64_t seed,
                     struct outcome *o)
{
    memset(o, 0, sizeof *o);
    o->t = t;
    ravel__unit_full_name(t, o->name, sizeof o->name);
    o->result = ERROR;
    int p[2];
    if (pipe2(p, O_CLOEXEC) != 0) {
        snprintf(o->message, sizeof o->message, "cannot create a pipe: %s",
                 strerror(errno));
        return;
    }
    /* The child's end, above the descriptors programs commonly use and
     * kept across exec. */
    int child_fd = fcntl(p[1], F_DUPFD, 10);
    struct ravel__strbuf env = RAVEL__STRBUF_INIT;
    char err[512];
    if (child_fd < 0 ||
        !test_options(t, a, n, seed, child_fd, &env, err, sizeof err)) {
        snprintf(o->message, sizeof o->message, "%s",
                 child_fd < 0 ? strerror(errno) : err);
        if (child_fd >= 0)
            close(child_fd);
        close(p[0]);
        close(p[1]);
        ravel__sb_free(&env);
        return;
    }
    fflush(NULL);
    double t0 = ravel__now();
    pid_t pid = fork();
    if (pid == 0) {
        setenv("RAVEL_OPTIONS", ravel__sb_str(&env), 1);
        char *argv[] = {(char *)exe, (char *)"--test", o->name, NULL};
        execv(exe, argv);
        fprintf(stderr, "ravel test: cannot run %s: %s\n", exe,
                strerror(errno));
        _exit(RAVEL__EXIT_USAGE);
    }
    /* Like system(): ^C reaches the test's run, which reports what it
     * has and exits 130; the driver then stops (below), not before. */
    struct sigaction ign, old_int, old_quit;
    memset(&ign, 0, sizeof ign);
    ign.sa_handler = SIG_IGN;
    sigemptyset(&ign.sa_mask);
    sigaction(SIGINT, &ign, &old_int);
    sigaction(SIGQUIT, &ign, &old_quit);
    close(p[1]);
    close(child_fd);
    ravel__sb_free(&env);
    if (pid < 0) {
        sigaction(SIGINT, &old_int, NULL);
        sigaction(SIGQUIT, &old_quit, NULL);
        snprintf(o->message, sizeof o->message, "cannot fork: %s",
                 strerror(errno));
        close(p[0]);
        return;
    }
    char *js = read_all(p[0]);
    close(p[0]);
    int st = 0;
    while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
        ;
    sigaction(SIGINT, &old_int, NULL);
    sigaction(SIGQUIT, &old_quit, NULL);
    o->seconds = ravel__now() - t0;
    o->status = WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);

    char v[64] = "", result[32] = "";
    json_get(js, "result", result, sizeof result);
    if (json_get(js, "executions", v, sizeof v))
        o->executions = strtoull(v, NULL, 10);
    if (json_get(js, "traces", v, sizeof v))
        o->traces = strtoull(v, NULL, 10);
    if (json_get(js, "complete", v, sizeof v))
        o->complete = !strcmp(v, "true");
    json_get(js, "guarantee", o->guarantee, sizeof o->guarantee);
    const char *bugs = js ? strstr(js, "\"bugs\":[{") : NULL;
    if (bugs) {
        json_get(bugs, "kind", o->kind, sizeof o->kind);
        json_get(bugs, "message", o->message, sizeof o->message);
        json_get(bugs, "ticket", o->ticket, sizeof o->ticket);
    }
    if (!strcmp(result, "clean") && o->status == 0) {
        if (t->expect_failure) {
            o->result = FAIL;
            snprintf(o->message, sizeof o->message,
                     "expected a failure (%s), none found", t->expect_failure);
        } else {
            o->result = PASS;
        }
    } else if (!strcmp(result, "bug") && o->status == RAVEL__EXIT_BUG) {
        if (expected_kind(t, o->kind)) {
            o->result = PASS;
            o->expected = true;
        } else {
            o->result = FAIL;
            if (t->expect_failure) {
                char m[sizeof o->message];
                int mn = snprintf(m, sizeof m, "expected %s, found %s: %s",
                                  t->expect_failure, o->kind, o->message);
                if (mn >= (int)sizeof m) /* cut like any message */
                    memcpy(m + sizeof m - 4, "...", 4);
                memcpy(o->message, m, sizeof m);
            }
        }
    } else {
        o->result = ERROR;
        char e[sizeof o->message] = "";
        if (!json_get(js, "error", e, sizeof e) || !e[0])
            snprintf(e, sizeof e, "the test's run ended with status %d",
                     o->status);
        memcpy(o->message, e, sizeof e);
    }
    free(js);
}

/* ---- output ------------------------------------------------------------------ */

static const char *result_word(const struct outcome *o)
{
    return o->result == PASS ? (o->expected ? "XFAIL" : "ok")
           : o->result == FAIL ? "FAIL"
                               : "ERROR";
}

/* "12 executions", "all 6 traces" ... for a line about o. */
static void counts(const struct outcome *o, char *buf, size_t len)
{
    snprintf(buf, len, "%llu execution%s, %.2f s", o->executions,
             o->executions == 1 ? "" : "s", o->seconds);
}

static void table(const struct outcome *r, unsigned n, uint64_t seed)
{
    struct ravel__strbuf sb = RAVEL__STRBUF_INIT;
    size_t w = 4;
    for (unsigned i = 0; i < n; i++)
        if (strlen(r[i].name) > w)
            w = strlen(r[i].name);
    unsigned pass = 0, fail = 0, err = 0, xfail = 0;
    ravel__sb_printf(&sb, "\nravel test: results (seed %llu)\n",
                     (unsigned long long)seed);
    ravel__sb_printf(&sb, "  %-6s %-*s %10s %8s  %s\n", "RESULT", (int)w,
                     "TEST", "EXECUTIONS", "SECONDS", "DETAIL");
    for (unsigned i = 0; i < n; i++) {
        const struct outcome *o = &r[i];
        char detail[700];
        if (o->result == PASS && o->expected)
            snprintf(detail, sizeof detail, "expected %s: %s", o->kind,
                     o->message);
        else if (o->result == PASS)
            snprintf(detail, sizeof detail, "%s",
                     o->guarantee[0] ? o->guarantee : "no bugs found");
        else if (o->result == FAIL && o->kind[0] && !o->t->expect_failure)
            snprintf(detail, sizeof detail, "%s: %s", o->kind, o->message);
        else
            snprintf(detail, sizeof detail, "%s", o->message);
        ravel__sb_printf(&sb, "  %-6s %-*s %10llu %8.2f  %s\n",
                         result_word(o), (int)w, o->name, o->executions,
                         o->seconds, detail);
        pass += o->result == PASS;
        xfail += o->result == PASS && o->expected;
        fail += o->result == FAIL;
        err += o->result == ERROR;
    }
    ravel__sb_printf(&sb, "ravel test: %u test%s, %u passed", n,
                     n == 1 ? "" : "s", pass);
    if (xfail)
        ravel__sb_printf(&sb, " (%u expected failure%s)", xfail,
                         xfail == 1 ? "" : "s");
    ravel__sb_printf(&sb, ", %u failed", fail);
    if (err)
        ravel__sb_printf(&sb, ", %u error%s", err, err == 1 ? "" : "s");
    ravel__sb_addc(&sb, '\n');
    for (unsigned i = 0; i < n; i++)
        if (r[i].result == FAIL && r[i].ticket[0])
            ravel__sb_printf(&sb, "  %s: ravel replay %s\n", r[i].name,
                             r[i].ticket);
    fputs(ravel__sb_str(&sb), stderr);
    ravel__sb_free(&sb);
}

static void json_results(const struct outcome *r, unsigned n, uint64_t seed,
                         const char *exe)
{
    struct ravel__strbuf sb = RAVEL__STRBUF_INIT;
    bool first = true;
    ravel__sb_addc(&sb, '{');
    ravel__json_key(&sb, &first, "ravel");
    ravel__json_str(&sb, RAVEL__VERSION);
    ravel__json_key(&sb, &first, "program");
    ravel__json_str(&sb, exe);
    ravel__json_key(&sb, &first, "seed");
    ravel__sb_printf(&sb, "%llu", (unsigned long long)seed);
    ravel__json_key(&sb, &first, "tests");
    ravel__sb_addc(&sb, '[');
    for (unsigned i = 0; i < n; i++) {
        const struct outcome *o = &r[i];
        bool f = true;
        ravel__sb_add(&sb, i ? ",{" : "{");
        ravel__json_key(&sb, &f, "name");
        ravel__json_str(&sb, o->name);
        ravel__json_key(&sb, &f, "result");
        ravel__json_str(&sb, o->result == PASS   ? "pass"
                             : o->result == FAIL ? "fail"
                                                 : "error");
        ravel__json_key(&sb, &f, "expected_failure");
        ravel__sb_add(&sb, o->expected ? "true" : "false");
        ravel__json_key(&sb, &f, "executions");
        ravel__sb_printf(&sb, "%llu", o->executions);
        ravel__json_key(&sb, &f, "traces");
        ravel__sb_printf(&sb, "%llu", o->traces);
        ravel__json_key(&sb, &f, "complete");
        ravel__sb_add(&sb, o->complete ? "true" : "false");
        ravel__json_key(&sb, &f, "elapsed_s");
        ravel__sb_printf(&sb, "%.3f", o->seconds);
        ravel__json_key(&sb, &f, "kind");
        ravel__json_str(&sb, o->kind);
        ravel__json_key(&sb, &f, "message");
        ravel__json_str(&sb, o->message);
        ravel__json_key(&sb, &f, "guarantee");
        ravel__json_str(&sb, o->guarantee);
        ravel__json_key(&sb, &f, "ticket");
        ravel__json_str(&sb, o->ticket);
        ravel__sb_addc(&sb, '}');
    }
    ravel__sb_add(&sb, "]}\n");
    fputs(ravel__sb_str(&sb), stdout);
    ravel__sb_free(&sb);
}

/* The results as CI records (report/ci.h); text points into r. */
static void ci_cases(const struct outcome *r, unsigned n,
                     struct ravel__ci_case *c, char (*text)[PATH_MAX + 64])
{
    for (unsigned i = 0; i < n; i++) {
        const struct outcome *o = &r[i];
        text[i][0] = 0;
        if (o->ticket[0])
            snprintf(text[i], sizeof text[i], "replay: ravel replay %s",
                     o->ticket);
        c[i] = (struct ravel__ci_case){
            .name = o->t->name,
            .classname = o->t->suite,
            .time_s = o->seconds,
            .status = o->result == PASS   ? RAVEL__CI_PASS
                      : o->result == FAIL ? RAVEL__CI_FAIL
                                          : RAVEL__CI_ERROR,
            .type = o->kind[0] ? o->kind : NULL,
            .message = o->message,
            .text = text[i],
        };
    }
}

/* Writes JUnit XML (one testsuite named after the program, a testcase
 * per test, its suite as the classname) or TAP to path ("-": stdout). */
static bool write_ci(const char *path, bool junit, const char *program,
                     const struct outcome *r, unsigned n)
{
    struct ravel__ci_case *c = calloc(n + 1, sizeof *c);
    char(*text)[PATH_MAX + 64] = calloc(n + 1, sizeof *text);
    if (!c || !text) {
        free(c);
        free(text);
        return false;
    }
    ci_cases(r, n, c, text);
    struct ravel__strbuf sb = RAVEL__STRBUF_INIT;
    if (junit) {
        double total = 0;
        for (unsigned i = 0; i < n; i++)
            total += r[i].seconds;
        ravel__ci_junit(&sb, program, c, n, total);
    } else {
        ravel__ci_tap_plan(&sb, n);
        for (unsigned i = 0; i < n; i++)
            ravel__ci_tap_case(&sb, i + 1, &c[i]);
    }
    bool ok;
    if (!strcmp(path, "-")) {
        ok = fwrite(sb.data, 1, sb.len, stdout) == sb.len &&
             fflush(stdout) == 0;
    } else {
        FILE *f = fopen(path, "w");
        ok = f && fwrite(sb.data, 1, sb.len, f) == sb.len;
        if (f && fclose(f) != 0)
            ok = false;
    }
    ravel__sb_free(&sb);
    free(c);
    free(text);
    return ok;
}

/* ---- main -------------------------------------------------------------------- */

static uint64_t fresh_seed(void)
{
    uint32_t v = 0;
    if (getrandom(&v, sizeof v, 0) != sizeof v)
        v = (uint32_t)getpid() ^ (uint32_t)(ravel__now() * 1e6);
    return v ? v : 1;
}

RAVEL__EXPORT int ravel_test_main(int argc, char **argv)
{
    const char *prog = argc > 0 ? argv[0] : "tests";
    if (ravel__rt.active) {
        fprintf(stderr, "ravel test: ravel_test_main runs the tests of a "
                        "test program; it cannot run inside a test\n");
        return RAVEL__EXIT_USAGE;
    }
    struct arg_option *args = calloc((size_t)argc + 1, sizeof *args);
    if (!args)
        usage("%s", "out of memory");
    int nargs = 0;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
            help(prog);
            free(args);
            return 0;
        }
        if (!strcmp(a, "--test") || !strncmp(a, "--test=", 7))
            usage("%s", "--test SUITE/NAME must be the first argument");
        if (strncmp(a, "--", 2) != 0 || !a[2])
            usage("unexpected argument '%s' (a test program takes --list, "
                  "--filter PATTERNS and ravel's options; --help)",
                  a);
        struct arg_option *o = &args[nargs];
        const char *eq = strchr(a, '=');
        size_t len = eq ? (size_t)(eq - a - 2) : strlen(a + 2);
        if (len >= sizeof o->name)
            len = sizeof o->name - 1;
        memcpy(o->name, a + 2, len);
        o->name[len] = 0;
        bool is_bool = false;
        bool neg = false;
        if (!ravel__options_known(o->name, &is_bool)) {
            /* --no-NAME for a boolean */
            bool b2 = false;
            if (!strncmp(o->name, "no-", 3) &&
                ravel__options_known(o->name + 3, &b2) && b2 && !eq) {
                memmove(o->name, o->name + 3, strlen(o->name + 3) + 1);
                neg = true;
                is_bool = true;
            } else {
                usage("unknown option --%s (--help)", o->name);
            }
        }
        o->value = eq ? eq + 1 : NULL;
        if (!o->value && is_bool)
            o->value = neg ? "0" : "1";
        if (!o->value) {
            if (i + 1 >= argc)
                usage("option --%s needs a value", o->name);
            o->value = argv[++i];
        }
        nargs++;
    }
    struct ravel__options run;
    run_options(&run, args, nargs);
    char err[512];
    if (ravel__options_validate(&run, err, sizeof err) != 0)
        usage("%s", err);
    const char *problem = ravel__unit_registry_error();
    if (problem)
        usage("%s", problem);

    unsigned total = ravel__unit_count();
    const struct ravel_test **sel = calloc(total + 1, sizeof *sel);
    if (!sel)
        usage("%s", "out of memory");
    unsigned n = select_tests(run.filter, sel);
    if (run.list) {
        for (unsigned i = 0; i < n; i++) {
            char name[256];
            ravel__unit_full_name(sel[i], name, sizeof name);
            printf("%s\n", name);
        }
        fflush(stdout);
        free(sel);
        free(args);
        ravel__options_free(&run);
        return 0;
    }
    uint64_t seed = run.set[RAVEL__OPT_seed] ? run.seed : fresh_seed();
    char exe[PATH_MAX];
    ssize_t len = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (len <= 0)
        usage("%s", "cannot find the program (/proc/self/exe)");
    exe[len] = 0;
    fprintf(stderr, "ravel test: %u test%s from %s, seed %llu\n", n,
            n == 1 ? "" : "s", ravel__basename(exe), (unsigned long long)seed);

    struct outcome *r = calloc(n + 1, sizeof *r);
    if (!r)
        usage("%s", "out of memory");
    unsigned done = 0;
    bool interrupted = false;
    for (unsigned i = 0; i < n; i++) {
        char name[256];
        ravel__unit_full_name(sel[i], name, sizeof name);
        fprintf(stderr, "[ RUN      ] %s\n", name);
        fflush(stderr);
        struct outcome *o = &r[done++];
        run_test(exe, sel[i], args, nargs, seed, o);
        char c[128];
        counts(o, c, sizeof c);
        if (o->result == PASS && o->expected)
            fprintf(stderr, "[       OK ] %s: expected %s found (%s)\n", name,
                    o->kind, c);
        else if (o->result == PASS)
            fprintf(stderr, "[       OK ] %s (%s)\n", name, c);
        else if (o->result == FAIL)
            fprintf(stderr, "[  FAILED  ] %s: %s (%s)\n", name,
                    o->kind[0] && !sel[i]->expect_failure ? o->kind
                                                          : o->message,
                    c);
        else
            fprintf(stderr, "[  ERROR   ] %s: %s\n", name, o->message);
        if (o->status == 130) {
            interrupted = true;
            break;
        }
    }
    table(r, done, seed);
    if (run.junit && !write_ci(run.junit, true, ravel__basename(exe), r, done))
        fprintf(stderr, "ravel test: warning: cannot write %s: %s\n",
                run.junit, strerror(errno));
    if (run.tap && !write_ci(run.tap, false, ravel__basename(exe), r, done))
        fprintf(stderr, "ravel test: warning: cannot write %s: %s\n",
                run.tap, strerror(errno));
    if (run.json)
        json_results(r, done, seed, exe);
    int code = 0;
    for (unsigned i = 0; i < done; i++) {
        if (r[i].result == ERROR)
            code = RAVEL__EXIT_USAGE;
        else if (r[i].result == FAIL && code == 0)
            code = RAVEL__EXIT_BUG;
    }
    if (interrupted)
        code = 130;
    free(r);
    free(sel);
    free(args);
    ravel__options_free(&run);
    return code;
}
