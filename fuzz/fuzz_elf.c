/*
 * fuzz_elf.c - the ELF reader on arbitrary bytes (the programs ravel is
 * asked to run are input too).
 */
#include "../src/report/elf.h"

#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size);
int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size)
{
    /* The reader needs 8-byte alignment like a mapped file has. */
    void *buf = aligned_alloc(8, (size + 7) & ~(size_t)7);
    if (!buf)
        return 0;
    memcpy(buf, data, size);
    struct ravel__elf e;
    char err[256];
    if (ravel__elf_parse(buf, size, &e, err, sizeof err) == 0) {
        for (size_t i = 0; i < e.nsyms; i++)
            (void)ravel__elf_lookup(&e, e.syms[i].value, e.syms[i].is_func);
        (void)ravel__elf_lookup(&e, 0x1000, false);
        (void)ravel__elf_needs(&e, "libravel_rt.so");
        (void)ravel__elf_imports(&e, "__tsan_init");
        ravel__elf_close(&e);
    }
    free(buf);
    return 0;
}
