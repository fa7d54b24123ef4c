/*
 * shard.c - resolving --shard from its value and the batch system's
 * environment (see shard.h).
 *
 * Each batch system names the task differently:
 *
 *   Slurm job arrays   SLURM_ARRAY_TASK_ID, an element of the --array
 *                      range MIN..MAX (step STEP), COUNT elements. Arrays
 *                      often start at 1, or anywhere: the index is counted
 *                      from SLURM_ARRAY_TASK_MIN, never assumed 0-based.
 *                      A list (--array=1,4,9) is not a range, and the
 *                      shard of each task could not be known from its id
 *                      alone: refused.
 *   Kubernetes         JOB_COMPLETION_INDEX, 0 .. completions-1. The Job
 *   Indexed Jobs       does not tell its pods how many completions it has:
 *                      the count comes from --shard k8s/N or from
 *                      RAVEL_SHARD_COUNT (set in the pod template).
 *   GNU parallel       PARALLEL_SEQ, the job's sequence number from 1;
 *                      the count, again, from /N or RAVEL_SHARD_COUNT.
 *
 * Getting this wrong silently would be the worst outcome: two tasks
 * running the same shard and one shard never run, with every summary
 * saying "exhausted" for its own part. So every variable is parsed
 * strictly and checked against the count, and anything odd is one clear
 * line for the caller to print before exiting 2 (ravel merge then also
 * refuses to claim completeness when a shard is missing).
 */
#include "shard.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Parses a whole decimal number of at most 10 digits; false otherwise. */
static bool parse_u32(const char *s, uint32_t *out)
{
    if (!s || !*s)
        return false;
    uint64_t v = 0;
    size_t n = 0;
    for (; s[n]; n++) {
        if (s[n] < '0' || s[n] > '9' || n >= 10)
            return false;
        v = v * 10 + (uint64_t)(s[n] - '0');
    }
    if (v > UINT32_MAX)
        return false;
    *out = (uint32_t)v;
    return true;
}

/* An environment variable as a number: 1 found, 0 unset, -1 malformed
 * (message in err). */
static int env_u32(const char *name, uint32_t *out, char *err, size_t errlen)
{
    const char *v = getenv(name);
    if (!v)
        return 0;
    if (!parse_u32(v, out)) {
        snprintf(err, errlen, "--shard: %s='%.40s' is not a number", name, v);
        return -1;
    }
    return 1;
}

/* The count for k8s and parallel: /N if given, else RAVEL_SHARD_COUNT. */
static int given_count(const char *who, const char *var, bool have_n,
                       uint32_t n, uint32_t *count, char *err, size_t errlen)
{
    if (have_n) {
        *count = n;
        return 0;
    }
    uint32_t c;
    int r = env_u32("RAVEL_SHARD_COUNT", &c, err, errlen);
    if (r < 0)
        return -1;
    if (r == 0) {
        snprintf(err, errlen,
                 "--shard %s: %s gives the index but not the number of "
                 "shards: use --shard %s/N or set RAVEL_SHARD_COUNT",
                 who, var, who);
        return -1;
    }
    *count = c;
    return 0;
}

static int from_slurm(bool have_n, uint32_t n, uint32_t *index,
                      uint32_t *count, char *err, size_t errlen)
{
    uint32_t id, min, max, step = 1, cnt;
    int r;
    if ((r = env_u32("SLURM_ARRAY_TASK_ID", &id, err, errlen)) <= 0) {
        if (r == 0)
            snprintf(err, errlen, "--shard slurm: SLURM_ARRAY_TASK_ID is "
                                  "not set (not a job array task? submit "
                                  "with sbatch --array)");
        return -1;
    }
    if ((r = env_u32("SLURM_ARRAY_TASK_MIN", &min, err, errlen)) <= 0 ||
        (r = env_u32("SLURM_ARRAY_TASK_MAX", &max, err, errlen)) <= 0 ||
        (r = env_u32("SLURM_ARRAY_TASK_COUNT", &cnt, err, errlen)) <= 0) {
        if (r == 0)
            snprintf(err, errlen,
                     "--shard slurm: SLURM_ARRAY_TASK_ID is set but not "
                     "SLURM_ARRAY_TASK_MIN, _MAX and _COUNT");
        return -1;
    }
    if ((r = env_u32("SLURM_ARRAY_TASK_STEP", &step, err, errlen)) < 0)
        return -1;
    if (step == 0 || cnt == 0 || max < min ||
        (uint64_t)min + (uint64_t)(cnt - 1) * step != max) {
        snprintf(err, errlen,
                 "--shard slurm: the job array is not one range (MIN %u, "
                 "MAX %u, STEP %u, COUNT %u): submit with --array=A-B[:S], "
                 "or give --shard I/N",
                 min, max, step, cnt);
        return -1;
    }
    if (id < min || id > max || (id - min) % step != 0) {
        snprintf(err, errlen,
                 "--shard slurm: SLURM_ARRAY_TASK_ID %u is not in the "
                 "array %u-%u:%u",
                 id, min, max, step);
        return -1;
    }
    if (have_n && n != cnt) {
        snprintf(err, errlen,
                 "--shard slurm/%u: the job array has %u tasks, not %u", n,
                 cnt, n);
        return -1;
    }
    *index = (id - min) / step;
    *count = cnt;
    return 0;
}

int ravel__shard_resolve(const char *spec, uint32_t *index, uint32_t *count,
                         const char **source, char *err, size_t errlen)
{
    static const char *const kinds[] = {"auto", "slurm", "k8s", "parallel"};
    const char *slash = strchr(spec, '/');
    size_t head = slash ? (size_t)(slash - spec) : strlen(spec);
    int kind = -1;
    for (int k = 0; k < 4; k++)
        if (strlen(kinds[k]) == head && !strncmp(spec, kinds[k], head))
            kind = k;
    uint32_t n = 0;
    bool have_n = slash != NULL;
    if (have_n && (!parse_u32(slash + 1, &n) || n == 0 ||
                   n > RAVEL__SHARDS_MAX)) {
        snprintf(err, errlen,
                 "--shard must be I/N, or auto, slurm, k8s or parallel "
                 "(optionally /N), with 1 <= N <= %u (got '%.60s')",
                 RAVEL__SHARDS_MAX, spec);
        return -1;
    }
    if (kind < 0) {
        char ibuf[16];
        uint32_t i;
        if (!slash || head == 0 || head >= sizeof ibuf) {
            snprintf(err, errlen,
                     "--shard must be I/N, or auto, slurm, k8s or parallel "
                     "(optionally /N) (got '%.60s')",
                     spec);
            return -1;
        }
        memcpy(ibuf, spec, head);
        ibuf[head] = 0;
        if (!parse_u32(ibuf, &i) || i == 0 || i > n) {
            snprintf(err, errlen,
                     "--shard must be I/N with 1 <= I <= N (got '%.60s')",
                     spec);
            return -1;
        }
        *index = i - 1;
        *count = n;
        if (source)
            *source = "I/N";
        return 0;
    }
    if (kind == 0) {
        /* auto: exactly one batch system must say. */
        static const char *const vars[] = {"SLURM_ARRAY_TASK_ID",
                                           "JOB_COMPLETION_INDEX",
                                           "PARALLEL_SEQ"};
        int found = -1, nfound = 0;
        char names[128] = "";
        for (int k = 0; k < 3; k++)
            if (getenv(vars[k])) {
                found = k + 1;
                nfound++;
                size_t l = strlen(names);
                snprintf(names + l, sizeof names - l, "%s%s",
                         l ? " and " : "", vars[k]);
            }
        if (nfound == 0) {
            snprintf(err, errlen,
                     "--shard auto: none of SLURM_ARRAY_TASK_ID, "
                     "JOB_COMPLETION_INDEX (Kubernetes) or PARALLEL_SEQ (GNU "
                     "parallel) is set: give --shard I/N");
            return -1;
        }
        if (nfound > 1) {
            snprintf(err, errlen,
                     "--shard auto: %s are both set: say which with --shard "
                     "slurm, k8s or parallel",
                     names);
            return -1;
        }
        kind = found;
    }
    uint32_t i = 0, c = 0;
    int r;
    switch (kind) {
    case 1:
        if (from_slurm(have_n, n, &i, &c, err, errlen) != 0)
            return -1;
        break;
    case 2:
        if ((r = env_u32("JOB_COMPLETION_INDEX", &i, err, errlen)) <= 0) {
            if (r == 0)
                snprintf(err, errlen, "--shard k8s: JOB_COMPLETION_INDEX is "
                                      "not set (not a pod of an Indexed "
                                      "Job?)");
            return -1;
        }
        if (given_count("k8s", "JOB_COMPLETION_INDEX", have_n, n, &c, err,
                        errlen) != 0)
            return -1;
        break;
    default:
        if ((r = env_u32("PARALLEL_SEQ", &i, err, errlen)) <= 0) {
            if (r == 0)
                snprintf(err, errlen, "--shard parallel: PARALLEL_SEQ is not "
                                      "set (not run by GNU parallel?)");
            return -1;
        }
        if (i == 0) {
            snprintf(err, errlen, "--shard parallel: PARALLEL_SEQ is 0; GNU "
                                  "parallel counts jobs from 1");
            return -1;
        }
        i--;
        if (given_count("parallel", "PARALLEL_SEQ", have_n, n, &c, err,
                        errlen) != 0)
            return -1;
        break;
    }
    if (c == 0 || c > RAVEL__SHARDS_MAX) {
        snprintf(err, errlen, "--shard %s: %u shards (must be 1 to %u)",
                 kinds[kind], c, RAVEL__SHARDS_MAX);
        return -1;
    }
    if (i >= c) {
        snprintf(err, errlen,
                 "--shard %s: task index %u (0-based) but only %u shard%s: "
                 "the count and the number of tasks disagree",
                 kinds[kind], i, c, c == 1 ? "" : "s");
        return -1;
    }
    *index = i;
    *count = c;
    if (source)
        *source = kinds[kind];
    return 0;
}
