/*
 * fuzz_lin_json.c - libFuzzer harness for the json history reader (and,
 * through it, the checker and the explanations; see fuzz_lin.h).
 */
#include "fuzz_lin.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    return fuzz_lin_one(data, size, RAVEL__LIN_FMT_JSON);
}
