/*
 * elf.h - just enough ELF reading for reports and the command line.
 *
 * Two questions are asked of an executable: which shared libraries it
 * needs (to tell whether it was built with ravel: it needs
 * libravel_rt.so), and which global variable or function an address falls
 * in (to name `counter` rather than 0x5555...4010 in a trace). Only 64-bit
 * little-endian ELF is read. Every offset is bounds-checked: the file is
 * input and the reader is fuzzed (fuzz/fuzz_elf.c).
 */
#ifndef RAVEL_ELF_H
#define RAVEL_ELF_H

#include "../common/common.h"

struct ravel__elf_sym {
    uint64_t value;
    uint64_t size;
    const char *name; /* points into the file image */
    uint8_t is_func;
};

struct ravel__elf {
    const unsigned char *image; /* the whole file */
    size_t len;
    bool mapped; /* image is an mmap we must unmap */
    uint16_t type; /* ET_EXEC, ET_DYN ... */
    /* In file order until the first ravel__elf_lookup sorts them by
     * value: most opens (every module at start-up, to read its imports
     * or find a few functions by name) never look an address up, and the
     * sort was four fifths of a start-up's instructions. */
    struct ravel__elf_sym *syms;
    size_t nsyms;
    bool sorted;
    const char **needed; /* DT_NEEDED entries */
    size_t nneeded;
    const char **imports; /* undefined dynamic symbols */
    size_t nimports;
};

/* Parses an image in memory (not copied: it must outlive e). */
int ravel__elf_parse(const void *buf, size_t len, struct ravel__elf *e,
                     char *err, size_t errlen);
/* Maps and parses a file. */
int ravel__elf_open(const char *path, struct ravel__elf *e, char *err,
                    size_t errlen);
void ravel__elf_close(struct ravel__elf *e);

/* Symbol containing addr (an address relative to the file's own layout);
 * `func` selects functions, otherwise data objects. NULL if none. The
 * first call sorts e->syms. */
const struct ravel__elf_sym *ravel__elf_lookup(struct ravel__elf *e,
                                               uint64_t addr, bool func);
/* Does the file import (reference without defining) the dynamic symbol
 * `name`? */
bool ravel__elf_imports(const struct ravel__elf *e, const char *name);
/* Does the file need a library whose name starts with `prefix`? */
bool ravel__elf_needs(const struct ravel__elf *e, const char *prefix);

#endif
