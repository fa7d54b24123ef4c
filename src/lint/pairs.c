/*
 * pairs.c - the table of calls the analyses recognise by name, its
 * built-in contents, and the parser of pair and lock directives (see
 * pairs.h for the language).
 *
 * The parser reads untrusted text (a user's file, comments in sources) and
 * is fuzzed (fuzz/fuzz_lint_pairs.c): every length is bounded, nothing is
 * read past `len`, and every error is a message, never an abort.
 */
#include "pairs.h"

#include "../common/hash.h"
#include "../common/strbuf.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NONE UINT32_MAX

/* Most specs a table holds: far more than any real configuration, small
 * enough that a hostile file cannot make the tool allocate without end. */
#define SPECS_MAX 100000

static char *xstrndup(const char *s, size_t n)
{
    char *d = malloc(n + 1);
    RAVEL__CHECK(d != NULL);
    memcpy(d, s, n);
    d[n] = 0;
    return d;
}

static void rehash(struct ravel__lint_specs *s)
{
    uint32_t cap = s->hashcap ? s->hashcap * 2 : 256;
    uint32_t *t = malloc((size_t)cap * sizeof *t);
    RAVEL__CHECK(t != NULL);
    memset(t, 0xff, (size_t)cap * sizeof *t);
    /* Only the first spec of each name is in the table. */
    for (uint32_t i = 0; i < s->hashcap; i++) {
        uint32_t id = s->hash[i];
        if (id == NONE)
            continue;
        const char *n = s->v[id].name;
        uint32_t h = (uint32_t)ravel__fnv1a(n, strlen(n), RAVEL__FNV_INIT) & (cap - 1);
        while (t[h] != NONE)
            h = (h + 1) & (cap - 1);
        t[h] = id;
    }
    free(s->hash);
    s->hash = t;
    s->hashcap = cap;
}

static uint32_t *slot(struct ravel__lint_specs *s, const char *name)
{
    uint32_t mask = s->hashcap - 1;
    uint32_t h = (uint32_t)ravel__fnv1a(name, strlen(name), RAVEL__FNV_INIT) & mask;
    while (s->hash[h] != NONE && strcmp(s->v[s->hash[h]].name, name) != 0)
        h = (h + 1) & mask;
    return &s->hash[h];
}

/* Appends a spec (name copied); links it after the others of its name. */
static struct ravel__lint_spec *add(struct ravel__lint_specs *s, const char *name,
                                    enum ravel__lint_role role, uint32_t family,
                                    const uint8_t *res, uint8_t nres)
{
    if ((s->n + 1) * 2 > s->hashcap)
        rehash(s);
    if (s->n == s->cap) {
        uint32_t nc = s->cap ? s->cap * 2 : 128;
        struct ravel__lint_spec *nv = realloc(s->v, (size_t)nc * sizeof *nv);
        RAVEL__CHECK(nv != NULL);
        s->v = nv;
        s->cap = nc;
    }
    struct ravel__lint_spec *sp = &s->v[s->n];
    memset(sp, 0, sizeof *sp);
    sp->name = xstrndup(name, strlen(name));
    sp->role = (uint8_t)role;
    sp->family = family;
    sp->nres = nres;
    if (nres)
        memcpy(sp->res, res, nres);
    sp->excl_flags = sp->excl_mode = -1;
    sp->next = NONE;
    uint32_t *h = slot(s, name);
    if (*h == NONE) {
        *h = s->n;
    } else {
        uint32_t i = *h;
        while (s->v[i].next != NONE)
            i = s->v[i].next;
        s->v[i].next = s->n;
    }
    s->n++;
    return sp;
}

static uint32_t add_family(struct ravel__lint_specs *s, const char *name,
                           enum ravel__lint_scope scope)
{
    if (s->nfam == s->capfam) {
        uint32_t nc = s->capfam ? s->capfam * 2 : 8;
        struct ravel__lint_family *nf = realloc(s->fam, (size_t)nc * sizeof *nf);
        RAVEL__CHECK(nf != NULL);
        s->fam = nf;
        s->capfam = nc;
    }
    s->fam[s->nfam].name = xstrndup(name, strlen(name));
    s->fam[s->nfam].scope = (uint8_t)scope;
    return s->nfam++;
}

const struct ravel__lint_spec *ravel__lint_specs_find(const struct ravel__lint_specs *s,
                                                      const char *name)
{
    if (!s->hashcap)
        return NULL;
    uint32_t mask = s->hashcap - 1;
    uint32_t h = (uint32_t)ravel__fnv1a(name, strlen(name), RAVEL__FNV_INIT) & mask;
    while (s->hash[h] != NONE) {
        if (!strcmp(s->v[s->hash[h]].name, name))
            return &s->v[s->hash[h]];
        h = (h + 1) & mask;
    }
    return NULL;
}

/* ---- built-in knowledge ------------------------------------------------- */

/* A call of the file-system family: name and the (0-based) position of
 * the path it works on; calls with two paths appear twice. */
struct fs_call {
    const char *name;
    uint8_t path;
    int8_t excl_flags, excl_mode;
};

/* Checks: they look at a path and report on what is there now. The
 * __xstat family is how glibc before 2.33 spelled stat() in headers. */
static const struct fs_call fs_checks[] = {
    {"access", 0, -1, -1},     {"faccessat", 1, -1, -1},
    {"euidaccess", 0, -1, -1}, {"eaccess", 0, -1, -1},
    {"stat", 0, -1, -1},       {"stat64", 0, -1, -1},
    {"lstat", 0, -1, -1},      {"lstat64", 0, -1, -1},
    {"fstatat", 1, -1, -1},    {"fstatat64", 1, -1, -1},
    {"statx", 1, -1, -1},      {"__xstat", 1, -1, -1},
    {"__xstat64", 1, -1, -1},  {"__lxstat", 1, -1, -1},
    {"__lxstat64", 1, -1, -1}, {"__fxstatat", 2, -1, -1},
    {"__fxstatat64", 2, -1, -1}, {"realpath", 0, -1, -1},
    {"readlink", 0, -1, -1},   {"readlinkat", 1, -1, -1},
};

/* Acts: they open, create, remove, rename, change or run what a path
 * names. open with O_EXCL and fopen with "x" re-check atomically. */
static const struct fs_call fs_acts[] = {
    {"open", 0, 1, -1},       {"open64", 0, 1, -1},
    {"__open_2", 0, 1, -1},   {"__open64_2", 0, 1, -1},
    {"openat", 1, 2, -1},     {"openat64", 1, 2, -1},
    {"fopen", 0, -1, 1},      {"fopen64", 0, -1, 1},
    {"freopen", 0, -1, 1},    {"creat", 0, -1, -1},
    {"creat64", 0, -1, -1},   {"unlink", 0, -1, -1},
    {"unlinkat", 1, -1, -1},  {"remove", 0, -1, -1},
    {"rename", 0, -1, -1},    {"rename", 1, -1, -1},
    {"renameat", 1, -1, -1},  {"renameat", 3, -1, -1},
    {"renameat2", 1, -1, -1}, {"renameat2", 3, -1, -1},
    {"chmod", 0, -1, -1},     {"fchmodat", 1, -1, -1},
    {"chown", 0, -1, -1},     {"lchown", 0, -1, -1},
    {"fchownat", 1, -1, -1},  {"truncate", 0, -1, -1},
    {"truncate64", 0, -1, -1}, {"mkdir", 0, -1, -1},
    {"mkdirat", 1, -1, -1},   {"rmdir", 0, -1, -1},
    {"link", 0, -1, -1},      {"link", 1, -1, -1},
    {"linkat", 1, -1, -1},    {"linkat", 3, -1, -1},
    {"symlink", 1, -1, -1},   {"symlinkat", 2, -1, -1},
    {"execve", 0, -1, -1},    {"execv", 0, -1, -1},
    {"execl", 0, -1, -1},     {"execle", 0, -1, -1},
    {"utime", 0, -1, -1},     {"utimes", 0, -1, -1},
    {"mkfifo", 0, -1, -1},    {"mknod", 0, -1, -1},
};

static const char *const locks[] = {
    "pthread_mutex_lock",     "pthread_mutex_trylock",
    "pthread_mutex_timedlock", "pthread_mutex_clocklock",
    "pthread_rwlock_rdlock",  "pthread_rwlock_wrlock",
    "pthread_rwlock_tryrdlock", "pthread_rwlock_trywrlock",
    "pthread_rwlock_timedrdlock", "pthread_rwlock_timedwrlock",
    "pthread_rwlock_clockrdlock", "pthread_rwlock_clockwrlock",
    "pthread_spin_lock",      "pthread_spin_trylock",
    "mtx_lock",               "mtx_trylock",
    "mtx_timedlock",
};
static const char *const unlocks[] = {
    "pthread_mutex_unlock", "pthread_rwlock_unlock", "pthread_spin_unlock",
    "mtx_unlock",
};
static const char *const waits[] = {
    "pthread_cond_wait", "pthread_cond_timedwait", "pthread_cond_clockwait",
    "cnd_wait", "cnd_timedwait",
};
static const char *const joins[] = {
    "pthread_join", "pthread_timedjoin_np", "pthread_tryjoin_np",
    "pthread_clockjoin_np", "thrd_join",
};
static const char *const allocs[] = {
    "malloc", "calloc", "realloc", "reallocarray", "aligned_alloc",
    "memalign", "valloc", "pvalloc", "strdup", "strndup",
};

void ravel__lint_specs_init(struct ravel__lint_specs *s, bool fs_pairs)
{
    memset(s, 0, sizeof *s);
    rehash(s);
    uint8_t r0[1] = {0}, r1[1] = {1};
    for (size_t i = 0; i < RAVEL__COUNT(locks); i++) {
        struct ravel__lint_spec *sp = add(s, locks[i], RAVEL__ROLE_LOCK, NONE, r0, 1);
        sp->lockmode = (uint8_t)((strstr(locks[i], "try") ? RAVEL__LOCKM_TRY : 0) |
                                 (strstr(locks[i], "rdlock") ? RAVEL__LOCKM_SHARED : 0));
    }
    for (size_t i = 0; i < RAVEL__COUNT(unlocks); i++)
        add(s, unlocks[i], RAVEL__ROLE_UNLOCK, NONE, r0, 1);
    for (size_t i = 0; i < RAVEL__COUNT(waits); i++)
        add(s, waits[i], RAVEL__ROLE_WAIT, NONE, r1, 1);
    for (size_t i = 0; i < RAVEL__COUNT(joins); i++)
        add(s, joins[i], RAVEL__ROLE_JOIN, NONE, r0, 1);
    for (size_t i = 0; i < RAVEL__COUNT(allocs); i++)
        add(s, allocs[i], RAVEL__ROLE_ALLOC, NONE, NULL, 0);
    uint8_t pc[3] = {0, 2, 3}, tc[3] = {0, 1, 2};
    add(s, "pthread_create", RAVEL__ROLE_CREATE, NONE, pc, 3);
    add(s, "thrd_create", RAVEL__ROLE_CREATE, NONE, tc, 3);
    for (uint32_t i = 0; i < s->n; i++)
        s->v[i].builtin = 1;
    if (!fs_pairs)
        return;
    uint32_t fam = add_family(s, "file system", RAVEL__SCOPE_PROCESS);
    for (size_t i = 0; i < RAVEL__COUNT(fs_checks); i++)
        add(s, fs_checks[i].name, RAVEL__ROLE_CHECK, fam, &fs_checks[i].path, 1);
    for (size_t i = 0; i < RAVEL__COUNT(fs_acts); i++) {
        struct ravel__lint_spec *sp =
            add(s, fs_acts[i].name, RAVEL__ROLE_ACT, fam, &fs_acts[i].path, 1);
        sp->excl_flags = fs_acts[i].excl_flags;
        sp->excl_mode = fs_acts[i].excl_mode;
    }
    for (uint32_t i = 0; i < s->n; i++)
        s->v[i].builtin = 1;
}

void ravel__lint_specs_free(struct ravel__lint_specs *s)
{
    for (uint32_t i = 0; i < s->n; i++)
        free(s->v[i].name);
    for (uint32_t i = 0; i < s->nfam; i++)
        free(s->fam[i].name);
    for (uint32_t i = 0; i < s->nseen; i++)
        free(s->seen[i]);
    free(s->v);
    free(s->fam);
    free(s->hash);
    free(s->seen);
    memset(s, 0, sizeof *s);
}

/* ---- the directive parser ----------------------------------------------- */

struct lexer {
    const char *p, *end;
    char *err;
    size_t errlen;
};

/* One parsed call: NAME(P, ...). */
struct pcall {
    char name[RAVEL__LINT_NAME_MAX + 1];
    uint8_t nres;
    uint8_t res[RAVEL__LINT_RES_MAX];
};

/* Calls one side of a pair may list. */
#define SIDE_MAX 16

static void skip_blank(struct lexer *l)
{
    while (l->p < l->end && (*l->p == ' ' || *l->p == '\t' || *l->p == '\r'))
        l->p++;
}

static int fail(struct lexer *l, const char *what)
{
    snprintf(l->err, l->errlen, "%s", what);
    return -1;
}

static bool ident_start(char c)
{
    return isalpha((unsigned char)c) || c == '_';
}

static bool ident_char(char c)
{
    return isalnum((unsigned char)c) || c == '_' || c == '$';
}

static int word(struct lexer *l, char *out, size_t outlen)
{
    skip_blank(l);
    if (l->p >= l->end || !ident_start(*l->p))
        return fail(l, "expected a function name");
    size_t n = 0;
    while (l->p < l->end && ident_char(*l->p)) {
        if (n + 1 >= outlen)
            return fail(l, "function name too long");
        out[n++] = *l->p++;
    }
    out[n] = 0;
    return 0;
}

static int parse_call(struct lexer *l, struct pcall *c)
{
    if (word(l, c->name, sizeof c->name) != 0)
        return -1;
    skip_blank(l);
    if (l->p >= l->end || *l->p != '(')
        return fail(l, "expected '(' and argument positions after the name");
    l->p++;
    c->nres = 0;
    skip_blank(l);
    if (l->p < l->end && *l->p == ')') {
        l->p++;
        return 0;
    }
    for (;;) {
        skip_blank(l);
        if (l->p >= l->end || !isdigit((unsigned char)*l->p))
            return fail(l, "expected an argument position (1, 2, ...)");
        unsigned v = 0;
        while (l->p < l->end && isdigit((unsigned char)*l->p)) {
            v = v * 10 + (unsigned)(*l->p++ - '0');
            if (v > RAVEL__LINT_ARGPOS_MAX)
                return fail(l, "argument position out of range (1 to 32)");
        }
        if (v == 0)
            return fail(l, "argument positions count from 1");
        if (c->nres == RAVEL__LINT_RES_MAX)
            return fail(l, "too many argument positions (at most 4)");
        c->res[c->nres++] = (uint8_t)(v - 1);
        skip_blank(l);
        if (l->p < l->end && *l->p == ',') {
            l->p++;
            continue;
        }
        if (l->p < l->end && *l->p == ')') {
            l->p++;
            return 0;
        }
        return fail(l, "expected ',' or ')' in the argument positions");
    }
}

static int parse_side(struct lexer *l, struct pcall *calls, int *n)
{
    *n = 0;
    for (;;) {
        if (*n == SIDE_MAX)
            return fail(l, "too many calls on one side of a pair (at most 16)");
        if (parse_call(l, &calls[*n]) != 0)
            return -1;
        (*n)++;
        skip_blank(l);
        if (l->p < l->end && *l->p == ',') {
            l->p++;
            continue;
        }
        return 0;
    }
}

static bool at_end(struct lexer *l)
{
    skip_blank(l);
    /* A directive in a block comment may end with its closer. */
    if (l->end - l->p >= 2 && l->p[0] == '*' && l->p[1] == '/') {
        l->p += 2;
        skip_blank(l);
    }
    return l->p >= l->end;
}

static bool seen_before(struct ravel__lint_specs *s, const char *norm)
{
    for (uint32_t i = 0; i < s->nseen; i++)
        if (!strcmp(s->seen[i], norm))
            return true;
    if (s->nseen == s->capseen) {
        uint32_t nc = s->capseen ? s->capseen * 2 : 16;
        char **ns = realloc(s->seen, (size_t)nc * sizeof *ns);
        RAVEL__CHECK(ns != NULL);
        s->seen = ns;
        s->capseen = nc;
    }
    s->seen[s->nseen++] = xstrndup(norm, strlen(norm));
    return false;
}

static void norm_call(struct ravel__strbuf *sb, const struct pcall *c)
{
    ravel__sb_printf(sb, "%s(", c->name);
    for (int i = 0; i < c->nres; i++)
        ravel__sb_printf(sb, "%s%d", i ? "," : "", c->res[i] + 1);
    ravel__sb_add(sb, ")");
}

int ravel__lint_specs_directive(struct ravel__lint_specs *s, const char *line,
                                size_t len, char *err, size_t errlen)
{
    struct lexer l = {line, line + len, err, errlen};
    skip_blank(&l);
    if (l.p >= l.end || *l.p == '#')
        return 0;
    if (s->n >= SPECS_MAX)
        return fail(&l, "too many declarations");
    char kw[16];
    if (word(&l, kw, sizeof kw) != 0)
        return fail(&l, "expected 'pair', 'lock' or 'unlock'");
    struct ravel__strbuf norm = RAVEL__STRBUF_INIT;
    int rc = 0;
    if (!strcmp(kw, "pair")) {
        struct pcall checks[SIDE_MAX], acts[SIDE_MAX];
        int nc = 0, na = 0;
        if (parse_side(&l, checks, &nc) != 0) {
            rc = -1;
            goto out;
        }
        skip_blank(&l);
        if (l.end - l.p < 2 || l.p[0] != '-' || l.p[1] != '>') {
            rc = fail(&l, "expected '->' between the checks and the acts");
            goto out;
        }
        l.p += 2;
        if (parse_side(&l, acts, &na) != 0) {
            rc = -1;
            goto out;
        }
        if (!at_end(&l)) {
            rc = fail(&l, "unexpected text after the pair");
            goto out;
        }
        for (int i = 0; i < nc + na; i++) {
            const struct pcall *c = i < nc ? &checks[i] : &acts[i - nc];
            if (c->nres != checks[0].nres) {
                rc = fail(&l, "every call of a pair must name the same number "
                              "of arguments");
                goto out;
            }
        }
        ravel__sb_add(&norm, "pair ");
        for (int i = 0; i < nc; i++) {
            if (i)
                ravel__sb_add(&norm, ", ");
            norm_call(&norm, &checks[i]);
        }
        ravel__sb_add(&norm, " -> ");
        for (int i = 0; i < na; i++) {
            if (i)
                ravel__sb_add(&norm, ", ");
            norm_call(&norm, &acts[i]);
        }
        if (seen_before(s, ravel__sb_str(&norm)))
            goto out;
        char fname[2 * RAVEL__LINT_NAME_MAX + 8];
        snprintf(fname, sizeof fname, "%s -> %s", checks[0].name, acts[0].name);
        uint32_t fam = add_family(s, fname, RAVEL__SCOPE_THREAD);
        for (int i = 0; i < nc; i++)
            add(s, checks[i].name, RAVEL__ROLE_CHECK, fam, checks[i].res,
                checks[i].nres);
        for (int i = 0; i < na; i++)
            add(s, acts[i].name, RAVEL__ROLE_ACT, fam, acts[i].res, acts[i].nres);
    } else if (!strcmp(kw, "lock") || !strcmp(kw, "unlock")) {
        struct pcall c;
        if (parse_call(&l, &c) != 0) {
            rc = -1;
            goto out;
        }
        if (!at_end(&l)) {
            rc = fail(&l, "unexpected text after the declaration");
            goto out;
        }
        if (c.nres != 1) {
            rc = fail(&l, "a lock function names exactly one argument: the lock");
            goto out;
        }
        ravel__sb_printf(&norm, "%s ", kw);
        norm_call(&norm, &c);
        if (seen_before(s, ravel__sb_str(&norm)))
            goto out;
        add(s, c.name, kw[0] == 'l' ? RAVEL__ROLE_LOCK : RAVEL__ROLE_UNLOCK, NONE,
            c.res, 1);
    } else {
        rc = fail(&l, "unknown directive (expected 'pair', 'lock' or 'unlock')");
    }
out:
    ravel__sb_free(&norm);
    return rc;
}

int ravel__lint_specs_parse(struct ravel__lint_specs *s, const char *text,
                            size_t len, char *err, size_t errlen)
{
    size_t i = 0;
    unsigned line = 1;
    while (i < len) {
        size_t j = i;
        while (j < len && text[j] != '\n')
            j++;
        char why[256];
        if (ravel__lint_specs_directive(s, text + i, j - i, why, sizeof why) != 0) {
            snprintf(err, errlen, "%u: %s", line, why);
            return -1;
        }
        i = j + 1;
        line++;
    }
    return 0;
}
