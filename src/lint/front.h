/*
 * front.h - the front end: from compile commands to the program model.
 *
 * Each translation unit is compiled by clang into LLVM bitcode (the
 * command comes from cdb.c), read back with the LLVM C API, put into SSA
 * form by the mem2reg pass, and written down as ir.h functions, blocks,
 * events and access paths. Compiles run in parallel; reading is done in
 * database order so that ids, and so the output, never depend on which
 * compile finished first.
 *
 * This is the only part of ravel that links LLVM (docs/lint.md says why
 * bitcode and not libclang's AST).
 */
#ifndef RAVEL_LINT_FRONT_H
#define RAVEL_LINT_FRONT_H

#include "cdb.h"
#include "ir.h"
#include "pairs.h"
#include "source.h"

struct ravel__lint_front_opts {
    const char *clang; /* compiler producing bitcode */
    int jobs;          /* compiles at once */
    bool verbose;      /* print each compile command to stderr */
};

/* One failure, for the caller to print: "FILE: does not compile: ...". */
struct ravel__lint_front_error {
    char *msg; /* owned */
};

struct ravel__lint_front_result {
    struct ravel__lint_front_error *errors;
    uint32_t nerrors, caperrors;
    uint32_t units;        /* translation units analysed */
    double compile_s;      /* wall time of the compiles */
    double read_s;         /* wall time reading bitcode into the model */
};

/*
 * Compiles and reads every entry of db into prog, and reads the ravel-lint
 * directives of each unit's source and its non-system headers into specs.
 * Entries that fail (the compile fails, the bitcode cannot be read, a
 * directive is malformed) are skipped and described in res->errors.
 * Returns 0 when the machinery itself worked (even with failed entries),
 * -1 with a reason in err when it could not run at all (no temporary
 * directory). Free res with ravel__lint_front_result_free.
 */
int ravel__lint_front_run(const struct ravel__lint_front_opts *o,
                          const struct ravel__lint_cdb *db,
                          struct ravel__lint_prog *prog,
                          struct ravel__lint_specs *specs,
                          struct ravel__lint_sources *src,
                          struct ravel__lint_front_result *res, char *err,
                          size_t errlen);

void ravel__lint_front_result_free(struct ravel__lint_front_result *res);

/* The LLVM version ravel-lint was built with ("14.0.6"). */
const char *ravel__lint_llvm_version(void);

#endif
