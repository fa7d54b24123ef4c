/*
 * fuzz_lint_pairs.c - pairs files and ravel-lint directives (read from
 * users' files and comments) on arbitrary bytes. Whatever parses must
 * leave a consistent table: every spec findable by its name, positions
 * in range, check and act specs in an existing family.
 */
#include "../src/lint/pairs.h"

#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size);
int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size)
{
    struct ravel__lint_specs s;
    ravel__lint_specs_init(&s, true);
    char err[512];
    err[0] = 0;
    if (ravel__lint_specs_parse(&s, (const char *)data, size, err, sizeof err) != 0 && !err[0])
        abort();
    for (uint32_t i = 0; i < s.n; i++) {
        const struct ravel__lint_spec *sp = &s.v[i];
        if (!ravel__lint_specs_find(&s, sp->name) || sp->nres > RAVEL__LINT_RES_MAX)
            abort();
        for (uint32_t k = 0; k < sp->nres; k++)
            if (sp->res[k] >= RAVEL__LINT_ARGPOS_MAX)
                abort();
        if ((sp->role == RAVEL__ROLE_CHECK || sp->role == RAVEL__ROLE_ACT) &&
            sp->family >= s.nfam)
            abort();
    }
    ravel__lint_specs_free(&s);
    return 0;
}
