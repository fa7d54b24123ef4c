/*
 * checkpoint.h - saving and resuming a systematic search (--checkpoint,
 * --resume; docs/scale-out.md).
 *
 * A search in work units (systematic.c) can stop anywhere (a preempted
 * node, a CI time limit, SIGTERM) and go on later: the units are made
 * the same way every time, and each is explored on its own, so what must
 * be kept is which units are done and which traces were found. A unit
 * that was being explored when the search stopped is redone from its
 * start; the traces it had found are in the set already, and finding
 * them again changes nothing (traces are counted by fingerprint).
 *
 * The file is text:
 *
 *     ravel checkpoint 1
 *     search 1f2e...          hash of the search (program, arguments,
 *     program 9a0b...         options, the fingerprints' version:
 *                             ravel__search_json) and of the program's
 *                             bytes
 *     shard 2 4               (1 1 when not sharded)
 *     units 256               units made (0: still splitting)
 *     executions 123456
 *     done 3                  then that many unit numbers, one a line
 *     17
 *     ...
 *     fingerprints            then one 16-digit fingerprint a line
 *     0000384b33e9ad9c
 *     ...
 *     end
 *
 * It is written to FILE.tmp and renamed over FILE, so a reader never
 * sees half of one; a file without its "end" line is refused.
 */
#ifndef RAVEL_CHECKPOINT_H
#define RAVEL_CHECKPOINT_H

#include "tree.h"

struct ravel__checkpoint {
    uint64_t search, program; /* hashes */
    uint32_t shard, shards;   /* shard is 1-based */
    uint32_t units;
    uint64_t executions;
    uint32_t *done; /* owned */
    uint32_t ndone;
    uint64_t *fps; /* owned */
    size_t nfps;
};

/*
 * Parses a checkpoint file's text. Returns 0, or -1 with a one-line
 * reason in err (*out then holds nothing). Free with
 * ravel__checkpoint_free. Untrusted input: fuzzed by
 * fuzz/fuzz_checkpoint.c.
 */
int ravel__checkpoint_parse(const char *text, size_t len,
                            struct ravel__checkpoint *out, char *err,
                            size_t errlen);
void ravel__checkpoint_free(struct ravel__checkpoint *c);

/*
 * Writes a checkpoint of the search in tree t to `path` (through
 * path.tmp and a rename). Reads the units' `done` flags before the
 * fingerprint set, so a unit recorded done has all its traces in the
 * file; safe while the executor goes on exploring. Returns 0, or -1
 * with errno set. Not a scheduling point (the supervisor calls it).
 */
int ravel__checkpoint_write(const char *path, struct ravel__tree *t,
                            uint64_t search, uint64_t program,
                            uint32_t shard, uint32_t shards,
                            uint64_t executions);

#endif
