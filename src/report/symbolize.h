/*
 * symbolize.h - turning addresses into names: `main counter.c:44` for
 * code, `counter` or `table+8` for data.
 *
 * Code addresses go through addr2line (binutils, present wherever gcc is),
 * run once per module per batch; data addresses through the module's ELF
 * symbol table. Addresses are resolved in the calling process's own
 * address space, which is why the supervisor can symbolize after the
 * executor died: it is a fork of the same program, taken before the
 * program's own code ran, so its modules sit at the same addresses.
 */
#ifndef RAVEL_SYMBOLIZE_H
#define RAVEL_SYMBOLIZE_H

#include "../common/common.h"

struct ravel__frame {
    uint64_t pc;
    char func[96];  /* "??" when unknown */
    char file[192]; /* as recorded in the debug info; "" when unknown */
    unsigned line;
    bool runtime; /* inside ravel's runtime (hidden from stacks) */
};

/*
 * Symbolizes n code addresses. A return address (exact == false) is looked
 * up at pc-1, so that it names the call rather than the next line.
 */
void ravel__symbolize(const uint64_t *pcs, const bool *exact, size_t n,
                      struct ravel__frame *out);
/* One address (cached). */
void ravel__symbolize1(uint64_t pc, bool exact, struct ravel__frame *out);

/* Names the global variable containing addr ("counter", "table+8");
 * returns false when the address is not in a known global. */
bool ravel__symbolize_data(uint64_t addr, char *buf, size_t len);

/* Names any address in a module: a global as above, or a function
 * ("worker"). */
bool ravel__symbolize_addr(uint64_t addr, char *buf, size_t len);

/* Path to show for a source file: relative to the current directory when
 * below it, otherwise as recorded. */
const char *ravel__display_path(const char *file);
/* Last component of a path. */
const char *ravel__basename(const char *path);

#endif
