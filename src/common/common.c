/*
 * common.c - small helpers with no better home: invariant failures, time,
 * strict number parsing, whole-file reads.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include "common.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

void (*ravel__bug_context)(int fd);

void ravel__bug(const char *file, int line, const char *what)
{
    char buf[512];
    int n = snprintf(buf, sizeof buf,
                     "ravel: internal error: %s:%d: check failed: %s\n"
                     "ravel: this is a bug in ravel " RAVEL__VERSION
                     ", not in your program; please report it with the "
                     "lines below.\n",
                     file, line, what);
    if (n > 0)
        ravel__write_all(2, buf, (size_t)n < sizeof buf ? (size_t)n
                                                         : sizeof buf - 1);
    if (ravel__bug_context)
        ravel__bug_context(2);
    abort();
}

double ravel__now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

int ravel__parse_u64(const char *s, uint64_t *out)
{
    if (!s || !*s || *s == '-' || *s == '+')
        return -1;
    for (const char *p = s; *p; p++)
        if (*p < '0' || *p > '9')
            return -1;
    errno = 0;
    char *end;
    unsigned long long v = strtoull(s, &end, 10);
    if (errno || *end)
        return -1;
    *out = v;
    return 0;
}

int ravel__parse_double(const char *s, double *out)
{
    if (!s || !*s)
        return -1;
    errno = 0;
    char *end;
    double v = strtod(s, &end);
    if (errno || *end || v != v || v < 0 || v > 1e12)
        return -1;
    *out = v;
    return 0;
}

char *ravel__read_file(const char *path, size_t limit, size_t *len_out)
{
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return NULL;
    struct stat st;
    if (fstat(fd, &st) != 0) {
        int e = errno;
        close(fd);
        errno = e;
        return NULL;
    }
    if (S_ISDIR(st.st_mode)) {
        close(fd);
        errno = EISDIR;
        return NULL;
    }
    size_t cap = 4096, len = 0;
    char *buf = malloc(cap + 1);
    if (!buf) {
        close(fd);
        errno = ENOMEM;
        return NULL;
    }
    for (;;) {
        if (len == cap) {
            if (cap >= limit) {
                free(buf);
                close(fd);
                errno = EFBIG;
                return NULL;
            }
            cap = cap * 2 > limit ? limit : cap * 2;
            char *nb = realloc(buf, cap + 1);
            if (!nb) {
                free(buf);
                close(fd);
                errno = ENOMEM;
                return NULL;
            }
            buf = nb;
        }
        ssize_t n = read(fd, buf + len, cap - len);
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0) {
            int e = errno;
            free(buf);
            close(fd);
            errno = e;
            return NULL;
        }
        if (n == 0)
            break;
        len += (size_t)n;
    }
    close(fd);
    buf[len] = 0;
    if (len_out)
        *len_out = len;
    return buf;
}

int ravel__write_all(int fd, const void *buf, size_t len)
{
    const char *p = buf;
    while (len) {
        ssize_t n = write(fd, p, len);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            return -1;
        p += n;
        len -= (size_t)n;
    }
    return 0;
}
