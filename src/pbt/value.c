/*
 * value.c - typed results of property tests (docs/pbt.md, "Typed
 * results").
 *
 * A command's results were a long: a pointer printed as a raw number,
 * a string or struct had to be packed by hand. A ravel_value carries its
 * kind (integer, pointer, string, bytes, a user type with its own
 * equality and printer) so that the judge compares results as the user
 * means them and reports print them as the user would write them. The
 * constructors below are the public ravel_int, ravel_str ...; the
 * stored copies of real results live in the run's record (pbt.c), and
 * this file only compares and prints values.
 */
#include "pbt.h"

#include "../rt/rt.h"

#include <stdio.h>
#include <string.h>

RAVEL__EXPORT ravel_value ravel_int(long v)
{
    ravel_value r = {.kind = RAVEL_INT, .i = v};
    return r;
}

RAVEL__EXPORT ravel_value ravel_ptr(const void *p)
{
    ravel_value r = {.kind = RAVEL_PTR, .p = p};
    return r;
}

RAVEL__EXPORT ravel_value ravel_str(const char *s)
{
    ravel_value r = {.kind = RAVEL_STR, .p = s, .len = s ? strlen(s) : 0};
    return r;
}

RAVEL__EXPORT ravel_value ravel_bytes(const void *p, size_t len)
{
    ravel_value r = {.kind = RAVEL_BYTES, .p = p, .len = p ? len : 0};
    return r;
}

RAVEL__EXPORT ravel_value ravel_user(const struct ravel_type *t, const void *v)
{
    ravel_value r = {.kind = RAVEL_USER, .p = v, .type = t,
                     .len = t && v ? t->size : 0};
    return r;
}

RAVEL__EXPORT ravel_value ravel_ref(ravel_var var)
{
    ravel_value r = {.kind = RAVEL_INT, .ref = var};
    return r;
}

static bool is_zero(const ravel_value *v)
{
    return v->kind == RAVEL_INT ? v->i == 0 : v->p == NULL;
}

bool ravel__pbt_value_equal(const ravel_value *a, const ravel_value *b)
{
    if (a->kind != b->kind) {
        /* A long-returning next's 0 (or a NULL of any kind) matches a
         * NULL result of any kind; nothing else crosses kinds. */
        return (a->kind == RAVEL_INT || b->kind == RAVEL_INT ||
                a->kind == RAVEL_PTR || b->kind == RAVEL_PTR) &&
               is_zero(a) && is_zero(b);
    }
    switch (a->kind) {
    case RAVEL_INT:
        return a->i == b->i;
    case RAVEL_PTR:
        return a->p == b->p;
    case RAVEL_STR:
    case RAVEL_BYTES:
        if (!a->p || !b->p)
            return a->p == b->p;
        return a->len == b->len && !memcmp(a->p, b->p, a->len);
    case RAVEL_USER:
        if (!a->p || !b->p)
            return a->p == b->p;
        if (a->type && a->type->equal)
            return a->type->equal(a->p, b->p) != 0;
        return a->len == b->len && !memcmp(a->p, b->p, a->len);
    }
    return false;
}

static void put_hex(struct ravel__strbuf *sb, const unsigned char *p,
                    size_t n)
{
    size_t shown = n > 64 ? 64 : n;
    ravel__sb_add(sb, "0x");
    for (size_t i = 0; i < shown; i++)
        ravel__sb_printf(sb, "%02x", p[i]);
    if (shown < n)
        ravel__sb_printf(sb, "... (%zu bytes)", n);
}

/* A C string literal: quotes, escapes, at most 200 characters shown. */
static void put_quoted(struct ravel__strbuf *sb, const char *s, size_t n)
{
    size_t shown = n > 200 ? 200 : n;
    ravel__sb_addc(sb, '"');
    for (size_t i = 0; i < shown; i++) {
        unsigned char c = (unsigned char)s[i];
        switch (c) {
        case '"':
            ravel__sb_add(sb, "\\\"");
            break;
        case '\\':
            ravel__sb_add(sb, "\\\\");
            break;
        case '\n':
            ravel__sb_add(sb, "\\n");
            break;
        case '\t':
            ravel__sb_add(sb, "\\t");
            break;
        default:
            if (c < 0x20 || c >= 0x7f)
                ravel__sb_printf(sb, "\\x%02x", c);
            else
                ravel__sb_addc(sb, (char)c);
        }
    }
    ravel__sb_addc(sb, '"');
    if (shown < n)
        ravel__sb_printf(sb, "... (%zu characters)", n);
}

void ravel__pbt_value_print(struct ravel__strbuf *sb, const ravel_value *v,
                            const char *ptr_name)
{
    if (v->ref) {
        ravel__sb_printf(sb, "$%u", v->ref);
        return;
    }
    switch (v->kind) {
    case RAVEL_INT:
        ravel__sb_printf(sb, "%ld", v->i);
        return;
    case RAVEL_PTR:
        if (!v->p)
            ravel__sb_add(sb, "NULL");
        else if (ptr_name)
            ravel__sb_add(sb, ptr_name);
        else
            ravel__sb_printf(sb, "%p", v->p);
        return;
    case RAVEL_STR:
        if (!v->p)
            ravel__sb_add(sb, "NULL");
        else
            put_quoted(sb, v->p, v->len);
        return;
    case RAVEL_BYTES:
        if (!v->p)
            ravel__sb_add(sb, "NULL");
        else
            put_hex(sb, v->p, v->len);
        return;
    case RAVEL_USER:
        if (!v->p) {
            ravel__sb_add(sb, "NULL");
        } else if (v->type && v->type->print) {
            char buf[256] = "";
            v->type->print(buf, sizeof buf, v->p);
            ravel__sb_add(sb, buf);
        } else {
            put_hex(sb, v->p, v->len);
        }
        return;
    }
}
