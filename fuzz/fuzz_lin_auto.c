/*
 * fuzz_lin_auto.c - libFuzzer harness for format detection: the input
 * is read as `ravel lin` reads a file by default, in the format its
 * first forms suggest (comments, lists, vectors, maps, JSON, log
 * lines), then checked as in the other reader harnesses (fuzz_lin.h).
 */
#include "fuzz_lin.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    return fuzz_lin_one(data, size, RAVEL__LIN_FMT_AUTO);
}
