/*
 * shards.h - reading what the shards of a split search wrote, for ravel
 * merge (src/cli/merge.c, docs/scale-out.md).
 *
 * Each shard (`ravel run --shard I/N --json --fingerprints-file F`)
 * leaves a --json summary and the set of trace fingerprints it explored.
 * Both are files handed to ravel merge from wherever the batch system put
 * them, so they are untrusted input: parsed strictly (src/common/jsonr.h
 * for the summary), every field checked for its type, and a fingerprint
 * file checked against its summary's trace count and digest, so that a
 * truncated or mixed-up file is refused rather than merged into a claim
 * of completeness. The readers are fuzzed (fuzz/fuzz_merge.c).
 */
#ifndef RAVEL_SHARDS_H
#define RAVEL_SHARDS_H

#include "../common/common.h"

/* A finding of one shard (one element of the summary's "bugs"). */
struct ravel__shard_bug {
    char *kind, *message, *location, *function, *ticket; /* owned */
    char *threads;        /* owned; "" when the summary has none */
    uint64_t occurrences;
    uint64_t execution;   /* the shard's first execution in it (0: none) */
};

/* What merge needs from one shard's --json summary. Strings are owned. */
struct ravel__shard_summary {
    char *program;          /* "program" */
    char *search;           /* the "search" object, as compact JSON text:
                               two shards of one search have equal text */
    uint32_t index, count;  /* "shard": index is 1-based */
    char *result;           /* "clean", "bug" or "error" */
    char *error;            /* "error" when result is "error", else NULL */
    char *guarantee;
    bool complete, interrupted;
    uint64_t executions, traces;
    bool have_digest;
    uint64_t digest;        /* "trace_digest" */
    char *fingerprints_file; /* NULL: none written */
    struct ravel__shard_bug *bugs;
    uint32_t nbugs;
};

/*
 * Parses a --json summary of `ravel run --shard` from text[0..len).
 * Returns 0, or -1 with a one-line reason in err (*out then holds
 * nothing to free). A summary of a run without --shard is refused.
 * Free with ravel__shard_summary_free.
 */
int ravel__shard_summary_parse(const char *text, size_t len,
                               struct ravel__shard_summary *out, char *err,
                               size_t errlen);
void ravel__shard_summary_free(struct ravel__shard_summary *s);

/*
 * Parses a fingerprints file (one 16-digit hexadecimal number per line,
 * as --fingerprints-file writes) into a malloc'd array *out of *n
 * numbers (the caller frees it). Returns 0, or -1 with the line of the
 * first malformed entry in err.
 */
int ravel__fingerprints_parse(const char *text, size_t len, uint64_t **out,
                              size_t *n, char *err, size_t errlen);

/* The digest (trace_digest) of a set of distinct fingerprints. */
uint64_t ravel__fingerprints_digest(const uint64_t *fps, size_t n);

/* Sorts fps[0..n) and drops repeats; returns the number left. */
size_t ravel__fingerprints_unique(uint64_t *fps, size_t n);

#endif
