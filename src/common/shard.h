/*
 * shard.h - which shard of a split search this process is (--shard).
 *
 * A systematic search can be split over machines that never talk to each
 * other (docs/scale-out.md). Each machine runs `ravel run --shard I/N`,
 * or lets the batch system it runs under say which one it is: Slurm job
 * arrays, Kubernetes Indexed Jobs and GNU parallel all put the task's
 * index in the environment, each in its own variable and each counting
 * from its own base. This file turns a --shard value into a 0-based
 * index and a count, reading those variables, and explains in one line
 * why when it cannot (the caller exits 2 with that line).
 */
#ifndef RAVEL_SHARD_H
#define RAVEL_SHARD_H

#include "common.h"

/* Shards allowed in one split search. */
#define RAVEL__SHARDS_MAX 65536u

/*
 * Resolves a --shard value into *index (0-based) and *count:
 *
 *   I/N          shard I (1-based) of N, as given
 *   auto[/N]     whichever of the three below the environment names
 *                (an error when none or more than one does)
 *   slurm[/N]    SLURM_ARRAY_TASK_ID counted from SLURM_ARRAY_TASK_MIN in
 *                steps of SLURM_ARRAY_TASK_STEP; N from
 *                SLURM_ARRAY_TASK_COUNT (a given /N must agree)
 *   k8s[/N]      JOB_COMPLETION_INDEX (0-based); N from /N or
 *                RAVEL_SHARD_COUNT
 *   parallel[/N] PARALLEL_SEQ (1-based, GNU parallel); N from /N or
 *                RAVEL_SHARD_COUNT
 *
 * Reads the environment (getenv); allocates nothing. `source`, when not
 * NULL, receives the name of what gave the index ("slurm", "k8s",
 * "parallel" or "I/N"). Returns 0, or -1 with a one-line message in err.
 * Not a scheduling point (called before the program runs).
 */
int ravel__shard_resolve(const char *spec, uint32_t *index, uint32_t *count,
                         const char **source, char *err, size_t errlen);

#endif
