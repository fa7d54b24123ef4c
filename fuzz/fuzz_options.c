/*
 * fuzz_options.c - RAVEL_OPTIONS text on arbitrary bytes; accepted option
 * sets must serialize and parse back to the same serialization.
 */
#include "../src/common/options.h"

#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size);
int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size)
{
    char *text = malloc(size + 1);
    if (!text)
        return 0;
    memcpy(text, data, size);
    text[size] = 0;
    struct ravel__options o, p;
    char err[256];
    ravel__options_defaults(&o);
    if (ravel__options_parse(&o, text, err, sizeof err) == 0) {
        (void)ravel__options_validate(&o, err, sizeof err);
        struct ravel__strbuf a = RAVEL__STRBUF_INIT, b = RAVEL__STRBUF_INIT;
        ravel__options_serialize(&o, &a);
        ravel__options_defaults(&p);
        if (ravel__options_parse(&p, ravel__sb_str(&a), err, sizeof err) != 0)
            abort();
        ravel__options_serialize(&p, &b);
        if (strcmp(ravel__sb_str(&a), ravel__sb_str(&b)) != 0)
            abort();
        ravel__options_free(&p);
        ravel__sb_free(&a);
        ravel__sb_free(&b);
    }
    ravel__options_free(&o);
    free(text);
    return 0;
}
