/*
 * fuzz_ticket.c - the ticket parser on arbitrary bytes. Anything it
 * accepts must format and parse back to the same text.
 */
#include "../src/explore/ticket.h"

#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size);
int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size)
{
    struct ravel__ticket t;
    char err[256];
    if (ravel__ticket_parse((const char *)data, size, &t, err, sizeof err) != 0)
        return 0;
    struct ravel__strbuf a = RAVEL__STRBUF_INIT, b = RAVEL__STRBUF_INIT;
    ravel__ticket_format(&t, &a);
    struct ravel__ticket u;
    if (ravel__ticket_parse(a.data, a.len, &u, err, sizeof err) != 0)
        abort(); /* we wrote something we cannot read */
    ravel__ticket_format(&u, &b);
    if (a.len != b.len || memcmp(a.data, b.data, a.len) != 0)
        abort();
    ravel__ticket_free(&t);
    ravel__ticket_free(&u);
    ravel__sb_free(&a);
    ravel__sb_free(&b);
    return 0;
}
