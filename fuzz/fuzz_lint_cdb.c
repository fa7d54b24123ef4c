/*
 * fuzz_lint_cdb.c - compilation databases (compile_commands.json, which
 * ravel lint reads from anyone's build directory) on arbitrary bytes. A
 * database that parses must yield entries whose derived bitcode command
 * is well formed: the compiler first, NULL-terminated, and naming the
 * output.
 */
#include "../src/lint/cdb.h"

#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size);
int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size)
{
    struct ravel__lint_cdb db;
    char err[512];
    if (ravel__lint_cdb_parse((const char *)data, size, &db, err, sizeof err) == 0) {
        for (size_t i = 0; i < db.n; i++) {
            if (!db.v[i].file[0] || db.v[i].argc < 1)
                abort();
            char **argv = ravel__lint_cdb_argv(&db.v[i], "clang", "out.bc", "out.d");
            int n = 0;
            bool out = false;
            for (; argv[n]; n++)
                out |= !strcmp(argv[n], "out.bc");
            if (n < 3 || strcmp(argv[0], "clang") != 0 || !out)
                abort();
            ravel__lint_argv_free(argv);
        }
    } else if (!err[0]) {
        abort(); /* every failure says why */
    }
    ravel__lint_cdb_free(&db);
    return 0;
}
