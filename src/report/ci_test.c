/*
 * ci_test.c - the JUnit and TAP writers: counts, structure, and the
 * escaping of whatever text a program under test produces (markup,
 * quotes, control characters, bytes that are not UTF-8).
 */
#include "ci.h"

#include "../../tests/check.h"

#include <string.h>

static const struct ravel__ci_case cases[] = {
    {.name = "counter", .classname = "ravel.run", .time_s = 0.5,
     .status = RAVEL__CI_PASS},
    {.name = "dead<lock>", .classname = "ravel.run", .time_s = 1.25,
     .status = RAVEL__CI_FAIL, .type = "deadlock",
     .message = "no thread can \"progress\"\nsecond line",
     .text = "<script>alert(1)</script> & 'q' \x01 \xff\xfe ok \xc3\xa9\n"},
    {.name = "broken", .status = RAVEL__CI_ERROR, .message = "exit 2"},
    {.name = "later", .status = RAVEL__CI_SKIP, .message = "not built"},
};

CHECK_TEST(junit_counts_and_escapes)
{
    struct ravel__strbuf sb = RAVEL__STRBUF_INIT;
    ravel__ci_junit(&sb, "ravel", cases, 4, 2.0);
    const char *s = ravel__sb_str(&sb);
    CHECK(strstr(s, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n") == s);
    CHECK(strstr(s, "<testsuites name=\"ravel\" tests=\"4\" failures=\"1\" "
                    "errors=\"1\""));
    CHECK(strstr(s, "skipped=\"1\""));
    CHECK(strstr(s, "<testcase name=\"counter\" classname=\"ravel.run\" "
                    "time=\"0.500\"/>"));
    CHECK(strstr(s, "name=\"dead&lt;lock&gt;\""));
    /* The message attribute is its first line, quotes escaped. */
    CHECK(strstr(s, "<failure message=\"no thread can &quot;progress&quot;\" "
                    "type=\"deadlock\">"));
    CHECK(strstr(s, "&lt;script&gt;alert(1)&lt;/script&gt; &amp; "
                    "&#39;q&#39; \\x01 \\xff\\xfe ok \xc3\xa9\n</failure>"));
    CHECK(!strstr(s, "<script>"));
    CHECK(strstr(s, "<error message=\"exit 2\""));
    CHECK(strstr(s, "<skipped message=\"not built\"/>"));
    /* No byte of the document is a control character other than \n. */
    bool clean = true;
    for (const char *p = s; *p; p++)
        if ((unsigned char)*p < 0x20 && *p != '\n')
            clean = false;
    CHECK(clean);
    ravel__sb_free(&sb);
}

CHECK_TEST(tap_lines)
{
    struct ravel__strbuf sb = RAVEL__STRBUF_INIT;
    ravel__ci_tap_plan(&sb, 4);
    for (size_t i = 0; i < 4; i++)
        ravel__ci_tap_case(&sb, i + 1, &cases[i]);
    const char *s = ravel__sb_str(&sb);
    CHECK(strstr(s, "TAP version 13\n1..4\n") == s);
    CHECK(strstr(s, "\nok 1 - ravel.run.counter\n"));
    CHECK(strstr(s, "\nnot ok 2 - ravel.run.dead<lock>\n# deadlock: no "
                    "thread can \"progress\" second line\n# <script>"));
    CHECK(strstr(s, "\nnot ok 3 - broken\n# exit 2\n"));
    CHECK(strstr(s, "\nok 4 - later # SKIP not built\n"));
    ravel__sb_free(&sb);
    /* '#' in a name would start a directive. */
    struct ravel__ci_case c = {.name = "a # TODO b", .status = RAVEL__CI_PASS};
    ravel__ci_tap_case(&sb, 1, &c);
    CHECK_STR(ravel__sb_str(&sb), "ok 1 - a \\# TODO b\n");
    ravel__sb_free(&sb);
}

CHECK_TEST(utf8_validation)
{
    CHECK_EQ(ravel__utf8_len((const unsigned char *)"\xc3\xa9", 2), 2);
    CHECK_EQ(ravel__utf8_len((const unsigned char *)"\xe2\x82\xac", 3), 3);
    CHECK_EQ(ravel__utf8_len((const unsigned char *)"\xf0\x9f\x98\x80", 4),
             4);
    CHECK_EQ(ravel__utf8_len((const unsigned char *)"\xc0\xaf", 2), 0);
    CHECK_EQ(ravel__utf8_len((const unsigned char *)"\xed\xa0\x80", 3), 0);
    CHECK_EQ(ravel__utf8_len((const unsigned char *)"\xe2\x82", 2), 0);
    CHECK_EQ(ravel__utf8_len((const unsigned char *)"\x80", 1), 0);
}

int main(void)
{
    return CHECK_RUN(junit_counts_and_escapes, tap_lines, utf8_validation);
}
