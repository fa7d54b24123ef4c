/*
 * ci.h - test results for CI dashboards: JUnit XML and TAP.
 *
 * Jenkins, GitLab and GitHub show test results they read as JUnit XML;
 * `prove` and many harnesses read TAP. ravel produces both from one
 * record per test case (`struct ravel__ci_case`): a program run by
 * `ravel run` is one case, a property is one case, and a RAVEL_TEST unit
 * test is one case. The writers only format what they are given; who ran
 * what is the caller's business.
 *
 * JUnit: there is no single standard, but every reader accepts the shape
 * Ant's JUnit task wrote, which is what this writes:
 *
 *     <?xml version="1.0" encoding="UTF-8"?>
 *     <testsuites name=".." tests="N" failures="F" errors="E" time="S">
 *       <testsuite name=".." tests="N" failures="F" errors="E"
 *                  skipped="K" time="S">
 *         <testcase name=".." classname=".." time="S">
 *           <failure message=".." type="deadlock">report text</failure>
 *         </testcase>
 *       </testsuite>
 *     </testsuites>
 *
 * Text from the program under test (assertion messages, output, file
 * names) can hold anything: the writer escapes XML's special characters,
 * drops the control characters XML 1.0 cannot carry (written as \xNN),
 * and writes bytes that are not UTF-8 as \xNN too, so the file always
 * parses.
 *
 * TAP (version 13): "1..N" then one "ok K - name" or "not ok K - name"
 * line per case, the report text after a failure as "# " comment lines
 * (prove shows them with -v). A case can be written as soon as it is
 * known, so a long run streams its results.
 */
#ifndef RAVEL_REPORT_CI_H
#define RAVEL_REPORT_CI_H

#include "../common/strbuf.h"

#include <stddef.h>

enum ravel__ci_status {
    RAVEL__CI_PASS,
    RAVEL__CI_FAIL,  /* the test found a bug */
    RAVEL__CI_ERROR, /* the test could not run (tool error, bad input) */
    RAVEL__CI_SKIP,
};

/* One test case. Every string may be NULL (written as empty); none is
 * owned by the record. */
struct ravel__ci_case {
    const char *name;      /* the case: program or test name */
    const char *classname; /* its group: suite, or "ravel.run" */
    double time_s;         /* how long it ran */
    int status;            /* enum ravel__ci_status */
    const char *type;      /* failure kind: "deadlock", "data-race" ... */
    const char *message;   /* one line: the failure's headline */
    const char *text;      /* the full report (several lines) */
};

/*
 * Appends a whole JUnit XML document with one <testsuite> named `suite`
 * holding the n cases (time_s is the suite's total). Not a scheduling
 * point; allocates only inside sb.
 */
void ravel__ci_junit(struct ravel__strbuf *sb, const char *suite,
                     const struct ravel__ci_case *cases, size_t n,
                     double time_s);

/* Appends the TAP header for n cases ("TAP version 13\n1..n\n"). */
void ravel__ci_tap_plan(struct ravel__strbuf *sb, size_t n);

/* Appends the TAP lines of case number `number` (from 1): its ok/not ok
 * line, then the failure's message and text as comment lines. */
void ravel__ci_tap_case(struct ravel__strbuf *sb, size_t number,
                        const struct ravel__ci_case *c);

/*
 * Appends s (n bytes) escaped for XML and HTML text and attribute
 * values: & < > " ' as entities, well-formed UTF-8 kept, every other
 * byte and every control character but tab and newline as the visible
 * text \xNN. Used by the JUnit, HTML and DOT writers.
 */
void ravel__ci_xml_text(struct ravel__strbuf *sb, const char *s, size_t n);

/* Length of the well-formed UTF-8 sequence at s (at most n bytes), or 0
 * when the byte at s does not start one. */
size_t ravel__utf8_len(const unsigned char *s, size_t n);

#endif
