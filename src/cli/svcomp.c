/*
 * svcomp.c - `ravel svcomp [OPTIONS] TASK.yml`: one SV-COMP verification
 * task, built, run and answered with the competition's verdict.
 *
 * A task is a .yml file (format 2.0) naming its input files, the
 * properties to check with their expected verdicts, and a data model:
 *
 *     format_version: '2.0'
 *     input_files: 'counter.c'
 *     properties:
 *       - property_file: ../properties/unreach-call.prp
 *         expected_verdict: false
 *     options:
 *       language: C
 *       data_model: LP64
 *
 * This command reads only those keys (a line-based reader for the subset
 * of YAML tasks use), builds the input files with ravel-cc (beside this
 * executable) at -O0 into a temporary directory, runs the program with
 * `ravel run --json` (its own options passed on; by default a time budget
 * instead of an execution budget, and a thread cap for programs that
 * create threads without bound), reads the JSON summary and prints one
 * verdict per supported property:
 *
 *   unreach-call   false  when reach_error() or __VERIFIER_error() was
 *                         called (with the replay ticket);
 *                  true   when the search covered every behaviour (the
 *                         summary's `complete`, which ravel sets only when
 *                         no execution was cut short, the exploration was
 *                         exhausted and every data race found had its
 *                         accesses interleaved);
 *                  unknown otherwise.
 *   no-data-race   false  when a data race was found; true when complete
 *                         and none was; unknown otherwise.
 *
 * Other properties get `unknown (not supported)`. ILP32 tasks (built with
 * -m32 for the competition) are refused with one line: the runtime is
 * 64-bit only. The expected verdict, when the task gives one, is printed
 * beside ravel's so that a mismatch shows; it never changes the verdict.
 * docs/svcomp.md says more.
 */
#include "cli.h"

#include <errno.h>
#include <stdarg.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#define MAX_INPUTS 16
#define MAX_PROPS 8

struct task {
    char dir[PATH_MAX]; /* the .yml's folder: input paths are relative */
    char *inputs[MAX_INPUTS];
    unsigned ninputs;
    struct {
        char *file;     /* property_file as written */
        char *expected; /* "true", "false" or NULL */
    } props[MAX_PROPS];
    unsigned nprops;
    char *data_model;
    char *language;
};

/* Frees what read_task allocated. */
static void task_free(struct task *t)
{
    for (unsigned i = 0; i < t->ninputs; i++)
        free(t->inputs[i]);
    for (unsigned i = 0; i < t->nprops; i++) {
        free(t->props[i].file);
        free(t->props[i].expected);
    }
    free(t->data_model);
    free(t->language);
    memset(t, 0, sizeof *t);
}

RAVEL__NORETURN static void fail(const char *fmt, ...) RAVEL__PRINTF(1, 2);
static void fail(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    char msg[1024];
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    ravel__usage_error("svcomp", "%s", msg);
}

static char *xstrdup(const char *s)
{
    char *d = strdup(s);
    if (!d)
        fail("out of memory");
    return d;
}

/* A scalar as YAML writes it: trims spaces, a comment, and quotes. */
static char *scalar(char *s)
{
    while (*s == ' ' || *s == '\t')
        s++;
    char q = (*s == '\'' || *s == '"') ? *s : 0;
    if (q) {
        s++;
        char *end = strchr(s, q);
        if (end)
            *end = 0;
        return s;
    }
    char *hash = strstr(s, " #");
    if (hash)
        *hash = 0;
    size_t n = strlen(s);
    while (n && (s[n - 1] == ' ' || s[n - 1] == '\t' || s[n - 1] == '\r' ||
                 s[n - 1] == '\n'))
        s[--n] = 0;
    return s;
}

static void read_task(const char *path, struct task *t)
{
    memset(t, 0, sizeof *t);
    FILE *f = fopen(path, "r");
    if (!f)
        fail("%s: %s", path, strerror(errno));
    snprintf(t->dir, sizeof t->dir, "%s", path);
    char *slash = strrchr(t->dir, '/');
    if (slash)
        *slash = 0;
    else
        snprintf(t->dir, sizeof t->dir, ".");
    char line[4096];
    enum { NONE, INPUTS, PROPS } list = NONE;
    unsigned lineno = 0;
    while (fgets(line, sizeof line, f)) {
        lineno++;
        if (!strchr(line, '\n') && !feof(f))
            fail("%s:%u: line too long", path, lineno);
        char *s = line;
        unsigned indent = 0;
        while (*s == ' ') {
            s++;
            indent++;
        }
        if (!*s || *s == '#' || *s == '\n' || *s == '\r')
            continue;
        if (indent == 0)
            list = NONE;
        if (!strncmp(s, "- ", 2) && list == INPUTS) {
            if (t->ninputs == MAX_INPUTS)
                fail("%s:%u: more than %d input files", path, lineno,
                     MAX_INPUTS);
            t->inputs[t->ninputs++] = xstrdup(scalar(s + 2));
            continue;
        }
        if (!strncmp(s, "- ", 2) && list == PROPS) {
            if (t->nprops == MAX_PROPS)
                fail("%s:%u: more than %d properties", path, lineno,
                     MAX_PROPS);
            t->nprops++;
            s += 2;
            while (*s == ' ')
                s++;
        }
        char *colon = strchr(s, ':');
        if (!colon)
            fail("%s:%u: expected 'key: value'", path, lineno);
        *colon = 0;
        char *key = s, *val = scalar(colon + 1);
        if (!strcmp(key, "input_files")) {
            if (*val) {
                if (*val == '[')
                    fail("%s:%u: write input_files as a string or a list of "
                         "'- file' lines",
                         path, lineno);
                t->inputs[t->ninputs++] = xstrdup(val);
            } else {
                list = INPUTS;
            }
        } else if (!strcmp(key, "properties")) {
            list = PROPS;
        } else if (!strcmp(key, "property_file") && list == PROPS &&
                   t->nprops) {
            t->props[t->nprops - 1].file = xstrdup(val);
        } else if (!strcmp(key, "expected_verdict") && list == PROPS &&
                   t->nprops) {
            t->props[t->nprops - 1].expected = xstrdup(val);
        } else if (!strcmp(key, "data_model")) {
            t->data_model = xstrdup(val);
        } else if (!strcmp(key, "language")) {
            t->language = xstrdup(val);
        }
    }
    fclose(f);
    if (!t->ninputs)
        fail("%s: no input_files", path);
    if (!t->nprops)
        fail("%s: no properties", path);
    if (t->language && strcmp(t->language, "C"))
        fail("%s: language %s: only C tasks are supported", path,
             t->language);
    if (t->data_model && !strcmp(t->data_model, "ILP32"))
        fail("%s: ILP32 task (built with -m32): not supported, ravel's "
             "runtime is 64-bit only",
             path);
}

/* The property a .prp file names, by its file name (the competition's
 * files are named after their property). */
static const char *property_name(const char *file)
{
    const char *base = strrchr(file, '/');
    base = base ? base + 1 : file;
    if (!strncmp(base, "unreach-call", 12))
        return "unreach-call";
    if (!strncmp(base, "no-data-race", 12))
        return "no-data-race";
    return NULL;
}

/* Runs argv, its stdout into *out (NUL-terminated, malloc'd) when out is
 * not NULL, stderr through (or into /dev/null when quiet). Returns the
 * wait status. */
static int run(char **argv, char **out, bool quiet)
{
    int fds[2];
    if (out && pipe(fds) != 0)
        fail("pipe: %s", strerror(errno));
    pid_t pid = fork();
    if (pid < 0)
        fail("fork: %s", strerror(errno));
    if (pid == 0) {
        if (out) {
            dup2(fds[1], 1);
            close(fds[0]);
            close(fds[1]);
        }
        if (quiet && !freopen("/dev/null", "w", stderr))
            _exit(127);
        execv(argv[0], argv);
        fprintf(stderr, "ravel svcomp: cannot run %s: %s\n", argv[0],
                strerror(errno));
        _exit(127);
    }
    if (out) {
        close(fds[1]);
        size_t cap = 1 << 16, len = 0;
        char *buf = malloc(cap);
        ssize_t n;
        while (buf && (n = read(fds[0], buf + len, cap - len - 1)) > 0) {
            len += (size_t)n;
            if (cap - len < 2) {
                char *nb = realloc(buf, cap *= 2);
                if (!nb)
                    free(buf);
                buf = nb;
            }
        }
        close(fds[0]);
        if (!buf)
            fail("out of memory");
        buf[len] = 0;
        *out = buf;
    }
    int st;
    while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
        ;
    return st;
}

/* The JSON string value after `"key":` at or after p, into buf (simple
 * escapes undone). Returns the position after it, or NULL. */
static const char *json_string(const char *p, const char *key, char *buf,
                               size_t len)
{
    char pat[64];
    snprintf(pat, sizeof pat, "\"%s\":\"", key);
    const char *s = strstr(p, pat);
    if (!s)
        return NULL;
    s += strlen(pat);
    size_t n = 0;
    while (*s && *s != '"') {
        char c = *s++;
        if (c == '\\' && *s) {
            c = *s++;
            if (c == 'n')
                c = ' ';
            else if (c == 'u') {
                c = '?';
                for (int k = 0; k < 4 && *s; k++)
                    s++;
            }
        }
        if (n + 1 < len)
            buf[n++] = c;
    }
    buf[n] = 0;
    return s;
}

static bool json_true(const char *js, const char *key)
{
    char pat[64];
    snprintf(pat, sizeof pat, "\"%s\":true", key);
    return strstr(js, pat) != NULL;
}

static void usage(void)
{
    printf(
        "usage: ravel svcomp [OPTIONS] TASK.yml\n"
        "\n"
        "    Builds an SV-COMP verification task with ravel-cc, explores it\n"
        "    with 'ravel run' and prints the verdict for each property it\n"
        "    lists that ravel checks (unreach-call, no-data-race):\n"
        "    'true' only when the search covered every behaviour, 'false'\n"
        "    with the replay ticket of the violation, 'unknown' otherwise.\n"
        "\n"
        "    --property NAME   check only this property of the task\n"
        "    --keep            keep the build directory (its path is printed)\n"
        "    --quiet           do not show ravel run's reports\n"
        "    Every 'ravel run' option is passed on (see 'ravel run --help');\n"
        "    the defaults here are --time 60 --executions 0 --max-threads 8.\n"
        "    ILP32 tasks (-m32) are refused: the runtime is 64-bit only.\n"
        "    See docs/svcomp.md.\n");
}

int ravel__cmd_svcomp(int argc, char **argv)
{
    const char *only = NULL, *yml = NULL;
    bool keep = false, quiet = false;
    char **pass = calloc((size_t)argc + 1, sizeof *pass);
    int npass = 0;
    struct ravel__options probe;
    ravel__options_defaults(&probe);
    if (!pass)
        fail("out of memory");
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
            usage();
            return 0;
        }
        if (!strcmp(a, "--property")) {
            if (i + 1 >= argc)
                fail("--property wants unreach-call or no-data-race");
            only = argv[++i];
            if (strcmp(only, "unreach-call") && strcmp(only, "no-data-race"))
                fail("--property %s: ravel checks unreach-call and "
                     "no-data-race",
                     only);
            continue;
        }
        if (!strcmp(a, "--keep")) {
            keep = true;
            continue;
        }
        if (!strcmp(a, "--quiet")) {
            quiet = true;
            continue;
        }
        if (a[0] == '-') {
            int start = i;
            if (!ravel__parse_flag("svcomp", &probe, argc, argv, &i))
                fail("unknown option '%s' (see 'ravel svcomp --help')", a);
            for (int k = start; k <= i; k++)
                pass[npass++] = argv[k];
            continue;
        }
        if (yml)
            fail("one task at a time (%s and %s)", yml, a);
        yml = a;
    }
    ravel__options_free(&probe);
    if (!yml)
        fail("no task given (usage: ravel svcomp [OPTIONS] TASK.yml)");

    struct task t;
    read_task(yml, &t);
    bool any = false;
    for (unsigned i = 0; i < t.nprops; i++) {
        const char *p = t.props[i].file ? property_name(t.props[i].file)
                                        : NULL;
        if (p && (!only || !strcmp(p, only)))
            any = true;
    }
    if (only && !any)
        fail("%s: the task does not list the property %s", yml, only);

    /* ravel-cc and ravel: beside this executable. */
    char self[PATH_MAX], cc[PATH_MAX + 16], ravel[PATH_MAX + 16];
    ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
    if (n <= 0)
        fail("cannot find the ravel executable: %s", strerror(errno));
    self[n] = 0;
    snprintf(ravel, sizeof ravel, "%s", self);
    char *slash = strrchr(self, '/');
    if (slash)
        *slash = 0;
    snprintf(cc, sizeof cc, "%s/ravel-cc", self);

    char dir[] = "/tmp/ravel-svcomp.XXXXXX";
    if (!mkdtemp(dir))
        fail("cannot create a temporary directory: %s", strerror(errno));
    char exe[PATH_MAX], tickets[PATH_MAX];
    snprintf(exe, sizeof exe, "%s/task", dir);
    snprintf(tickets, sizeof tickets, "%s/tickets", dir);

    /* Build. */
    char *ccargv[MAX_INPUTS + 16];
    char inpaths[MAX_INPUTS][PATH_MAX * 2 + 2];
    int k = 0;
    ccargv[k++] = cc;
    ccargv[k++] = (char *)"-O0";
    ccargv[k++] = (char *)"-w";
    ccargv[k++] = (char *)"-std=gnu11";
    ccargv[k++] = (char *)"-o";
    ccargv[k++] = exe;
    for (unsigned i = 0; i < t.ninputs; i++) {
        if (t.inputs[i][0] == '/')
            snprintf(inpaths[i], sizeof inpaths[i], "%s", t.inputs[i]);
        else
            snprintf(inpaths[i], sizeof inpaths[i], "%s/%s", t.dir,
                     t.inputs[i]);
        struct stat st;
        if (stat(inpaths[i], &st) != 0)
            fail("%s: input file %s: %s", yml, inpaths[i], strerror(errno));
        ccargv[k++] = inpaths[i];
    }
    ccargv[k++] = (char *)"-lpthread";
    ccargv[k] = NULL;
    int st = run(ccargv, NULL, false);
    if (!WIFEXITED(st) || WEXITSTATUS(st) != 0)
        fail("%s: the task does not build with ravel-cc (its errors are "
             "above)",
             yml);

    /* Run. */
    char **rv = calloc((size_t)npass + 16, sizeof *rv);
    if (!rv)
        fail("out of memory");
    k = 0;
    rv[k++] = ravel;
    rv[k++] = (char *)"run";
    rv[k++] = (char *)"--json";
    int keep_going_at = k;
    rv[k++] = (char *)"--no-keep-going";
    rv[k++] = (char *)"--time";
    rv[k++] = (char *)"60";
    rv[k++] = (char *)"--executions";
    rv[k++] = (char *)"0";
    rv[k++] = (char *)"--max-threads";
    rv[k++] = (char *)"8";
    rv[k++] = (char *)"--ticket-dir";
    rv[k++] = tickets;
    for (int i = 0; i < npass; i++)
        rv[k++] = pass[i]; /* later options win */
    rv[k++] = (char *)"--";
    rv[k++] = exe;
    rv[k] = NULL;
    char *js = NULL;
    int round = 0;
again:
    st = run(rv, &js, quiet);
    if (!js || !strstr(js, "\"result\":"))
        fail("%s: ravel run gave no summary (exit status %d)", yml,
             WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st));
    bool error = strstr(js, "\"result\":\"error\"") != NULL;
    bool complete = !error && json_true(js, "complete");
    char guarantee[512] = "";
    json_string(js, "guarantee", guarantee, sizeof guarantee);

    /* The violations among the bugs. */
    char reach_msg[512] = "", reach_loc[512] = "", reach_ticket[PATH_MAX] = "";
    char race_loc[512] = "", race_ticket[PATH_MAX] = "";
    const char *b = strstr(js, "\"bugs\":[");
    const char *bend = b ? strstr(b, "],\"") : NULL;
    while (b && bend) {
        char kind[64], msg[512], loc[512], tk[PATH_MAX];
        const char *q = json_string(b, "kind", kind, sizeof kind);
        if (!q || q > bend)
            break;
        json_string(q, "message", msg, sizeof msg);
        json_string(q, "location", loc, sizeof loc);
        b = json_string(q, "ticket", tk, sizeof tk);
        if (!strcmp(kind, "assertion") && !reach_msg[0] &&
            (strstr(msg, "reach_error() called") ||
             strstr(msg, "__VERIFIER_error() called"))) {
            snprintf(reach_msg, sizeof reach_msg, "%s", msg);
            snprintf(reach_loc, sizeof reach_loc, "%s", loc);
            snprintf(reach_ticket, sizeof reach_ticket, "%s", tk);
        }
        if (!strcmp(kind, "data-race") && !race_loc[0]) {
            snprintf(race_loc, sizeof race_loc, "%s", loc);
            snprintf(race_ticket, sizeof race_ticket, "%s", tk);
        }
    }

    /* The run stopped at a bug that violates no property checked here (a
     * deadlock, abort() ...): that execution is over, but the search
     * stopped with it. Search again, past such bugs. */
    bool wants_race = false;
    for (unsigned i = 0; i < t.nprops; i++) {
        const char *p = t.props[i].file ? property_name(t.props[i].file)
                                        : NULL;
        if (p && !strcmp(p, "no-data-race") && (!only || !strcmp(p, only)))
            wants_race = true;
    }
    if (round == 0 && !complete && !error && !reach_msg[0] &&
        !(wants_race && race_loc[0]) && strstr(js, "\"bugs\":[{")) {
        round++;
        rv[keep_going_at] = (char *)"--keep-going";
        free(js);
        js = NULL;
        goto again;
    }

    for (unsigned i = 0; i < t.nprops; i++) {
        const char *file = t.props[i].file ? t.props[i].file : "?";
        const char *p = property_name(file);
        char expect[64] = "";
        if (t.props[i].expected)
            snprintf(expect, sizeof expect, " [expected: %s]",
                     t.props[i].expected);
        if (!p) {
            if (!only)
                printf("%s: %s: unknown (property not supported)%s\n", yml,
                       file, expect);
            continue;
        }
        if (only && strcmp(p, only))
            continue;
        if (!strcmp(p, "unreach-call") && reach_msg[0])
            printf("%s: unreach-call: false (%s at %s; replay: ravel replay "
                   "%s)%s\n",
                   yml, reach_msg, reach_loc, reach_ticket, expect);
        else if (!strcmp(p, "no-data-race") && race_loc[0])
            printf("%s: no-data-race: false (data race at %s; replay: ravel "
                   "replay %s)%s\n",
                   yml, race_loc, race_ticket, expect);
        else if (complete)
            printf("%s: %s: true (%s)%s\n", yml, p, guarantee, expect);
        else
            printf("%s: %s: unknown (%s)%s\n", yml, p,
                   error ? "ravel stopped on an error" : guarantee, expect);
    }
    if (keep) {
        fprintf(stderr, "ravel svcomp: build directory kept: %s\n", dir);
    } else {
        bool tickets_used = reach_ticket[0] || race_ticket[0];
        if (!tickets_used) {
            char *rm[] = {(char *)"/bin/rm", (char *)"-rf", dir, NULL};
            run(rm, NULL, true);
        } else {
            fprintf(stderr, "ravel svcomp: the program and its tickets are "
                            "in %s\n",
                    dir);
        }
    }
    free(js);
    free(rv);
    free(pass);
    task_free(&t);
    return 0;
}
