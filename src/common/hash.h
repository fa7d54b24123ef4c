/*
 * hash.h - non-cryptographic hashing: program identity and hash tables.
 *
 * A replay ticket names the program it was recorded from by a 64-bit
 * FNV-1a hash of the executable's bytes. That detects "this ticket is for
 * another build" reliably; it is not meant to resist a deliberate attacker.
 */
#ifndef RAVEL_HASH_H
#define RAVEL_HASH_H

#include "common.h"

uint64_t ravel__fnv1a(const void *data, size_t len, uint64_t h);
#define RAVEL__FNV_INIT 0xcbf29ce484222325ULL

/* Hash of a file's contents; returns -1 (errno set) if it cannot be read. */
int ravel__hash_file(const char *path, uint64_t *out);

/* Mixes a pointer-sized key for open-addressing tables. */
static inline uint64_t ravel__hash_ptr(uint64_t x)
{
    x ^= x >> 33;
    x *= 0xff51afd7ed558ccdULL;
    x ^= x >> 33;
    x *= 0xc4ceb9fe1a85ec53ULL;
    x ^= x >> 33;
    return x;
}

#endif
