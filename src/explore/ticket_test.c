/*
 * ticket_test.c - tickets round-trip, and every malformed ticket is
 * refused with a line-numbered message (never accepted half-read).
 */
#include "ticket.h"

#include "../../tests/check.h"

#include <stddef.h>
#include <stdlib.h>

static const char good[] =
    "# comment\n"
    "ravel-ticket 1\n"
    "program \"/tmp/a b/prog\"\n"
    "program-hash 00112233445566ff\n"
    "argv \"./prog\" \"x\\\"y\" \"tab\\there\"\n"
    "strategy random\n"
    "seed 7\n"
    "execution 12\n"
    "max-steps 1000\n"
    "kind assertion\n"
    "schedule 1*2 1.1 1.2*3\n"
    "schedule 1\n"
    "choices 3:2:1 5:3:2\n"
    "promote 0:11a9 2:ff\n"
    "end\n";

static int parse(const char *text, struct ravel__ticket *t, char *err)
{
    return ravel__ticket_parse(text, strlen(text), t, err, 256);
}

CHECK_TEST(parses_every_field)
{
    struct ravel__ticket t;
    char err[256];
    CHECK_EQ(parse(good, &t, err), 0);
    CHECK_STR(t.program, "/tmp/a b/prog");
    CHECK_EQ(t.npromote, 2u);
    CHECK_EQ(t.promote[0].module, 0u);
    CHECK_EQ(t.promote[0].offset, 0x11a9u);
    CHECK_EQ(t.promote[1].module, 2u);
    CHECK_EQ(t.promote[1].offset, 0xffu);
    CHECK_EQ(t.program_hash, 0x00112233445566ffULL);
    CHECK_EQ(t.argc, 3);
    CHECK_STR(t.argv[1], "x\"y");
    CHECK_STR(t.argv[2], "tab\there");
    CHECK_STR(t.strategy, "random");
    CHECK_EQ(t.seed, 7);
    CHECK_EQ(t.execution, 12);
    CHECK_EQ(t.max_steps, 1000);
    CHECK_STR(t.kind, "assertion");
    CHECK_EQ(t.nsteps, 7);
    CHECK_EQ(t.nruns, 4);
    CHECK_STR(t.names[t.runs[2].name], "1.2");
    CHECK_EQ(t.runs[2].count, 3);
    CHECK_EQ(t.nvchoices, 2);
    CHECK_EQ(t.vchoices[1].value, 2);
    ravel__ticket_free(&t);
}

CHECK_TEST(format_then_parse_is_identity)
{
    struct ravel__ticket t, u;
    char err[256];
    CHECK_EQ(parse(good, &t, err), 0);
    /* A long schedule wraps over several lines. */
    for (int i = 0; i < 200; i++)
        ravel__ticket_add_step(&t, i % 3 ? "1.1" : "1.2.10");
    struct ravel__strbuf a = RAVEL__STRBUF_INIT, b = RAVEL__STRBUF_INIT;
    ravel__ticket_format(&t, &a);
    CHECK_EQ(ravel__ticket_parse(a.data, a.len, &u, err, sizeof err), 0);
    ravel__ticket_format(&u, &b);
    CHECK_STR(a.data, b.data);
    CHECK_EQ(u.nsteps, t.nsteps);
    ravel__ticket_free(&t);
    ravel__ticket_free(&u);
    ravel__sb_free(&a);
    ravel__sb_free(&b);
}

/* A data choice after the last step (ravel_choose, then a failure with
 * no scheduling point between) is at step nsteps: accepted; one later is
 * not. */
CHECK_TEST(choice_after_the_last_step)
{
    char text[2048];
    const char *p = strstr(good, "5:3:2");
    CHECK(p != NULL);
    if (!p)
        return;
    snprintf(text, sizeof text, "%.*s7:3:2%s", (int)(p - good), good, p + 5);
    struct ravel__ticket t;
    char err[256] = "";
    CHECK_EQ(parse(text, &t, err), 0);
    CHECK_EQ(t.nsteps, 7);
    CHECK_EQ(t.vchoices[1].step, 7);
    ravel__ticket_free(&t);
    snprintf(text, sizeof text, "%.*s8:3:2%s", (int)(p - good), good, p + 5);
    CHECK_EQ(parse(text, &t, err), -1);
    CHECK(strstr(err, "past the end") != NULL);
}

/* Replaces the first occurrence of `from` in good[] by `to`, parses, and
 * checks the error mentions `want`. */
static void rejects(const char *from, const char *to, const char *want)
{
    char text[2048];
    const char *p = strstr(good, from);
    CHECK(p != NULL);
    if (!p)
        return;
    snprintf(text, sizeof text, "%.*s%s%s", (int)(p - good), good, to,
             p + strlen(from));
    struct ravel__ticket t;
    char err[256] = "";
    CHECK_EQ(parse(text, &t, err), -1);
    if (!strstr(err, want))
        printf("# error was: %s (wanted '%s')\n", err, want);
    CHECK(strstr(err, want) != NULL);
}

CHECK_TEST(rejects_malformed_tickets)
{
    rejects("end\n", "", "truncated");
    rejects("ravel-ticket 1", "ravel-ticket 9", "version 9");
    rejects("ravel-ticket 1", "hello", "not a ravel ticket");
    rejects("seed 7", "seed -7", "line 7: bad seed");
    rejects("seed 7", "seed 7 8", "unexpected text");
    rejects("kind assertion\n", "", "no 'kind'");
    rejects("strategy random", "strategy random\nstrategy dfs", "duplicate");
    rejects("schedule 1\n", "schedule 1.0\n", "bad thread name");
    rejects("schedule 1\n", "schedule 1*0\n", "repeat count");
    rejects("choices 3:2:1", "choices 3:2:2", "bad data choice");
    rejects("choices 3:2:1 5:3:2", "choices 5:2:1 3:3:2", "out of order");
    rejects("choices 3:2:1 5:3:2", "choices 3:2:1 99:3:2", "past the end");
    rejects("program \"/tmp", "program \"tmp", "absolute");
    rejects("\"./prog\"", "\"./pr\x01og\"", "control character");
    rejects("program-hash 00112233445566ff", "program-hash 0011", "16 hex");
    rejects("max-steps 1000", "max-steps 3", "does not fit");
    rejects("execution 12", "bogus 12", "unknown field 'bogus'");
    rejects("\"x\\\"y\"", "\"x\\qy\"", "unknown escape");
    rejects("promote 0:11a9", "promote 0-11a9", "MODULE:OFFSET");
    rejects("promote 0:11a9", "promote 0:11g9", "hexadecimal");
    rejects("promote 0:11a9", "promote x:11a9", "module number");
}

CHECK_TEST(rejects_binary_and_empty_input)
{
    struct ravel__ticket t;
    char err[256];
    CHECK_EQ(ravel__ticket_parse("", 0, &t, err, sizeof err), -1);
    CHECK_EQ(ravel__ticket_parse("ravel-ticket 1\0end\n", 19, &t, err,
                                 sizeof err),
             -1);
    CHECK(strstr(err, "binary") != NULL);
}

CHECK_TEST(accepts_crlf_line_ends)
{
    char text[2048];
    size_t k = 0;
    for (const char *p = good; *p; p++) {
        if (*p == '\n')
            text[k++] = '\r';
        text[k++] = *p;
    }
    text[k] = 0;
    struct ravel__ticket t;
    char err[256];
    CHECK_EQ(parse(text, &t, err), 0);
    CHECK_EQ(t.nsteps, 7);
    ravel__ticket_free(&t);
}

CHECK_TEST(thread_names)
{
    CHECK(ravel__thread_name_valid("1"));
    CHECK(ravel__thread_name_valid("1.2.10"));
    CHECK(!ravel__thread_name_valid("0"));
    CHECK(!ravel__thread_name_valid("1."));
    CHECK(!ravel__thread_name_valid("1..2"));
    CHECK(!ravel__thread_name_valid("1.02"));
    CHECK(!ravel__thread_name_valid(""));
    /* Store buffers (--memory-model tso). */
    CHECK(ravel__thread_name_valid("1/sb"));
    CHECK(ravel__thread_name_valid("1.2/sb"));
    CHECK(!ravel__thread_name_valid("1/sb/sb"));
    CHECK(!ravel__thread_name_valid("/sb"));
    CHECK(!ravel__thread_name_valid("1/s"));
}

/* good[] with the string field at `field` of its ticket set to `value`
 * is written with `line`, and reads back with that value. */
static void reads_back(size_t field, const char *value, const char *line)
{
    struct ravel__ticket t, u;
    char err[256];
    CHECK_EQ(parse(good, &t, err), 0);
    *(char **)((char *)&t + field) = strdup(value);
    struct ravel__strbuf a = RAVEL__STRBUF_INIT;
    ravel__ticket_format(&t, &a);
    CHECK(strstr(a.data, line) != NULL);
    CHECK_EQ(ravel__ticket_parse(a.data, a.len, &u, err, sizeof err), 0);
    CHECK_STR(*(char **)((char *)&u + field), value);
    ravel__ticket_free(&t);
    ravel__ticket_free(&u);
    ravel__sb_free(&a);
}

/* The memory model line: written only when not sc, read back, checked. */
CHECK_TEST(memory_model_line)
{
    struct ravel__ticket t, u;
    char err[256];
    CHECK_EQ(parse(good, &t, err), 0);
    CHECK(t.memory_model == NULL);
    struct ravel__strbuf a = RAVEL__STRBUF_INIT;
    ravel__ticket_format(&t, &a);
    CHECK(strstr(a.data, "memory-model") == NULL);
    t.memory_model = strdup("tso");
    ravel__ticket_add_step(&t, "1/sb");
    ravel__sb_free(&a);
    a = (struct ravel__strbuf)RAVEL__STRBUF_INIT;
    ravel__ticket_format(&t, &a);
    CHECK(strstr(a.data, "memory-model tso\n") != NULL);
    CHECK_EQ(ravel__ticket_parse(a.data, a.len, &u, err, sizeof err), 0);
    CHECK_STR(u.memory_model, "tso");
    ravel__ticket_free(&t);
    ravel__ticket_free(&u);
    ravel__sb_free(&a);
    /* rc11's line reads back too (its choices are data choices). */
    reads_back(offsetof(struct ravel__ticket, memory_model), "rc11",
               "memory-model rc11\n");
    /* --timeouts late changes what is enabled: the ticket says so. */
    reads_back(offsetof(struct ravel__ticket, timeouts), "late",
               "timeouts late\n");
    rejects("kind assertion\n", "kind assertion\ntimeouts soon\n",
            "timeouts must be any or late");
    rejects("kind assertion\n",
            "kind assertion\ntimeouts late\ntimeouts late\n", "duplicate");
    rejects("kind assertion\n", "kind assertion\nmemory-model pso\n",
            "memory-model must be sc, tso or rc11");
    rejects("kind assertion\n",
            "kind assertion\nmemory-model tso\nmemory-model tso\n",
            "duplicate");
}

int main(void)
{
    return CHECK_RUN(parses_every_field, format_then_parse_is_identity,
                     rejects_malformed_tickets, rejects_binary_and_empty_input,
                     accepts_crlf_line_ends, thread_names,
                     memory_model_line, choice_after_the_last_step);
}
