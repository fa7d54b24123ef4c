/*
 * checkpoint.c - the checkpoint file of a search in work units (see
 * checkpoint.h for the format and why it is enough).
 *
 * Writing happens in the supervisor, from the search tree in shared
 * memory, while the executor may be exploring: a unit's `done` flag is
 * set (with release order) only after every trace it found is in the
 * fingerprint set, so reading the flags first (acquire) and the set
 * after gives a file in which every unit said done has all its traces.
 * The set may also hold traces of units not done; they are real traces
 * of the search, found again when those units are redone.
 *
 * Reading is strict: every line is checked, numbers must be whole and
 * in range, and the file must end with "end"; anything else is one line
 * for the caller to print before exiting 2.
 */
#include "checkpoint.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

void ravel__checkpoint_free(struct ravel__checkpoint *c)
{
    free(c->done);
    free(c->fps);
    memset(c, 0, sizeof *c);
}

struct lines {
    const char *p, *end;
    uint32_t no;
    char line[128];
};

/* The next line into l->line (without the newline); false at the end
 * of the text or for a line too long or without its newline. */
static bool next_line(struct lines *l)
{
    if (l->p >= l->end)
        return false;
    const char *nl = memchr(l->p, '\n', (size_t)(l->end - l->p));
    if (!nl || (size_t)(nl - l->p) >= sizeof l->line)
        return false;
    memcpy(l->line, l->p, (size_t)(nl - l->p));
    l->line[nl - l->p] = 0;
    for (const char *c = l->line; *c; c++)
        if (*c == 0 || (unsigned char)*c < ' ')
            return false;
    l->p = nl + 1;
    l->no++;
    return true;
}

static bool number(const char *s, uint64_t max, uint64_t *out)
{
    if (!*s)
        return false;
    uint64_t v = 0;
    for (; *s; s++) {
        if (*s < '0' || *s > '9')
            return false;
        uint64_t d = (uint64_t)(*s - '0');
        if (v > max / 10 || (v == max / 10 && d > max % 10))
            return false;
        v = v * 10 + d;
    }
    *out = v;
    return true;
}

static bool hex16(const char *s, uint64_t *out)
{
    uint64_t v = 0;
    int n = 0;
    for (; *s; s++, n++) {
        unsigned d;
        if (*s >= '0' && *s <= '9')
            d = (unsigned)(*s - '0');
        else if (*s >= 'a' && *s <= 'f')
            d = (unsigned)(*s - 'a' + 10);
        else
            return false;
        v = v << 4 | d;
    }
    if (n != 16)
        return false;
    *out = v;
    return true;
}

/* "KEY VALUE" with a hexadecimal or decimal value. */
static bool keyed(struct lines *l, const char *key, bool hex, uint64_t max,
                  uint64_t *out)
{
    size_t k = strlen(key);
    if (!next_line(l) || strncmp(l->line, key, k) != 0 || l->line[k] != ' ')
        return false;
    return hex ? hex16(l->line + k + 1, out) : number(l->line + k + 1, max, out);
}

int ravel__checkpoint_parse(const char *text, size_t len,
                            struct ravel__checkpoint *out, char *err,
                            size_t errlen)
{
    memset(out, 0, sizeof *out);
    struct lines l = {text, text + len, 0, ""};
    uint64_t v, w;
    const char *what = "the first line is not 'ravel checkpoint 1'";
    if (!next_line(&l) || strcmp(l.line, "ravel checkpoint 1") != 0)
        goto bad;
    what = "no 'search HASH' line";
    if (!keyed(&l, "search", true, 0, &out->search))
        goto bad;
    what = "no 'program HASH' line";
    if (!keyed(&l, "program", true, 0, &out->program))
        goto bad;
    what = "no 'shard I N' line";
    if (!next_line(&l) || strncmp(l.line, "shard ", 6) != 0)
        goto bad;
    {
        char *sp = strchr(l.line + 6, ' ');
        if (!sp)
            goto bad;
        *sp = 0;
        if (!number(l.line + 6, 65536, &v) || !number(sp + 1, 65536, &w) ||
            v == 0 || v > w)
            goto bad;
        out->shard = (uint32_t)v;
        out->shards = (uint32_t)w;
    }
    what = "no 'units N' line";
    if (!keyed(&l, "units", false, 1u << 24, &v))
        goto bad;
    out->units = (uint32_t)v;
    what = "no 'executions N' line";
    if (!keyed(&l, "executions", false, UINT64_MAX, &out->executions))
        goto bad;
    what = "no 'done N' line";
    if (!keyed(&l, "done", false, out->units, &v))
        goto bad;
    out->ndone = (uint32_t)v;
    out->done = malloc((out->ndone + 1) * sizeof *out->done);
    RAVEL__CHECK(out->done != NULL);
    for (uint32_t i = 0; i < out->ndone; i++) {
        what = "a done unit that is not a number below 'units'";
        if (!next_line(&l) || !number(l.line, UINT32_MAX, &v) ||
            v >= out->units)
            goto bad;
        out->done[i] = (uint32_t)v;
    }
    what = "no 'fingerprints' line";
    if (!next_line(&l) || strcmp(l.line, "fingerprints") != 0)
        goto bad;
    size_t cap = 1024;
    out->fps = malloc(cap * sizeof *out->fps);
    RAVEL__CHECK(out->fps != NULL);
    for (;;) {
        what = "cut short (no 'end' line)";
        if (!next_line(&l))
            goto bad;
        if (!strcmp(l.line, "end"))
            break;
        what = "a fingerprint that is not 16 hexadecimal digits";
        if (!hex16(l.line, &v))
            goto bad;
        if (out->nfps == cap) {
            cap *= 2;
            uint64_t *g = realloc(out->fps, cap * sizeof *out->fps);
            RAVEL__CHECK(g != NULL);
            out->fps = g;
        }
        out->fps[out->nfps++] = v;
    }
    what = "text after the 'end' line";
    if (l.p != l.end)
        goto bad;
    return 0;
bad:
    snprintf(err, errlen, "line %u: %s", l.no + 1, what);
    ravel__checkpoint_free(out);
    return -1;
}

int ravel__checkpoint_write(const char *path, struct ravel__tree *t,
                            uint64_t search, uint64_t program,
                            uint32_t shard, uint32_t shards,
                            uint64_t executions)
{
    char tmp[4096];
    if (snprintf(tmp, sizeof tmp, "%s.tmp", path) >= (int)sizeof tmp) {
        errno = ENAMETOOLONG;
        return -1;
    }
    int fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
    if (fd < 0)
        return -1;
    /* The units' flags first (acquire), then the set: see above. */
    uint32_t units = t->unit_phase == RAVEL__UNITS_RUN ? t->nunits : 0;
    uint32_t *done = malloc((units + 1) * sizeof *done);
    RAVEL__CHECK(done != NULL);
    uint32_t ndone = 0;
    for (uint32_t i = 0; i < units; i++)
        if (atomic_load_explicit(&ravel__tree_unit(t, i)->done,
                                 memory_order_acquire))
            done[ndone++] = i;
    FILE *f = fdopen(fd, "w");
    if (!f) {
        int e = errno;
        close(fd);
        free(done);
        errno = e;
        return -1;
    }
    fprintf(f,
            "ravel checkpoint 1\nsearch %016" PRIx64 "\nprogram %016" PRIx64
            "\nshard %u %u\nunits %u\nexecutions %" PRIu64 "\ndone %u\n",
            search, program, shard, shards, units, executions, ndone);
    for (uint32_t i = 0; i < ndone; i++)
        fprintf(f, "%u\n", done[i]);
    free(done);
    fputs("fingerprints\n", f);
    bool ok = fflush(f) == 0 && ravel__tree_fp_write(t, fileno(f)) == 0;
    ok = fputs("end\n", f) >= 0 && ok;
    ok = fflush(f) == 0 && ok;
    ok = fsync(fileno(f)) == 0 && ok;
    int e = errno;
    ok = fclose(f) == 0 && ok;
    if (!ok) {
        unlink(tmp);
        errno = e ? e : EIO;
        return -1;
    }
    return rename(tmp, path);
}
