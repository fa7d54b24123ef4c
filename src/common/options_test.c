/*
 * options_test.c - RAVEL_OPTIONS and flag values parse strictly, and a
 * parsed set serializes back to the same options.
 */
#include "options.h"

#include "../../tests/check.h"

CHECK_TEST(defaults)
{
    struct ravel__options o;
    ravel__options_defaults(&o);
    CHECK_STR(o.strategy, "auto");
    CHECK_EQ(o.executions, 1000);
    CHECK_EQ(o.max_steps, 100000);
    CHECK(!o.keep_going);
    CHECK(o.supervise);
    char err[256];
    CHECK_EQ(ravel__options_validate(&o, err, sizeof err), 0);
    ravel__options_free(&o);
}

CHECK_TEST(parses_env_text)
{
    struct ravel__options o;
    ravel__options_defaults(&o);
    char err[256];
    CHECK_EQ(ravel__options_parse(&o,
                                  "seed=5 max-steps=77:keep_going=yes "
                                  "ticket_dir='a dir' trace=\"x'y\"",
                                  err, sizeof err),
             0);
    CHECK_EQ(o.seed, 5);
    CHECK(o.set[RAVEL__OPT_seed]);
    CHECK_EQ(o.max_steps, 77);
    CHECK(o.keep_going);
    CHECK_STR(o.ticket_dir, "a dir");
    CHECK_STR(o.trace, "x'y");
    CHECK(!o.set[RAVEL__OPT_executions]);
    ravel__options_free(&o);
}

CHECK_TEST(rejects_bad_text)
{
    struct ravel__options o;
    char err[256];
    const char *bad[] = {"seed",      "seed=-1",   "seed=1x",
                         "nope=1",    "json=maybe", "trace='x",
                         "watchdog=-2", "seed=99999999999999999999"};
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        ravel__options_defaults(&o);
        CHECK_EQ(ravel__options_parse(&o, bad[i], err, sizeof err), -1);
        CHECK(err[0] != 0);
        ravel__options_free(&o);
    }
    ravel__options_defaults(&o);
    CHECK_EQ(ravel__options_parse(&o, "strategy=dfx", err, sizeof err), 0);
    CHECK_EQ(ravel__options_validate(&o, err, sizeof err), -1);
    CHECK(strstr(err, "unknown strategy") != NULL);
    ravel__options_free(&o);
    ravel__options_defaults(&o);
    CHECK_EQ(ravel__options_parse(&o, "strategy=replay", err, sizeof err), 0);
    CHECK_EQ(ravel__options_validate(&o, err, sizeof err), -1);
    ravel__options_free(&o);
    ravel__options_defaults(&o);
    CHECK_EQ(ravel__options_parse(&o, "preemption_bound=2", err, sizeof err),
             0);
    CHECK_EQ(ravel__options_validate(&o, err, sizeof err), -1);
    CHECK(strstr(err, "dfs or dpor") != NULL);
    ravel__options_free(&o);
}

CHECK_TEST(serialize_round_trips)
{
    struct ravel__options o, p;
    ravel__options_defaults(&o);
    char err[256];
    CHECK_EQ(ravel__options_parse(&o,
                                  "seed=9 json=1 ticket_dir='a b:c' "
                                  "watchdog=2.5 trace=\"it's \\\"x\\\"\"",
                                  err, sizeof err),
             0);
    struct ravel__strbuf sb = RAVEL__STRBUF_INIT;
    ravel__options_serialize(&o, &sb);
    ravel__options_defaults(&p);
    CHECK_EQ(ravel__options_parse(&p, sb.data, err, sizeof err), 0);
    CHECK_EQ(p.seed, 9);
    CHECK(p.json);
    CHECK_STR(p.ticket_dir, "a b:c");
    CHECK_STR(p.trace, "it's \"x\"");
    CHECK(p.watchdog == 2.5);
    ravel__sb_free(&sb);
    ravel__options_free(&o);
    ravel__options_free(&p);
}

CHECK_TEST(help_lists_public_options_only)
{
    struct ravel__strbuf sb = RAVEL__STRBUF_INIT;
    ravel__options_help(&sb);
    CHECK(strstr(sb.data, "--max-steps N") != NULL);
    CHECK(strstr(sb.data, "--keep-going") != NULL);
    CHECK(strstr(sb.data, "--supervise") == NULL);
    bool is_bool;
    CHECK(ravel__options_known("keep-going", &is_bool) && is_bool);
    CHECK(!ravel__options_known("supervise", &is_bool));
    ravel__sb_free(&sb);
}

int main(void)
{
    return CHECK_RUN(defaults, parses_env_text, rejects_bad_text,
                     serialize_round_trips, help_lists_public_options_only);
}
