/*
 * lin_test.c - the history readers, their error messages, the models'
 * checks of operations, budgets, the memory limit, and explanations.
 * (The search itself is pinned against brute force in oracle_test.c.)
 */
#include "check.h"
#include "explain.h"
#include "read.h"

#include "../../tests/check.h"

#include <stdlib.h>

/* Reads text into a fresh history; returns the reader's status. */
static int read_text(struct ravel__lin_history *h, const char *text,
                     enum ravel__lin_format fmt, char *err, size_t errlen)
{
    CHECK_EQ(ravel__lin_history_init(h), 0);
    err[0] = 0;
    return ravel__lin_read(text, strlen(text), fmt, h, err, errlen);
}

/* Expects reading `text` to fail with a message containing `want`. */
static void expect_error(const char *text, enum ravel__lin_format fmt,
                         const char *want)
{
    struct ravel__lin_history h;
    char err[512];
    int rc = read_text(&h, text, fmt, err, sizeof err);
    CHECK_EQ(rc, -1);
    if (!strstr(err, want)) {
        printf("# got error '%s', wanted '%s'\n", err, want);
        CHECK(strstr(err, want) != NULL);
    }
    ravel__lin_history_free(&h);
}

/* Checks history text with a model; returns the verdict (or -1). */
static int verdict_of(const char *text, const char *model,
                      const struct ravel__lin_options *o,
                      struct ravel__lin_result *keep)
{
    struct ravel__lin_history h;
    char err[512];
    if (read_text(&h, text, RAVEL__LIN_FMT_AUTO, err, sizeof err) != 0) {
        printf("# read error: %s\n", err);
        ravel__lin_history_free(&h);
        return -1;
    }
    const struct ravel__lin_model *m = ravel__lin_model_find(model);
    void *self;
    CHECK(m != NULL);
    if (!m || m->open(&self, &h, NULL, err, sizeof err) != 0) {
        printf("# open error: %s\n", err);
        ravel__lin_history_free(&h);
        return -1;
    }
    struct ravel__lin_result r;
    int v = -1;
    if (ravel__lin_check(&h, m, self, o, &r, err, sizeof err) == 0) {
        v = (int)r.verdict;
        if (keep)
            *keep = r;
        else
            ravel__lin_result_free(&r);
    }
    m->close(self);
    ravel__lin_history_free(&h);
    return v;
}

CHECK_TEST(values_are_interned)
{
    struct ravel__lin_values vs;
    CHECK_EQ(ravel__lin_values_init(&vs), 0);
    uint32_t a = ravel__lin_int(&vs, 3), b = ravel__lin_int(&vs, 3);
    CHECK_EQ(a, b);
    CHECK(ravel__lin_str(&vs, "3", 1) != a);
    uint32_t x = ravel__lin_int(&vs, 1), y = ravel__lin_int(&vs, 2);
    uint32_t s1[] = {x, y, x}, s2[] = {y, x};
    CHECK_EQ(ravel__lin_intern(&vs, RAVEL__LIN_SET, 0, NULL, 0, s1, 3),
             ravel__lin_intern(&vs, RAVEL__LIN_SET, 0, NULL, 0, s2, 2));
    CHECK(ravel__lin_intern(&vs, RAVEL__LIN_VEC, 0, NULL, 0, s1, 2) !=
          ravel__lin_intern(&vs, RAVEL__LIN_VEC, 0, NULL, 0, s2, 2));
    struct ravel__strbuf sb = RAVEL__STRBUF_INIT;
    ravel__lin_vprint(&vs, ravel__lin_intern(&vs, RAVEL__LIN_SET, 0, NULL, 0,
                                             s1, 3),
                      &sb, 0);
    CHECK_STR(ravel__sb_str(&sb), "#{1 2}");
    ravel__sb_free(&sb);
    ravel__lin_values_free(&vs);
}

CHECK_TEST(log_reader_follows_the_etcd_conventions)
{
    const char *text =
        "INFO  jepsen.util - 0\t:invoke\t:read\tnil\n"
        "INFO  jepsen.util - 1\t:invoke\t:cas\t[1 2]\n"
        "INFO  jepsen.util - 0\t:ok\t:read\tnil\n"
        "INFO  jepsen.util - 1\t:fail\t:cas\t[1 2]\n"
        "INFO  jepsen.util - 2\t:invoke\t:write\t3\n"
        "INFO  jepsen.util - 2\t:info\t:write\t:timed-out\n"
        "INFO  jepsen.util - 0\t:invoke\t:read\tnil\n"
        "INFO  jepsen.util - 0\t:fail\t:read\t:timed-out\r\n"
        "\n"
        "INFO  jepsen.util - 1   :invoke   :write   4\n";
    struct ravel__lin_history h;
    char err[256];
    CHECK_EQ(read_text(&h, text, RAVEL__LIN_FMT_AUTO, err, sizeof err), 0);
    CHECK_EQ(h.nops, 5);
    if (h.nops == 5) {
        CHECK_EQ(h.ops[0].out, RAVEL__LIN_V_NIL);      /* read nil */
        CHECK_EQ(h.ops[1].out, RAVEL__LIN_V_FALSE);    /* cas failed */
        CHECK(h.ops[2].ret == RAVEL__LIN_NEVER);       /* :info */
        CHECK_EQ(h.ops[2].call_line, 5);
        CHECK(h.ops[3].ret != RAVEL__LIN_NEVER);       /* timed-out read */
        CHECK_EQ(h.ops[3].out, RAVEL__LIN_V_NONE);     /* ... unknown */
        CHECK_EQ(h.ops[3].ret_line, 8);
        CHECK(h.ops[4].ret == RAVEL__LIN_NEVER);       /* still open */
        CHECK(h.ops[0].ret < h.ops[2].call);
    }
    ravel__lin_history_free(&h);
}

CHECK_TEST(log_reader_names_the_bad_line)
{
    const char *ok = "INFO  jepsen.util - 1\t:invoke\t:read\tnil\n";
    char buf[512];
    expect_error("hello\n", RAVEL__LIN_FMT_LOG, "line 1: not a Jepsen log");
    snprintf(buf, sizeof buf, "%sINFO  jepsen.util - 2\t:ok\t:read\t3\n", ok);
    expect_error(buf, RAVEL__LIN_FMT_LOG,
                 "line 2: process 2 completes :read without a pending call");
    snprintf(buf, sizeof buf, "%s%s", ok, ok);
    expect_error(buf, RAVEL__LIN_FMT_LOG,
                 "line 2: process 1 invokes again while its call :read "
                 "from line 1 has not returned (duplicate call)");
    snprintf(buf, sizeof buf, "%sINFO  jepsen.util - 1\t:ok\t:write\t3\n",
             ok);
    expect_error(buf, RAVEL__LIN_FMT_LOG,
                 "line 2: process 1 completes :write but its pending call "
                 "from line 1 is :read");
    snprintf(buf, sizeof buf, "%sINFO  jepsen.util - 1\t:ok", ok);
    expect_error(buf, RAVEL__LIN_FMT_LOG, "line 2: missing function");
    snprintf(buf, sizeof buf, "%sINFO  jepsen.util - 1\t:ok\t:read", ok);
    expect_error(buf, RAVEL__LIN_FMT_LOG, "line 2: missing value");
    expect_error("INFO  jepsen.util - 1\t:invoke\t:cas\t[1 2\n",
                 RAVEL__LIN_FMT_LOG, "line 1: bad value: unterminated");
    expect_error("INFO  jepsen.util - 1\t:invoke\t:read\tnil extra\n",
                 RAVEL__LIN_FMT_LOG, "line 1: unexpected text after");
    expect_error("INFO  jepsen.util - x\t:invoke\t:read\tnil\n",
                 RAVEL__LIN_FMT_LOG, "line 1: missing or bad process");
    expect_error("INFO  jepsen.util - 1\t:done\t:read\tnil\n",
                 RAVEL__LIN_FMT_LOG, "line 1: event type must be");
}

CHECK_TEST(edn_reader_follows_knossos)
{
    const char *text =
        "{:process 0, :type :invoke, :f :write, :value 1}\n"
        "{:process :nemesis, :type :info, :f :start, :value nil}\n"
        "{:process 1, :type :invoke, :f :read, :value nil}\n"
        "{:process 0, :type :ok, :f :write, :value 1}\n"
        "{:process 1, :type :ok, :f :read, :value nil}\n"
        "{:process 2, :type :invoke, :f :write, :value 2}\n"
        "{:process 2, :type :fail, :f :write, :value 2}\n"
        "; a comment\n"
        "{:process 3, :type :invoke, :f :write, :value 3, :time 5}\n"
        "{:process 3, :type :info, :f :write, :value 3}\n"
        "{:process 4, :type :invoke, :f :read, :value nil}\n"
        "{:process 4, :type :ok, :f :read, :value #{1 \"a\\\"b\" [2 :x]}}\n";
    struct ravel__lin_history h;
    char err[256];
    CHECK_EQ(ravel__lin_detect(text, strlen(text)), RAVEL__LIN_FMT_EDN);
    CHECK_EQ(read_text(&h, text, RAVEL__LIN_FMT_AUTO, err, sizeof err), 0);
    /* The nemesis is skipped and the :fail write is removed. */
    CHECK_EQ(h.nops, 4);
    if (h.nops == 4) {
        CHECK_EQ(h.ops[1].out, RAVEL__LIN_V_NONE); /* a read of nil */
        CHECK(h.ops[2].ret == RAVEL__LIN_NEVER);    /* :info */
        CHECK_EQ(h.ops[2].call_line, 9);
        struct ravel__strbuf sb = RAVEL__STRBUF_INIT;
        ravel__lin_vprint(&h.vals, h.ops[3].out, &sb, 0);
        CHECK(strstr(ravel__sb_str(&sb), "[2 :x]") != NULL);
        ravel__sb_free(&sb);
    }
    ravel__lin_history_free(&h);
    /* Knossos's test files: one vector around the maps. */
    CHECK_EQ(read_text(&h,
                       "[{:process 0 :type :invoke :f :read :value nil}\n"
                       " {:process 0 :type :ok :f :read :value 5}]\n",
                       RAVEL__LIN_FMT_AUTO, err, sizeof err),
             0);
    CHECK_EQ(h.nops, 1);
    ravel__lin_history_free(&h);
}

/* The format comes from the first forms, not the first character. */
static enum ravel__lin_format detect(const char *s)
{
    return ravel__lin_detect(s, strlen(s));
}

CHECK_TEST(format_is_detected_from_the_first_forms)
{
    CHECK_EQ(detect("; Knossos\n; more\n({:process 0 :type :invoke}"),
             RAVEL__LIN_FMT_EDN);
    CHECK_EQ(detect("[ ; comment\n {:process 0}"), RAVEL__LIN_FMT_EDN);
    CHECK_EQ(detect("[{\n  :type :invoke}]"), RAVEL__LIN_FMT_EDN);
    CHECK_EQ(detect("#jepsen.history.Op{:index 0}"), RAVEL__LIN_FMT_EDN);
    CHECK_EQ(detect("{:process 0}"), RAVEL__LIN_FMT_EDN);
    CHECK_EQ(detect(" [ {\"process\": 0}]"), RAVEL__LIN_FMT_JSON);
    CHECK_EQ(detect("{\"ops\": []}"), RAVEL__LIN_FMT_JSON);
    CHECK_EQ(detect("[]"), RAVEL__LIN_FMT_JSON);
    CHECK_EQ(detect("INFO  jepsen.util - 4\t:invoke\t:read\tnil"),
             RAVEL__LIN_FMT_LOG);
    CHECK_EQ(detect("; only a comment\n"), RAVEL__LIN_FMT_LOG);
    CHECK_EQ(detect(""), RAVEL__LIN_FMT_LOG);
    /* A list of events reads like a vector of them. */
    struct ravel__lin_history h;
    char err[256];
    CHECK_EQ(read_text(&h,
                       "; a comment\n"
                       "({:process 0 :type :invoke :f :read :value nil\n"
                       "  :time 5}\n"
                       " ; between events\n"
                       " {:process 0 :type :ok :f :read :value 5 :time 1})\n",
                       RAVEL__LIN_FMT_AUTO, err, sizeof err),
             0);
    CHECK_EQ(h.nops, 1);
    if (h.nops == 1)
        CHECK_EQ(h.ops[0].call_line, 2);
    ravel__lin_history_free(&h);
}

CHECK_TEST(edn_reader_names_the_bad_line)
{
    expect_error("{:process 0, :type :invoke, :f :read, :value nil}\n"
                 "{:process 0, :type :ok, :f :read, :value",
                 RAVEL__LIN_FMT_EDN, "line 2: unterminated map (truncated");
    expect_error("{:process 0, :type :invoke, :f :read, :value nil}\n"
                 "{:process 0, :type :ok, :f :read, :value 1\n",
                 RAVEL__LIN_FMT_EDN, "line 2: unterminated map (truncated");
    expect_error("{:process 0, :type :ok, :f :read, :value 1}\n",
                 RAVEL__LIN_FMT_EDN,
                 "line 1: process 0 completes :read without a pending call");
    expect_error("{:process 0, :type :invoke, :f :read}\n"
                 "{:process 0, :type :invoke, :f :read}\n",
                 RAVEL__LIN_FMT_EDN, "line 2: process 0 invokes again");
    expect_error("{:type :invoke, :f :read}\n", RAVEL__LIN_FMT_EDN,
                 "line 1: event map without :process");
    expect_error("\n\n{:process 0, :type :begin, :f :read}\n",
                 RAVEL__LIN_FMT_EDN, "line 3: :type must be");
    expect_error("{:process 0, :type :invoke, :f :read]\n",
                 RAVEL__LIN_FMT_EDN, "line 1: mismatched closing bracket");
    expect_error("{:process 0 :type}\n", RAVEL__LIN_FMT_EDN,
                 "line 1: map with an odd number");
    expect_error("[{:process 0 :type :invoke :f :read}\n", RAVEL__LIN_FMT_EDN,
                 "unterminated history vector");
    expect_error("{:process 0, :type :invoke, :f :read, :value \"ab}\n",
                 RAVEL__LIN_FMT_EDN, "line 1: unterminated string");
}

CHECK_TEST(json_reader_reads_operations)
{
    const char *text =
        "{\"ops\": [\n"
        "  {\"process\": 0, \"f\": \"write\", \"value\": 1, \"call\": 0,"
        " \"return\": 10},\n"
        "  {\"process\": \"c1\", \"f\": \"read\", \"output\": null,"
        " \"call\": 5, \"return\": 7},\n"
        "  {\"process\": 2, \"f\": \"cas\", \"value\": [1, 2], \"call\": 8},\n"
        "  {\"process\": 3, \"f\": \"read\", \"call\": 9, \"return\": null,"
        " \"key\": \"k\\u00e9\"}\n"
        "]}\n";
    struct ravel__lin_history h;
    char err[256];
    CHECK_EQ(ravel__lin_detect(text, strlen(text)), RAVEL__LIN_FMT_JSON);
    CHECK_EQ(read_text(&h, text, RAVEL__LIN_FMT_AUTO, err, sizeof err), 0);
    CHECK_EQ(h.nops, 4);
    if (h.nops == 4) {
        CHECK_EQ(h.ops[1].out, RAVEL__LIN_V_NIL); /* "output": null */
        CHECK(h.ops[2].ret == RAVEL__LIN_NEVER);
        CHECK(h.ops[3].ret == RAVEL__LIN_NEVER);
        CHECK_EQ(h.ops[0].out, RAVEL__LIN_V_NONE); /* no "output" */
        CHECK(ravel__lin_vis_name(&h.vals, h.ops[3].key, "k\xc3\xa9"));
    }
    ravel__lin_history_free(&h);
    CHECK_EQ(read_text(&h, "[]", RAVEL__LIN_FMT_AUTO, err, sizeof err), 0);
    CHECK_EQ(h.nops, 0);
    ravel__lin_history_free(&h);
}

CHECK_TEST(json_reader_names_the_bad_line)
{
    expect_error("[\n{\"process\": 0, \"f\": \"read\", \"call\": 1, "
                 "\"retrun\": 2}]",
                 RAVEL__LIN_FMT_JSON, "line 2: unknown field \"retrun\"");
    expect_error("[{\"process\": 0, \"f\": \"read\", \"call\": 5, "
                 "\"return\": 2}]",
                 RAVEL__LIN_FMT_JSON, "line 1: return time 2 is before");
    expect_error("[{\"process\": 0, \"f\": \"read\", \"return\": 2}]",
                 RAVEL__LIN_FMT_JSON, "without \"call\"");
    expect_error("{\"ops\": [\n{\"process\": 0, \"f\": \"read\", \"call\": 1",
                 RAVEL__LIN_FMT_JSON, "line 2: unterminated object");
    expect_error("{\"ops\": [{\"process\": 0, \"f\": \"read\", \"call\": 1}",
                 RAVEL__LIN_FMT_JSON, "unterminated array of operations");
    expect_error("[{\"process\": 0, \"f\": \"read\", \"call\": -1}]",
                 RAVEL__LIN_FMT_JSON, "\"call\" must be a non-negative");
    expect_error("[{\"process\": 0, \"f\": \"read\", \"call\": 1, "
                 "\"call\": 2}]",
                 RAVEL__LIN_FMT_JSON, "duplicate field \"call\"");
    expect_error("[{\"process\": 0, \"f\": \"read\", \"call\": 1, "
                 "\"output\": 3}]",
                 RAVEL__LIN_FMT_JSON, "never returned has no output");
    expect_error("[{\"process\": 0, \"f\": \"read\", \"call\": 01}]",
                 RAVEL__LIN_FMT_JSON, "malformed number");
}

CHECK_TEST(models_check_their_operations)
{
    struct ravel__lin_history h;
    char err[256];
    const char *text = "{:process 0, :type :invoke, :f :cas, :value [1 2]}\n"
                       "{:process 0, :type :ok, :f :cas, :value [1 2]}\n";
    CHECK_EQ(read_text(&h, text, RAVEL__LIN_FMT_AUTO, err, sizeof err), 0);
    void *self = NULL;
    const struct ravel__lin_model *reg = ravel__lin_model_find("register");
    CHECK_EQ(reg->open(&self, &h, NULL, err, sizeof err), -1);
    CHECK(strstr(err, "line 1: model register has no operation :cas") !=
          NULL);
    const struct ravel__lin_model *kv = ravel__lin_model_find("kv");
    CHECK_EQ(kv->open(&self, &h, NULL, err, sizeof err), -1);
    CHECK(strstr(err, "line 1: model kv has no operation :cas") != NULL);
    const struct ravel__lin_model *cas = ravel__lin_model_find("cas-register");
    CHECK_EQ(cas->open(&self, &h, NULL, err, sizeof err), 0);
    cas->close(self);
    struct ravel__lin_params p = {"[1"};
    CHECK_EQ(cas->open(&self, &h, &p, err, sizeof err), -1);
    CHECK(strstr(err, "--init") != NULL);
    CHECK(ravel__lin_model_find("registr") == NULL);
    ravel__lin_history_free(&h);
}

/* w1 completes, then a read sees the initial nil: the classic stale read. */
static const char stale_read[] =
    "INFO  jepsen.util - 0\t:invoke\t:write\t1\n"
    "INFO  jepsen.util - 0\t:ok\t:write\t1\n"
    "INFO  jepsen.util - 1\t:invoke\t:read\tnil\n"
    "INFO  jepsen.util - 1\t:ok\t:read\tnil\n";

CHECK_TEST(small_histories_get_their_verdicts)
{
    CHECK_EQ(verdict_of(stale_read, "register", NULL, NULL),
             RAVEL__LIN_FAIL);
    /* Concurrent read and write: either order works. */
    CHECK_EQ(verdict_of("INFO  jepsen.util - 0\t:invoke\t:write\t1\n"
                        "INFO  jepsen.util - 1\t:invoke\t:read\tnil\n"
                        "INFO  jepsen.util - 1\t:ok\t:read\tnil\n"
                        "INFO  jepsen.util - 0\t:ok\t:write\t1\n",
                        "register", NULL, NULL),
             RAVEL__LIN_OK);
    /* A write that never returned may explain a later read... */
    CHECK_EQ(verdict_of("INFO  jepsen.util - 0\t:invoke\t:write\t1\n"
                        "INFO  jepsen.util - 0\t:info\t:write\t1\n"
                        "INFO  jepsen.util - 1\t:invoke\t:read\tnil\n"
                        "INFO  jepsen.util - 1\t:ok\t:read\t1\n",
                        "register", NULL, NULL),
             RAVEL__LIN_OK);
    /* ... but only once it has been called. */
    CHECK_EQ(verdict_of("INFO  jepsen.util - 1\t:invoke\t:read\tnil\n"
                        "INFO  jepsen.util - 1\t:ok\t:read\t1\n"
                        "INFO  jepsen.util - 0\t:invoke\t:write\t1\n",
                        "register", NULL, NULL),
             RAVEL__LIN_FAIL);
    /* An empty history is linearizable. */
    CHECK_EQ(verdict_of("", "cas-register", NULL, NULL), RAVEL__LIN_OK);
    /* kv keys are independent, with and without partitioning. */
    const char *kv = "{:process 0, :type :invoke, :f :put, :key \"a\", "
                     ":value \"x\"}\n"
                     "{:process 0, :type :ok, :f :put, :key \"a\", "
                     ":value \"x\"}\n"
                     "{:process 0, :type :invoke, :f :get, :key \"b\", "
                     ":value nil}\n"
                     "{:process 0, :type :ok, :f :get, :key \"b\", "
                     ":value \"\"}\n";
    struct ravel__lin_options np = {0};
    np.no_partition = true;
    CHECK_EQ(verdict_of(kv, "kv", NULL, NULL), RAVEL__LIN_OK);
    CHECK_EQ(verdict_of(kv, "kv", &np, NULL), RAVEL__LIN_OK);
}

/* n concurrent writes, then a read of a value nobody wrote: not
 * linearizable, and only exhausting the orders of the writes shows it
 * (n! orders without the memo, 2^n configurations with it). */
static char *hard_history(int n)
{
    struct ravel__strbuf sb = RAVEL__STRBUF_INIT;
    for (int i = 0; i < n; i++)
        ravel__sb_printf(&sb, "INFO  jepsen.util - %d\t:invoke\t:write\t%d\n",
                         i, i);
    for (int i = 0; i < n; i++)
        ravel__sb_printf(&sb, "INFO  jepsen.util - %d\t:ok\t:write\t%d\n", i,
                         i);
    ravel__sb_add(&sb, "INFO  jepsen.util - 20\t:invoke\t:read\tnil\n"
                       "INFO  jepsen.util - 20\t:ok\t:read\t99\n");
    return sb.data;
}

CHECK_TEST(budgets_give_unknown_never_a_guess)
{
    char *text = hard_history(12);
    struct ravel__lin_options o = {0};
    struct ravel__lin_result r;
    o.max_steps = 40;
    CHECK_EQ(verdict_of(text, "register", &o, &r), RAVEL__LIN_UNKNOWN);
    CHECK_STR(r.unknown_why, "step limit");
    CHECK(r.steps <= 40);
    /* It says how far it got: 13 operations, a prefix of a few. */
    CHECK_EQ(r.unknown_ops, 13);
    CHECK(r.unknown_best >= 1 && r.unknown_best < 13);
    ravel__lin_result_free(&r);
    o.max_steps = 0;
    CHECK_EQ(verdict_of(text, "register", &o, &r), RAVEL__LIN_FAIL);
    CHECK(r.steps > 40);
    ravel__lin_result_free(&r);
    free(text);
}

CHECK_TEST(memory_limit_slows_but_keeps_answers)
{
    char *text = hard_history(6);
    struct ravel__lin_options o = {0};
    struct ravel__lin_result r, full;
    CHECK_EQ(verdict_of(text, "register", &o, &full), RAVEL__LIN_FAIL);
    CHECK(!full.memo_full);
    o.max_memory = 1; /* remember nothing */
    CHECK_EQ(verdict_of(text, "register", &o, &r), RAVEL__LIN_FAIL);
    CHECK(r.memo_full);
    CHECK_EQ(r.memo_entries, 0);
    CHECK(r.memo_bytes <= 1);
    CHECK(r.steps >= full.steps);
    ravel__lin_result_free(&r);
    ravel__lin_result_free(&full);
    free(text);
    CHECK_EQ(verdict_of("INFO  jepsen.util - 0\t:invoke\t:write\t1\n"
                        "INFO  jepsen.util - 1\t:invoke\t:read\tnil\n"
                        "INFO  jepsen.util - 1\t:ok\t:read\t1\n"
                        "INFO  jepsen.util - 0\t:ok\t:write\t1\n",
                        "register", &o, NULL),
             RAVEL__LIN_OK);
}

CHECK_TEST(explanations_show_the_prefix_and_the_stuck_operations)
{
    struct ravel__lin_history h;
    char err[256];
    CHECK_EQ(read_text(&h, stale_read, RAVEL__LIN_FMT_AUTO, err, sizeof err),
             0);
    const struct ravel__lin_model *m = ravel__lin_model_find("register");
    void *self;
    CHECK_EQ(m->open(&self, &h, NULL, err, sizeof err), 0);
    struct ravel__lin_result r;
    CHECK_EQ(ravel__lin_check(&h, m, self, NULL, &r, err, sizeof err), 0);
    CHECK_EQ(r.verdict, RAVEL__LIN_FAIL);
    CHECK_EQ(r.nprefix, 1); /* the write */
    CHECK_EQ(r.nstuck, 1);  /* the read of nil */
    if (r.nprefix == 1 && r.nstuck == 1) {
        CHECK_EQ(h.ops[r.prefix[0]].call_line, 1);
        CHECK_EQ(h.ops[r.stuck[0]].call_line, 3);
        CHECK_EQ(r.stuck_kind[0], RAVEL__LIN_REJECTED);
        CHECK_EQ(r.deadline_op, r.stuck[0]);
    }
    struct ravel__strbuf sb = RAVEL__STRBUF_INIT;
    ravel__lin_explain_text(&h, m, self, &r, &sb);
    const char *t = ravel__sb_str(&sb);
    CHECK(strstr(t, "longest linearizable prefix: 1 of 2 operations, "
                    "leaving the state 1") != NULL);
    CHECK(strstr(t, "p1     read -> nil  (lines 3-4): impossible in state 1") !=
          NULL);
    /* The timeline: one lane per process, the prefix numbered. */
    CHECK(strstr(t, "    p0     |1-|\n") != NULL);
    CHECK(strstr(t, "    p1           |a!|\n") != NULL);
    CHECK(strstr(t, "       a! p1     read -> nil  (lines 3-4)\n") != NULL);
    ravel__sb_reset(&sb);
    ravel__lin_explain_json(&h, m, self, &r, &sb);
    CHECK(strstr(ravel__sb_str(&sb), "\"cannot_go_next\":[{\"op\":") != NULL);
    ravel__sb_reset(&sb);
    ravel__lin_explain_html(&h, m, self, &r, "<t>", &sb);
    t = ravel__sb_str(&sb);
    CHECK(strstr(t, "<title>&lt;t&gt;</title>") != NULL);
    CHECK(strstr(t, "\"stuck\":true") != NULL);
    CHECK(strstr(t, "not linearizable") != NULL);
    ravel__sb_free(&sb);
    ravel__lin_result_free(&r);
    m->close(self);
    ravel__lin_history_free(&h);
}

int main(void)
{
    return CHECK_RUN(values_are_interned,
                     log_reader_follows_the_etcd_conventions,
                     log_reader_names_the_bad_line, edn_reader_follows_knossos,
                     format_is_detected_from_the_first_forms,
                     edn_reader_names_the_bad_line,
                     json_reader_reads_operations,
                     json_reader_names_the_bad_line,
                     models_check_their_operations,
                     small_histories_get_their_verdicts,
                     budgets_give_unknown_never_a_guess,
                     memory_limit_slows_but_keeps_answers,
                     explanations_show_the_prefix_and_the_stuck_operations);
}
