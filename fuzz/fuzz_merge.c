/*
 * fuzz_merge.c - the readers of ravel merge (src/report/shards.c) on
 * arbitrary bytes: a shard's --json summary and a fingerprints file. The
 * first byte chooses the reader. Whatever they accept must keep the
 * promises merge relies on: a shard index within 1..N, the search text
 * present, every string of every finding there, and fingerprints that
 * sort and deduplicate to no more than were read.
 */
#include "../src/report/shards.h"

#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size);
int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size)
{
    if (size == 0)
        return 0;
    const char *text = (const char *)data + 1;
    size_t len = size - 1;
    char err[512];
    if (data[0] & 1) {
        uint64_t *fps;
        size_t n;
        if (ravel__fingerprints_parse(text, len, &fps, &n, err, sizeof err) !=
            0)
            return 0;
        if (n > len / 17 + 1)
            abort();
        size_t k = ravel__fingerprints_unique(fps, n);
        if (k > n)
            abort();
        for (size_t i = 1; i < k; i++)
            if (fps[i - 1] >= fps[i])
                abort();
        (void)ravel__fingerprints_digest(fps, k);
        free(fps);
        return 0;
    }
    struct ravel__shard_summary s;
    if (ravel__shard_summary_parse(text, len, &s, err, sizeof err) != 0) {
        if (!memchr(err, 0, sizeof err) || !err[0])
            abort(); /* a refusal always says why */
        return 0;
    }
    if (!s.search || !s.program || !s.result || !s.guarantee ||
        s.index == 0 || s.index > s.count)
        abort();
    for (uint32_t i = 0; i < s.nbugs; i++)
        if (!s.bugs[i].kind || !s.bugs[i].message || !s.bugs[i].location ||
            !s.bugs[i].function || !s.bugs[i].ticket)
            abort();
    ravel__shard_summary_free(&s);
    return 0;
}
