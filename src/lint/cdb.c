/*
 * cdb.c - reading compile_commands.json and deriving the bitcode compile
 * (see cdb.h).
 *
 * The database is untrusted input, parsed by jsonr.c and checked here
 * entry by entry; each problem is one line naming the entry. Fuzzed by
 * fuzz/fuzz_lint_cdb.c.
 */
#include "cdb.h"

#include "../common/jsonr.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static char *xstrdup(const char *s)
{
    size_t n = strlen(s);
    char *d = malloc(n + 1);
    RAVEL__CHECK(d != NULL);
    memcpy(d, s, n + 1);
    return d;
}

/* Joins dir and a relative path, dropping "." segments and resolving ".."
 * textually, as clang does for database paths (a ".." at the root stays
 * at the root; a relative path keeps leading ".."). Returns a malloc'ed
 * path. */
char *ravel__lint_path_join(const char *dir, const char *file)
{
    size_t n = strlen(dir) + strlen(file) + 2;
    char *raw = malloc(n);
    char *out = malloc(n + 1);
    size_t *seg = malloc(n * sizeof *seg); /* where each kept segment starts */
    RAVEL__CHECK(raw && out && seg);
    if (file[0] == '/' || !dir[0])
        snprintf(raw, n, "%s", file);
    else
        snprintf(raw, n, "%s/%s", dir, file);
    bool abs = raw[0] == '/';
    size_t o = 0, nseg = 0, ups = 0; /* ups: leading ".." kept (relative) */
    const char *p = raw;
    while (*p) {
        while (*p == '/')
            p++;
        const char *s = p;
        while (*p && *p != '/')
            p++;
        size_t len = (size_t)(p - s);
        if (len == 0 || (len == 1 && s[0] == '.'))
            continue;
        if (len == 2 && s[0] == '.' && s[1] == '.') {
            if (nseg > ups) {
                o = seg[--nseg];
                continue;
            }
            if (abs)
                continue;
            ups++;
        }
        seg[nseg++] = o;
        if (o > 0 || abs)
            out[o++] = '/';
        memcpy(out + o, s, len);
        o += len;
    }
    if (o == 0)
        out[o++] = abs ? '/' : '.';
    out[o] = 0;
    free(raw);
    free(seg);
    return out;
}

void ravel__lint_argv_free(char **argv)
{
    if (!argv)
        return;
    for (char **a = argv; *a; a++)
        free(*a);
    free(argv);
}

struct vec {
    char **v;
    int n, cap;
};

static void vpush(struct vec *v, char *s)
{
    if (v->n + 1 >= v->cap) {
        int nc = v->cap ? v->cap * 2 : 16;
        char **nv = realloc(v->v, (size_t)nc * sizeof *nv);
        RAVEL__CHECK(nv != NULL);
        v->v = nv;
        v->cap = nc;
    }
    v->v[v->n++] = s;
    v->v[v->n] = NULL;
}

char **ravel__lint_shell_split(const char *cmd, int *argc, char *err,
                               size_t errlen)
{
    struct vec v = {NULL, 0, 0};
    vpush(&v, NULL);
    v.n = 0;
    const char *p = cmd;
    size_t cap = strlen(cmd) + 1;
    char *word = malloc(cap);
    RAVEL__CHECK(word != NULL);
    for (;;) {
        while (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r')
            p++;
        if (!*p)
            break;
        size_t n = 0;
        while (*p && *p != ' ' && *p != '\t' && *p != '\n' && *p != '\r') {
            if (*p == '\'') {
                p++;
                while (*p && *p != '\'')
                    word[n++] = *p++;
                if (!*p)
                    goto unterminated;
                p++;
            } else if (*p == '"') {
                p++;
                while (*p && *p != '"') {
                    if (*p == '\\' && (p[1] == '"' || p[1] == '\\' ||
                                       p[1] == '$' || p[1] == '`'))
                        p++;
                    word[n++] = *p++;
                }
                if (!*p)
                    goto unterminated;
                p++;
            } else if (*p == '\\') {
                p++;
                if (*p)
                    word[n++] = *p++;
            } else {
                word[n++] = *p++;
            }
        }
        word[n] = 0;
        vpush(&v, xstrdup(word));
    }
    free(word);
    *argc = v.n;
    return v.v;
unterminated:
    free(word);
    snprintf(err, errlen, "unterminated quote in the command");
    ravel__lint_argv_free(v.v);
    return NULL;
}

void ravel__lint_cdb_add(struct ravel__lint_cdb *db, const char *dir,
                         const char *file, char *const *argv, int argc)
{
    char *abs = ravel__lint_path_join(dir, file);
    for (size_t i = 0; i < db->n; i++) {
        if (!strcmp(db->v[i].file, abs)) {
            free(abs);
            return;
        }
    }
    if (db->n == db->cap) {
        size_t nc = db->cap ? db->cap * 2 : 16;
        struct ravel__lint_cmd *nv = realloc(db->v, nc * sizeof *nv);
        RAVEL__CHECK(nv != NULL);
        db->v = nv;
        db->cap = nc;
    }
    struct ravel__lint_cmd *c = &db->v[db->n++];
    c->dir = xstrdup(dir);
    c->file = abs;
    c->argv = malloc(((size_t)argc + 1) * sizeof *c->argv);
    RAVEL__CHECK(c->argv != NULL);
    for (int i = 0; i < argc; i++)
        c->argv[i] = xstrdup(argv[i]);
    c->argv[argc] = NULL;
    c->argc = argc;
}

void ravel__lint_cdb_free(struct ravel__lint_cdb *db)
{
    for (size_t i = 0; i < db->n; i++) {
        free(db->v[i].dir);
        free(db->v[i].file);
        ravel__lint_argv_free(db->v[i].argv);
    }
    free(db->v);
    memset(db, 0, sizeof *db);
}

/* A string member that must be there, non-empty and free of NULs. */
static const char *need_str(const struct ravel__jv *e, const char *key,
                            size_t idx, char *err, size_t errlen)
{
    const struct ravel__jv *v = ravel__jv_get(e, key);
    if (!v) {
        snprintf(err, errlen, "entry %zu: no \"%s\"", idx + 1, key);
        return NULL;
    }
    if (v->type != RAVEL__JV_STR || v->len == 0 || strlen(v->str) != v->len) {
        snprintf(err, errlen, "entry %zu: \"%s\" is not a non-empty string",
                 idx + 1, key);
        return NULL;
    }
    return v->str;
}

int ravel__lint_cdb_parse(const char *text, size_t len,
                          struct ravel__lint_cdb *db, char *err, size_t errlen)
{
    memset(db, 0, sizeof *db);
    struct ravel__jv root;
    if (ravel__jv_parse(text, len, &root, err, errlen) != 0)
        return -1;
    int rc = -1;
    if (root.type != RAVEL__JV_ARR) {
        snprintf(err, errlen, "not a JSON array of compile commands");
        goto out;
    }
    for (size_t i = 0; i < root.len; i++) {
        const struct ravel__jv *e = &root.items[i];
        if (e->type != RAVEL__JV_OBJ) {
            snprintf(err, errlen, "entry %zu: not an object", i + 1);
            goto out;
        }
        const char *dir = need_str(e, "directory", i, err, errlen);
        const char *file = dir ? need_str(e, "file", i, err, errlen) : NULL;
        if (!file)
            goto out;
        const struct ravel__jv *args = ravel__jv_get(e, "arguments");
        const struct ravel__jv *cmd = ravel__jv_get(e, "command");
        if (args) {
            if (args->type != RAVEL__JV_ARR || args->len == 0) {
                snprintf(err, errlen,
                         "entry %zu: \"arguments\" is not a non-empty array", i + 1);
                goto out;
            }
            char **av = malloc((args->len + 1) * sizeof *av);
            RAVEL__CHECK(av != NULL);
            for (size_t k = 0; k < args->len; k++) {
                const struct ravel__jv *a = &args->items[k];
                if (a->type != RAVEL__JV_STR || strlen(a->str) != a->len) {
                    free(av);
                    snprintf(err, errlen,
                             "entry %zu: argument %zu is not a string", i + 1, k + 1);
                    goto out;
                }
                av[k] = a->str;
            }
            av[args->len] = NULL;
            ravel__lint_cdb_add(db, dir, file, av, (int)args->len);
            free(av);
        } else if (cmd) {
            if (cmd->type != RAVEL__JV_STR || strlen(cmd->str) != cmd->len) {
                snprintf(err, errlen, "entry %zu: \"command\" is not a string",
                         i + 1);
                goto out;
            }
            int ac;
            char why[128];
            char **av = ravel__lint_shell_split(cmd->str, &ac, why, sizeof why);
            if (!av || ac == 0) {
                snprintf(err, errlen, "entry %zu: %s", i + 1,
                         av ? "empty \"command\"" : why);
                ravel__lint_argv_free(av);
                goto out;
            }
            ravel__lint_cdb_add(db, dir, file, av, ac);
            ravel__lint_argv_free(av);
        } else {
            snprintf(err, errlen, "entry %zu: neither \"arguments\" nor \"command\"",
                     i + 1);
            goto out;
        }
    }
    rc = 0;
out:
    ravel__jv_free(&root);
    return rc;
}

int ravel__lint_cdb_load(const char *path, struct ravel__lint_cdb *db,
                         char *err, size_t errlen)
{
    memset(db, 0, sizeof *db);
    struct stat st;
    char file[4096];
    size_t n = strlen(path);
    bool json = n >= 5 && !strcmp(path + n - 5, ".json");
    /* A directory, or what should have been one (a build directory not
     * made yet): the database inside it. */
    if ((stat(path, &st) == 0 && S_ISDIR(st.st_mode)) ||
        (!json && stat(path, &st) != 0))
        snprintf(file, sizeof file, "%s/compile_commands.json", path);
    else
        snprintf(file, sizeof file, "%s", path);
    size_t len;
    char *text = ravel__read_file(file, RAVEL__LINT_CDB_LIMIT, &len);
    if (!text) {
        snprintf(err, errlen, "%s: %s", file,
                 errno == ENOENT ? "no compilation database (build with "
                                   "CMAKE_EXPORT_COMPILE_COMMANDS=ON, or use "
                                   "bear)"
                                 : strerror(errno));
        return -1;
    }
    char why[512];
    int rc = ravel__lint_cdb_parse(text, len, db, why, sizeof why);
    free(text);
    if (rc != 0)
        snprintf(err, errlen, "%s: %s", file, why);
    return rc;
}

bool ravel__lint_is_c_source(const char *file)
{
    const char *dot = strrchr(file, '.');
    const char *slash = strrchr(file, '/');
    if (!dot || (slash && dot < slash))
        return false;
    return !strcmp(dot, ".c") || !strcmp(dot, ".i");
}

static bool starts(const char *s, const char *prefix)
{
    return !strncmp(s, prefix, strlen(prefix));
}

/* Compiler wrappers that take the real compiler as their first word. */
static bool is_wrapper(const char *argv0)
{
    const char *b = strrchr(argv0, '/');
    b = b ? b + 1 : argv0;
    return !strcmp(b, "ccache") || !strcmp(b, "sccache") ||
           !strcmp(b, "distcc") || !strcmp(b, "icecc");
}

char **ravel__lint_cdb_argv(const struct ravel__lint_cmd *c, const char *clang,
                            const char *out, const char *depfile)
{
    struct vec v = {NULL, 0, 0};
    vpush(&v, xstrdup(clang));
    int i = 1;
    if (c->argc > 1 && is_wrapper(c->argv[0]) && c->argv[1][0] != '-')
        i = 2;
    bool have_file = false;
    for (; i < c->argc; i++) {
        const char *a = c->argv[i];
        /* Options with a separate value that must go with it. */
        if (!strcmp(a, "-o") || !strcmp(a, "-MF") || !strcmp(a, "-MT") ||
            !strcmp(a, "-MQ") || !strcmp(a, "-Xlinker")) {
            i++;
            continue;
        }
        if (!strcmp(a, "-c") || !strcmp(a, "-S") || !strcmp(a, "-E") ||
            !strcmp(a, "-M") || !strcmp(a, "-MM") || !strcmp(a, "-MD") ||
            !strcmp(a, "-MMD") || !strcmp(a, "-MP") || !strcmp(a, "-MG") ||
            !strcmp(a, "-pipe") || !strcmp(a, "--coverage") ||
            !strcmp(a, "-fanalyzer") || !strcmp(a, "-Wno-tsan"))
            continue;
        if ((starts(a, "-o") && a[2]) || starts(a, "-MF") || starts(a, "-MT") ||
            starts(a, "-MQ") || starts(a, "-O") || starts(a, "-g") ||
            starts(a, "-fsanitize") || starts(a, "-fno-sanitize") ||
            starts(a, "-flto") || starts(a, "-fno-lto") ||
            starts(a, "-fprofile") || starts(a, "-fcoverage") ||
            starts(a, "-ftest-coverage") || starts(a, "-save-temps") ||
            starts(a, "-Werror") || starts(a, "-Wl,") ||
            starts(a, "-fdiagnostics-color") || starts(a, "-fplugin"))
            continue;
        if (a[0] != '-') {
            /* The source file, or a value of an option we keep. */
            char *abs = ravel__lint_path_join(c->dir, a);
            if (!strcmp(abs, c->file))
                have_file = true;
            free(abs);
        }
        vpush(&v, xstrdup(a));
    }
    if (!have_file)
        vpush(&v, xstrdup(c->file));
    static const char *const tail[] = {
        "-c", "-emit-llvm", "-O0", "-Xclang", "-disable-O0-optnone",
        "-gline-tables-only", "-fno-discard-value-names", "-w",
        "-Qunused-arguments", "-D__RAVEL_LINT__=1", "-MMD",
    };
    for (size_t k = 0; k < RAVEL__COUNT(tail); k++)
        vpush(&v, xstrdup(tail[k]));
    vpush(&v, xstrdup("-MF"));
    vpush(&v, xstrdup(depfile));
    vpush(&v, xstrdup("-o"));
    vpush(&v, xstrdup(out));
    return v.v;
}
