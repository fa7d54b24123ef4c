/*
 * jsonr_test.c - unit tests of the JSON reader: values, escapes, limits
 * and the position of errors.
 */
#include "../common/jsonr.h"

#include "../../tests/check.h"

static int parse(const char *s, struct ravel__jv *v, char *err)
{
    return ravel__jv_parse(s, strlen(s), v, err, 200);
}

CHECK_TEST(reads_nested_values)
{
    struct ravel__jv v;
    char err[200];
    CHECK_EQ(parse(" [ {\"a\": 1.5e2, \"b\": [true, false, null], \"a\": \"x\"}, -0 ] ", &v, err), 0);
    CHECK_EQ(v.type, RAVEL__JV_ARR);
    CHECK_EQ(v.len, 2);
    const struct ravel__jv *o = &v.items[0];
    CHECK_EQ(o->type, RAVEL__JV_OBJ);
    /* A repeated key: the last one counts. */
    CHECK_STR(ravel__jv_get(o, "a")->str, "x");
    CHECK_EQ(ravel__jv_get(o, "b")->len, 3);
    CHECK(ravel__jv_get(o, "b")->items[0].b);
    CHECK_EQ(ravel__jv_get(o, "b")->items[2].type, RAVEL__JV_NULL);
    CHECK(ravel__jv_get(o, "c") == NULL);
    CHECK_EQ(v.items[1].type, RAVEL__JV_NUM);
    ravel__jv_free(&v);
    CHECK_EQ(parse("{\"n\": 150}", &v, err), 0);
    CHECK(ravel__jv_get(&v, "n")->num == 150.0);
    ravel__jv_free(&v);
}

CHECK_TEST(decodes_escapes)
{
    struct ravel__jv v;
    char err[200];
    CHECK_EQ(parse("\"a\\\"b\\\\c\\/d\\n\\u00e9\\ud83d\\ude00\"", &v, err), 0);
    CHECK_STR(v.str, "a\"b\\c/d\n\xc3\xa9\xf0\x9f\x98\x80");
    ravel__jv_free(&v);
    /* \u0000 is kept, with the length telling the truth. */
    CHECK_EQ(parse("\"a\\u0000b\"", &v, err), 0);
    CHECK_EQ(v.len, 3);
    ravel__jv_free(&v);
}

CHECK_TEST(reports_where_it_fails)
{
    struct ravel__jv v;
    char err[200];
    CHECK_EQ(parse("[1,\n 2,]", &v, err), -1);
    CHECK_STR(err, "line 2, column 4: unexpected character");
    CHECK_EQ(parse("[01]", &v, err), -1);
    CHECK(strstr(err, "leading zero") != NULL);
    CHECK_EQ(parse("\"abc", &v, err), -1);
    CHECK(strstr(err, "unterminated string") != NULL);
    CHECK_EQ(parse("\"\\ud800x\"", &v, err), -1);
    CHECK(strstr(err, "surrogate") != NULL);
    CHECK_EQ(parse("{\"a\" 1}", &v, err), -1);
    CHECK(strstr(err, "expected ':'") != NULL);
    CHECK_EQ(parse("[] []", &v, err), -1);
    CHECK(strstr(err, "text after") != NULL);
    CHECK_EQ(parse("", &v, err), -1);
    CHECK_EQ(parse("[\"\x01\"]", &v, err), -1);
    CHECK(strstr(err, "control character") != NULL);
}

CHECK_TEST(bounds_the_depth)
{
    char deep[2 * RAVEL__JSONR_DEPTH + 8];
    struct ravel__jv v;
    char err[200];
    size_t n = 0;
    for (int i = 0; i < RAVEL__JSONR_DEPTH; i++)
        deep[n++] = '[';
    for (int i = 0; i < RAVEL__JSONR_DEPTH; i++)
        deep[n++] = ']';
    deep[n] = 0;
    CHECK_EQ(parse(deep, &v, err), 0);
    ravel__jv_free(&v);
    memmove(deep + 1, deep, n + 1);
    deep[0] = '[';
    deep[n + 1] = ']';
    deep[n + 2] = 0;
    CHECK_EQ(parse(deep, &v, err), -1);
    CHECK(strstr(err, "nested too deeply") != NULL);
}

int main(void)
{
    return CHECK_RUN(reads_nested_values, decodes_escapes, reports_where_it_fails,
                     bounds_the_depth);
}
