/*
 * symbolize.c - addresses to names (see symbolize.h).
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include "symbolize.h"

#include "elf.h"

#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <link.h>
#include <limits.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

/* Module of an address: its file and load bias. */
struct module {
    char path[PATH_MAX];
    uintptr_t bias;
    bool runtime;
};

static bool module_of(uint64_t addr, struct module *m)
{
    Dl_info info;
    struct link_map *lm = NULL;
    if (!dladdr1((void *)(uintptr_t)addr, &info, (void **)&lm,
                 RTLD_DL_LINKMAP) ||
        !lm)
        return false;
    m->bias = lm->l_addr;
    if (lm->l_name && lm->l_name[0]) {
        snprintf(m->path, sizeof m->path, "%s", lm->l_name);
    } else {
        ssize_t n = readlink("/proc/self/exe", m->path, sizeof m->path - 1);
        if (n <= 0)
            return false;
        m->path[n] = 0;
    }
    /* The module holding this very function is ravel's own. */
    Dl_info self;
    m->runtime = dladdr((void *)(uintptr_t)&module_of, &self) &&
                 self.dli_fbase == info.dli_fbase;
    return true;
}

/* ---- cache ------------------------------------------------------------ */

#define CACHE_SIZE 2048
static struct ravel__frame *cache;
static bool *cache_used;

static struct ravel__frame *cache_slot(uint64_t key)
{
    if (!cache) {
        cache = calloc(CACHE_SIZE, sizeof *cache);
        cache_used = calloc(CACHE_SIZE, sizeof *cache_used);
        if (!cache || !cache_used)
            return NULL;
    }
    uint64_t h = (key * 0x9e3779b97f4a7c15ULL) >> 53;
    for (unsigned i = 0; i < CACHE_SIZE; i++) {
        unsigned s = (unsigned)((h + i) % CACHE_SIZE);
        if (!cache_used[s] || cache[s].pc == key)
            return &cache[s];
    }
    return NULL;
}

/* ---- addr2line -------------------------------------------------------- */

static const char *addr2line_path(void)
{
    const char *p = getenv("RAVEL_ADDR2LINE");
    return p && *p ? p : "addr2line";
}

/* Runs addr2line on a batch of module-relative addresses; fills
 * func/file/line of out[i]. Returns -1 if it could not run. */
static int run_addr2line(const char *path, const uint64_t *rel, size_t n,
                         struct ravel__frame **out)
{
    char **argv = calloc(n + 6, sizeof *argv);
    char *nums = malloc(n * 20);
    if (!argv || !nums) {
        free(argv);
        free(nums);
        return -1;
    }
    size_t k = 0;
    argv[k++] = (char *)addr2line_path();
    argv[k++] = (char *)"-f";
    argv[k++] = (char *)"-C";
    argv[k++] = (char *)"-e";
    argv[k++] = (char *)path;
    for (size_t i = 0; i < n; i++) {
        snprintf(nums + i * 20, 20, "0x%llx", (unsigned long long)rel[i]);
        argv[k++] = nums + i * 20;
    }
    argv[k] = NULL;

    int pfd[2];
    if (pipe2(pfd, O_CLOEXEC) != 0) {
        free(argv);
        free(nums);
        return -1;
    }
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_adddup2(&fa, pfd[1], 1);
    posix_spawn_file_actions_addopen(&fa, 2, "/dev/null", O_WRONLY, 0);
    posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
    pid_t pid;
    int rc = posix_spawnp(&pid, argv[0], &fa, NULL, argv, environ);
    posix_spawn_file_actions_destroy(&fa);
    close(pfd[1]);
    free(argv);
    free(nums);
    if (rc != 0) {
        close(pfd[0]);
        return -1;
    }
    size_t cap = 4096, len = 0;
    char *text = malloc(cap);
    for (;;) {
        if (!text)
            break;
        if (len + 1 >= cap) {
            char *nt = realloc(text, cap * 2);
            if (!nt) {
                free(text);
                text = NULL;
                break;
            }
            text = nt;
            cap *= 2;
        }
        ssize_t r = read(pfd[0], text + len, cap - len - 1);
        if (r < 0 && errno == EINTR)
            continue;
        if (r <= 0)
            break;
        len += (size_t)r;
    }
    close(pfd[0]);
    int status;
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
        ;
    if (!text)
        return -1;
    text[len] = 0;
    char *line = text;
    for (size_t i = 0; i < n && *line; i++) {
        char *func = line;
        char *nl = strchr(func, '\n');
        if (!nl)
            break;
        *nl = 0;
        char *loc = nl + 1;
        nl = strchr(loc, '\n');
        if (!nl)
            break;
        *nl = 0;
        line = nl + 1;
        if (strcmp(func, "??") != 0)
            snprintf(out[i]->func, sizeof out[i]->func, "%s", func);
        char *disc = strstr(loc, " (discriminator");
        if (disc)
            *disc = 0;
        char *colon = strrchr(loc, ':');
        if (colon && strncmp(loc, "??", 2) != 0) {
            *colon = 0;
            unsigned long ln = strtoul(colon + 1, NULL, 10);
            if (ln > 0) {
                snprintf(out[i]->file, sizeof out[i]->file, "%s", loc);
                out[i]->line = (unsigned)ln;
            }
        }
    }
    free(text);
    return WIFEXITED(status) && WEXITSTATUS(status) == 0 ? 0 : -1;
}

/* Function name from the symbol table, when addr2line knows nothing. */
static void elf_func_name(const char *path, uint64_t rel,
                          struct ravel__frame *f)
{
    struct ravel__elf e;
    char err[128];
    if (ravel__elf_open(path, &e, err, sizeof err) != 0)
        return;
    const struct ravel__elf_sym *s = ravel__elf_lookup(&e, rel, true);
    if (s)
        snprintf(f->func, sizeof f->func, "%s", s->name);
    ravel__elf_close(&e);
}

void ravel__symbolize(const uint64_t *pcs, const bool *exact, size_t n,
                      struct ravel__frame *out)
{
    struct todo {
        struct module m;
        uint64_t rel;
        size_t idx;
    };
    struct todo *todo = calloc(n ? n : 1, sizeof *todo);
    size_t ntodo = 0;
    for (size_t i = 0; i < n; i++) {
        struct ravel__frame *f = &out[i];
        memset(f, 0, sizeof *f);
        f->pc = pcs[i];
        strcpy(f->func, "??");
        uint64_t key = pcs[i] ^ (exact && exact[i] ? 1ULL << 63 : 0);
        struct ravel__frame *c = cache_slot(key);
        if (c && c->pc == key && cache_used[c - cache]) {
            *f = *c;
            f->pc = pcs[i];
            continue;
        }
        if (!pcs[i] || !todo)
            continue;
        uint64_t lookup = pcs[i] - (exact && exact[i] ? 0 : 1);
        struct module m;
        if (!module_of(lookup, &m))
            continue;
        f->runtime = m.runtime;
        todo[ntodo++] = (struct todo){m, lookup - m.bias, i};
    }
    /* Batch per module, in chunks that keep argv small. */
    for (size_t i = 0; i < ntodo; i++) {
        if (!todo[i].m.path[0])
            continue;
        uint64_t rel[256];
        struct ravel__frame *dst[256];
        size_t idx[256];
        size_t k = 0;
        for (size_t j = i; j < ntodo && k < 256; j++) {
            if (strcmp(todo[j].m.path, todo[i].m.path) != 0)
                continue;
            rel[k] = todo[j].rel;
            dst[k] = &out[todo[j].idx];
            idx[k] = j;
            k++;
        }
        char path[PATH_MAX];
        snprintf(path, sizeof path, "%s", todo[i].m.path);
        if (run_addr2line(path, rel, k, dst) != 0) {
            for (size_t j = 0; j < k; j++)
                if (!strcmp(dst[j]->func, "??"))
                    elf_func_name(path, rel[j], dst[j]);
        }
        for (size_t j = 0; j < k; j++)
            todo[idx[j]].m.path[0] = 0; /* done */
    }
    for (size_t i = 0; i < n; i++) {
        uint64_t key = pcs[i] ^ (exact && exact[i] ? 1ULL << 63 : 0);
        struct ravel__frame *c = pcs[i] ? cache_slot(key) : NULL;
        if (c) {
            *c = out[i];
            c->pc = key;
            cache_used[c - cache] = true;
        }
    }
    free(todo);
}

void ravel__symbolize1(uint64_t pc, bool exact, struct ravel__frame *out)
{
    ravel__symbolize(&pc, &exact, 1, out);
}

/* ---- data ------------------------------------------------------------- */

static struct {
    char path[PATH_MAX];
    struct ravel__elf elf;
    bool ok;
} elf_cache[8];

static struct ravel__elf *elf_for(const char *path)
{
    for (size_t i = 0; i < RAVEL__COUNT(elf_cache); i++)
        if (elf_cache[i].ok && !strcmp(elf_cache[i].path, path))
            return &elf_cache[i].elf;
    for (size_t i = 0; i < RAVEL__COUNT(elf_cache); i++) {
        if (elf_cache[i].ok)
            continue;
        char err[128];
        if (ravel__elf_open(path, &elf_cache[i].elf, err, sizeof err) != 0)
            return NULL;
        snprintf(elf_cache[i].path, sizeof elf_cache[i].path, "%s", path);
        elf_cache[i].ok = true;
        return &elf_cache[i].elf;
    }
    return NULL;
}

bool ravel__symbolize_data(uint64_t addr, char *buf, size_t len)
{
    struct module m;
    if (!module_of(addr, &m))
        return false;
    struct ravel__elf *e = elf_for(m.path);
    if (!e)
        return false;
    uint64_t rel = addr - m.bias;
    const struct ravel__elf_sym *s = ravel__elf_lookup(e, rel, false);
    if (!s)
        return false;
    if (rel == s->value)
        snprintf(buf, len, "%s", s->name);
    else
        snprintf(buf, len, "%s+%llu", s->name,
                 (unsigned long long)(rel - s->value));
    return true;
}

bool ravel__symbolize_addr(uint64_t addr, char *buf, size_t len)
{
    if (ravel__symbolize_data(addr, buf, len))
        return true;
    struct module m;
    if (!module_of(addr, &m))
        return false;
    struct ravel__elf *e = elf_for(m.path);
    if (!e)
        return false;
    const struct ravel__elf_sym *s = ravel__elf_lookup(e, addr - m.bias, true);
    if (!s || addr - m.bias != s->value)
        return false;
    snprintf(buf, len, "%s", s->name);
    return true;
}

/* ---- paths ------------------------------------------------------------ */

const char *ravel__display_path(const char *file)
{
    static char cwd[PATH_MAX];
    static size_t cwdlen;
    if (!cwdlen && getcwd(cwd, sizeof cwd))
        cwdlen = strlen(cwd);
    if (cwdlen > 1 && !strncmp(file, cwd, cwdlen) && file[cwdlen] == '/')
        return file + cwdlen + 1;
    return file;
}

const char *ravel__basename(const char *path)
{
    const char *s = strrchr(path, '/');
    return s ? s + 1 : path;
}
