/*
 * common_test.c - number parsing, the PRNG, JSON escaping, string buffers.
 */
#include "common.h"
#include "json.h"
#include "prng.h"

#include "../../tests/check.h"

CHECK_TEST(parse_u64_is_strict)
{
    uint64_t v;
    CHECK_EQ(ravel__parse_u64("0", &v), 0);
    CHECK_EQ(ravel__parse_u64("18446744073709551615", &v), 0);
    CHECK(v == UINT64_MAX);
    CHECK_EQ(ravel__parse_u64("18446744073709551616", &v), -1);
    CHECK_EQ(ravel__parse_u64("", &v), -1);
    CHECK_EQ(ravel__parse_u64(" 1", &v), -1);
    CHECK_EQ(ravel__parse_u64("+1", &v), -1);
    CHECK_EQ(ravel__parse_u64("1e3", &v), -1);
    double d;
    CHECK_EQ(ravel__parse_double("2.5", &d), 0);
    CHECK_EQ(ravel__parse_double("nan", &d), -1);
    CHECK_EQ(ravel__parse_double("-1", &d), -1);
}

CHECK_TEST(prng_streams_are_reproducible_and_distinct)
{
    struct ravel__prng a, b, c;
    ravel__prng_seed(&a, 1, 5);
    ravel__prng_seed(&b, 1, 5);
    ravel__prng_seed(&c, 1, 6);
    bool differs = false;
    for (int i = 0; i < 100; i++) {
        uint64_t x = ravel__prng_next(&a);
        CHECK(x == ravel__prng_next(&b));
        differs |= x != ravel__prng_next(&c);
    }
    CHECK(differs);
    /* below(n) covers [0, n) and nothing else. */
    int seen[3] = {0};
    for (int i = 0; i < 3000; i++) {
        uint64_t v = ravel__prng_below(&a, 3);
        CHECK(v < 3);
        if (v < 3)
            seen[v]++;
    }
    CHECK(seen[0] > 800 && seen[1] > 800 && seen[2] > 800);
}

CHECK_TEST(json_strings_are_always_valid)
{
    struct ravel__strbuf sb = RAVEL__STRBUF_INIT;
    ravel__json_str(&sb, "a\"b\\c\n\x01\xff\xc3\xa9");
    CHECK_STR(sb.data, "\"a\\\"b\\\\c\\n\\u0001\\ufffd\xc3\xa9\"");
    ravel__sb_free(&sb);
}

CHECK_TEST(strbuf_grows)
{
    struct ravel__strbuf sb = RAVEL__STRBUF_INIT;
    CHECK_STR(ravel__sb_str(&sb), "");
    for (int i = 0; i < 1000; i++)
        ravel__sb_printf(&sb, "%d,", i);
    CHECK(sb.len > 3000);
    CHECK(strncmp(sb.data, "0,1,2,", 6) == 0);
    ravel__sb_reset(&sb);
    ravel__sb_pad(&sb, '-', 3);
    CHECK_STR(sb.data, "---");
    ravel__sb_free(&sb);
}

int main(void)
{
    return CHECK_RUN(parse_u64_is_strict,
                     prng_streams_are_reproducible_and_distinct,
                     json_strings_are_always_valid, strbuf_grows);
}
