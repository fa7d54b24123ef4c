/*
 * hash.c - FNV-1a and whole-file hashing (see hash.h).
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include "hash.h"

#include <errno.h>
#include <fcntl.h>
#include <unistd.h>

uint64_t ravel__fnv1a(const void *data, size_t len, uint64_t h)
{
    const unsigned char *p = data;
    for (size_t i = 0; i < len; i++) {
        h ^= p[i];
        h *= 0x100000001b3ULL;
    }
    return h;
}

int ravel__hash_file(const char *path, uint64_t *out)
{
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return -1;
    uint64_t h = RAVEL__FNV_INIT;
    unsigned char buf[65536];
    for (;;) {
        ssize_t n = read(fd, buf, sizeof buf);
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0) {
            int e = errno;
            close(fd);
            errno = e;
            return -1;
        }
        if (n == 0)
            break;
        h = ravel__fnv1a(buf, (size_t)n, h);
    }
    close(fd);
    *out = h;
    return 0;
}
