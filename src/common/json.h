/*
 * json.h - writing JSON into a strbuf.
 *
 * Only writing: ravel emits one summary object per run (--json) and never
 * needs to read JSON back in the core. Strings are escaped per RFC 8259;
 * bytes that are not valid UTF-8 are replaced by U+FFFD so the output is
 * always valid JSON whatever the program printed.
 */
#ifndef RAVEL_JSON_H
#define RAVEL_JSON_H

#include "strbuf.h"

/* Appends s as a quoted, escaped JSON string. */
void ravel__json_str(struct ravel__strbuf *sb, const char *s);
/* Appends "key": (with a preceding comma unless *first; clears *first). */
void ravel__json_key(struct ravel__strbuf *sb, bool *first, const char *key);

#endif
