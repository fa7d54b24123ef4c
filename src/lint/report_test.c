/*
 * report_test.c - unit tests of findings and their outputs.
 */
#include "report.h"

#include "../../tests/check.h"

CHECK_TEST(findings_dedup_sort_and_print)
{
    struct ravel__lint_prog p;
    ravel__lint_prog_init(&p);
    uint32_t fb = ravel__lint_file(&p, "b.c", "/nonexistent/b.c");
    uint32_t fa = ravel__lint_file(&p, "dir/a \"q\".c", "/nonexistent/a.c");
    struct ravel__lint_findings fs = {0};
    struct ravel__lint_finding *f =
        ravel__lint_finding_add(&fs, RAVEL__RULE_CTA, fb, 9, 3, "act(x) may act on a stale check");
    ravel__lint_note_add(f, fb, 8, 2, "the check");
    CHECK(ravel__lint_finding_add(&fs, RAVEL__RULE_CTA, fb, 9, 3,
                                  "act(x) may act on a stale check") == NULL);
    ravel__lint_finding_add(&fs, RAVEL__RULE_LOCKSET, fb, 2, 1, "data race on 'x'");
    ravel__lint_finding_add(&fs, RAVEL__RULE_LOCKSET, fa, 5, 7, "data race on \"y\"\n");
    CHECK_EQ(fs.n, 3);
    ravel__lint_findings_sort(&fs, &p);
    CHECK_EQ(fs.v[0].file, fb);
    CHECK_EQ(fs.v[0].line, 2);
    CHECK_EQ(fs.v[2].file, fa);

    struct ravel__lint_sources src;
    ravel__lint_sources_init(&src);
    struct ravel__strbuf out = RAVEL__STRBUF_INIT;
    ravel__lint_print_text(&out, &fs, &p, &src, false, true);
    CHECK_STR(ravel__sb_str(&out),
              "b.c:2:1: warning: data race on 'x' [ravel-lockset]\n"
              "b.c:9:3: warning: act(x) may act on a stale check [ravel-check-then-act]\n"
              "b.c:8:2: note: the check\n"
              "dir/a \"q\".c:5:7: warning: data race on \"y\"\n [ravel-lockset]\n");

    ravel__sb_reset(&out);
    ravel__lint_sarif(&out, &fs, &p);
    const char *s = ravel__sb_str(&out);
    CHECK(strstr(s, "\"version\":\"2.1.0\"") != NULL);
    CHECK(strstr(s, "\"uri\":\"dir/a%20%22q%22.c\"") != NULL);
    CHECK(strstr(s, "\"text\":\"data race on \\\"y\\\"\\n\"") != NULL);
    CHECK(strstr(s, "\"relatedLocations\":[{\"id\":0,\"physicalLocation\"") != NULL);
    CHECK(strstr(s, "\"ruleId\":\"ravel-check-then-act\",\"ruleIndex\":0") != NULL);

    char *keep[] = {(char *)"/nonexistent/a.c"};
    ravel__lint_findings_keep(&fs, &p, keep, 1);
    CHECK_EQ(fs.n, 1);
    CHECK_EQ(fs.v[0].file, fa);
    ravel__sb_free(&out);
    ravel__lint_sources_free(&src);
    ravel__lint_findings_free(&fs);
    ravel__lint_prog_free(&p);
}

CHECK_TEST(notes_are_bounded)
{
    struct ravel__lint_findings fs = {0};
    struct ravel__lint_finding *f = ravel__lint_finding_add(&fs, RAVEL__RULE_CTA, 0, 1, 1, "m");
    for (int i = 0; i < 10; i++)
        ravel__lint_note_add(f, 0, (uint32_t)i, 1, "n");
    CHECK_EQ(f->nnotes, RAVEL__LINT_NOTES_MAX);
    ravel__lint_note_add(NULL, 0, 1, 1, "ignored");
    ravel__lint_findings_free(&fs);
}

int main(void)
{
    return CHECK_RUN(findings_dedup_sort_and_print, notes_are_bounded);
}
