/*
 * elf.c - minimal, bounds-checked ELF64 reader (see elf.h).
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include "elf.h"

#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

/* Is [off, off+size) inside the image? (overflow-safe) */
static bool in_image(const struct ravel__elf *e, uint64_t off, uint64_t size)
{
    return off <= e->len && size <= e->len - off;
}

/* A NUL-terminated string at strtab[off] lying inside the section. */
static const char *str_at(const struct ravel__elf *e, const Elf64_Shdr *strtab,
                          uint64_t off)
{
    if (off >= strtab->sh_size)
        return NULL;
    const char *base = (const char *)e->image + strtab->sh_offset;
    if (!memchr(base + off, 0, strtab->sh_size - off))
        return NULL;
    return base + off;
}

static int cmp_sym(const void *a, const void *b)
{
    const struct ravel__elf_sym *x = a, *y = b;
    if (x->value != y->value)
        return x->value < y->value ? -1 : 1;
    if (x->size != y->size)
        return x->size > y->size ? -1 : 1;
    return 0;
}

static int load_symbols(struct ravel__elf *e, const Elf64_Shdr *sh,
                        uint16_t shnum, uint32_t want_type)
{
    for (uint16_t i = 0; i < shnum; i++) {
        if (sh[i].sh_type != want_type)
            continue;
        if (sh[i].sh_entsize != sizeof(Elf64_Sym) || sh[i].sh_link >= shnum)
            continue;
        const Elf64_Shdr *strtab = &sh[sh[i].sh_link];
        if (!in_image(e, sh[i].sh_offset, sh[i].sh_size) ||
            !in_image(e, strtab->sh_offset, strtab->sh_size) ||
            (sh[i].sh_offset % 8) != 0)
            continue;
        size_t n = sh[i].sh_size / sizeof(Elf64_Sym);
        const Elf64_Sym *sym =
            (const Elf64_Sym *)(const void *)(e->image + sh[i].sh_offset);
        struct ravel__elf_sym *out = realloc(e->syms, (e->nsyms + n + 1) *
                                                          sizeof *out);
        if (!out)
            return -1;
        e->syms = out;
        for (size_t k = 0; k < n; k++) {
            unsigned type = ELF64_ST_TYPE(sym[k].st_info);
            if (type != STT_OBJECT && type != STT_FUNC)
                continue;
            if (sym[k].st_shndx == SHN_UNDEF || sym[k].st_value == 0)
                continue;
            const char *name = str_at(e, strtab, sym[k].st_name);
            if (!name || !*name)
                continue;
            e->syms[e->nsyms++] = (struct ravel__elf_sym){
                sym[k].st_value, sym[k].st_size, name, type == STT_FUNC};
        }
        return 1;
    }
    return 0;
}

static int load_imports(struct ravel__elf *e, const Elf64_Shdr *sh,
                        uint16_t shnum)
{
    for (uint16_t i = 0; i < shnum; i++) {
        if (sh[i].sh_type != SHT_DYNSYM || sh[i].sh_link >= shnum ||
            sh[i].sh_entsize != sizeof(Elf64_Sym))
            continue;
        const Elf64_Shdr *strtab = &sh[sh[i].sh_link];
        if (!in_image(e, sh[i].sh_offset, sh[i].sh_size) ||
            !in_image(e, strtab->sh_offset, strtab->sh_size) ||
            (sh[i].sh_offset % 8) != 0)
            return 0;
        size_t n = sh[i].sh_size / sizeof(Elf64_Sym);
        const Elf64_Sym *sym =
            (const Elf64_Sym *)(const void *)(e->image + sh[i].sh_offset);
        for (size_t k = 0; k < n; k++) {
            if (sym[k].st_shndx != SHN_UNDEF)
                continue;
            const char *name = str_at(e, strtab, sym[k].st_name);
            if (!name || !*name)
                continue;
            const char **ni =
                realloc(e->imports, (e->nimports + 1) * sizeof *ni);
            if (!ni)
                return -1;
            e->imports = ni;
            e->imports[e->nimports++] = name;
        }
        return 0;
    }
    return 0;
}

static int load_needed(struct ravel__elf *e, const Elf64_Shdr *sh,
                       uint16_t shnum)
{
    for (uint16_t i = 0; i < shnum; i++) {
        if (sh[i].sh_type != SHT_DYNAMIC || sh[i].sh_link >= shnum)
            continue;
        const Elf64_Shdr *strtab = &sh[sh[i].sh_link];
        if (!in_image(e, sh[i].sh_offset, sh[i].sh_size) ||
            !in_image(e, strtab->sh_offset, strtab->sh_size) ||
            (sh[i].sh_offset % 8) != 0)
            return 0;
        size_t n = sh[i].sh_size / sizeof(Elf64_Dyn);
        const Elf64_Dyn *dyn =
            (const Elf64_Dyn *)(const void *)(e->image + sh[i].sh_offset);
        for (size_t k = 0; k < n && dyn[k].d_tag != DT_NULL; k++) {
            if (dyn[k].d_tag != DT_NEEDED)
                continue;
            const char *name = str_at(e, strtab, dyn[k].d_un.d_val);
            if (!name)
                continue;
            const char **nn =
                realloc(e->needed, (e->nneeded + 1) * sizeof *nn);
            if (!nn)
                return -1;
            e->needed = nn;
            e->needed[e->nneeded++] = name;
        }
        return 0;
    }
    return 0;
}

int ravel__elf_parse(const void *buf, size_t len, struct ravel__elf *e,
                     char *err, size_t errlen)
{
    memset(e, 0, sizeof *e);
    e->image = buf;
    e->len = len;
    const Elf64_Ehdr *eh = buf;
    if (len < sizeof *eh || memcmp(eh->e_ident, ELFMAG, SELFMAG) != 0) {
        snprintf(err, errlen, "not an ELF file");
        return -1;
    }
    if (eh->e_ident[EI_CLASS] != ELFCLASS64 ||
        eh->e_ident[EI_DATA] != ELFDATA2LSB) {
        snprintf(err, errlen, "not a 64-bit little-endian ELF file");
        return -1;
    }
    e->type = eh->e_type;
    if (eh->e_shoff == 0 || eh->e_shnum == 0)
        return 0; /* stripped of section headers: nothing to read */
    if (eh->e_shentsize != sizeof(Elf64_Shdr) ||
        !in_image(e, eh->e_shoff, (uint64_t)eh->e_shnum * sizeof(Elf64_Shdr)) ||
        (eh->e_shoff % 8) != 0) {
        snprintf(err, errlen, "corrupt ELF section table");
        return -1;
    }
    const Elf64_Shdr *sh = (const Elf64_Shdr *)(const void *)(
        (const unsigned char *)buf + eh->e_shoff);
    int rc = load_symbols(e, sh, eh->e_shnum, SHT_SYMTAB);
    if (rc == 0)
        rc = load_symbols(e, sh, eh->e_shnum, SHT_DYNSYM);
    if (rc < 0 || load_needed(e, sh, eh->e_shnum) < 0 ||
        load_imports(e, sh, eh->e_shnum) < 0) {
        snprintf(err, errlen, "out of memory reading ELF file");
        ravel__elf_close(e);
        return -1;
    }
    return 0;
}

int ravel__elf_open(const char *path, struct ravel__elf *e, char *err,
                    size_t errlen)
{
    memset(e, 0, sizeof *e);
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) {
        snprintf(err, errlen, "%s: %s", path, strerror(errno));
        return -1;
    }
    struct stat st;
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) || st.st_size <= 0) {
        close(fd);
        snprintf(err, errlen, "%s: not a regular file", path);
        return -1;
    }
    void *map = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
    close(fd);
    if (map == MAP_FAILED) {
        snprintf(err, errlen, "%s: %s", path, strerror(errno));
        return -1;
    }
    char perr[160];
    if (ravel__elf_parse(map, (size_t)st.st_size, e, perr, sizeof perr)) {
        munmap(map, (size_t)st.st_size);
        snprintf(err, errlen, "%s: %s", path, perr);
        return -1;
    }
    e->mapped = true;
    return 0;
}

void ravel__elf_close(struct ravel__elf *e)
{
    if (e->mapped)
        munmap((void *)e->image, e->len);
    free(e->syms);
    free(e->needed);
    free(e->imports);
    memset(e, 0, sizeof *e);
}

const struct ravel__elf_sym *ravel__elf_lookup(struct ravel__elf *e,
                                               uint64_t addr, bool func)
{
    if (!e->sorted) {
        if (e->nsyms)
            qsort(e->syms, e->nsyms, sizeof *e->syms, cmp_sym);
        e->sorted = true;
    }
    /* Last symbol with value <= addr, then walk back over overlapping
     * ones (at most a few) to find one that contains addr. */
    size_t lo = 0, hi = e->nsyms;
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        if (e->syms[mid].value <= addr)
            lo = mid + 1;
        else
            hi = mid;
    }
    for (size_t i = lo, tries = 0; i > 0 && tries < 16; i--, tries++) {
        const struct ravel__elf_sym *s = &e->syms[i - 1];
        if (s->is_func != func)
            continue;
        if (addr < s->value + (s->size ? s->size : 1))
            return s;
    }
    return NULL;
}

bool ravel__elf_imports(const struct ravel__elf *e, const char *name)
{
    for (size_t i = 0; i < e->nimports; i++)
        if (!strcmp(e->imports[i], name))
            return true;
    return false;
}

bool ravel__elf_needs(const struct ravel__elf *e, const char *prefix)
{
    size_t n = strlen(prefix);
    for (size_t i = 0; i < e->nneeded; i++)
        if (!strncmp(e->needed[i], prefix, n))
            return true;
    return false;
}
