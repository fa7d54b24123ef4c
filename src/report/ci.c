/*
 * ci.c - JUnit XML and TAP writers (see ci.h).
 */
#include "ci.h"

#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

size_t ravel__utf8_len(const unsigned char *s, size_t n)
{
    if (n == 0)
        return 0;
    unsigned char c = s[0];
    if (c < 0x80)
        return 1;
    size_t len;
    unsigned min;
    unsigned cp;
    if (c >= 0xc2 && c <= 0xdf) {
        len = 2;
        cp = c & 0x1f;
        min = 0x80;
    } else if (c >= 0xe0 && c <= 0xef) {
        len = 3;
        cp = c & 0x0f;
        min = 0x800;
    } else if (c >= 0xf0 && c <= 0xf4) {
        len = 4;
        cp = c & 0x07;
        min = 0x10000;
    } else {
        return 0;
    }
    if (n < len)
        return 0;
    for (size_t i = 1; i < len; i++) {
        if ((s[i] & 0xc0) != 0x80)
            return 0;
        cp = (cp << 6) | (s[i] & 0x3f);
    }
    /* Overlong forms, UTF-16 surrogates and code points past U+10FFFF
     * are not UTF-8; U+FFFE and U+FFFF are not allowed in XML. */
    if (cp < min || (cp >= 0xd800 && cp <= 0xdfff) || cp > 0x10ffff ||
        cp == 0xfffe || cp == 0xffff)
        return 0;
    return len;
}

void ravel__ci_xml_text(struct ravel__strbuf *sb, const char *s, size_t n)
{
    const unsigned char *p = (const unsigned char *)s;
    size_t i = 0;
    while (i < n) {
        unsigned char c = p[i];
        switch (c) {
        case '&': ravel__sb_add(sb, "&amp;"); i++; continue;
        case '<': ravel__sb_add(sb, "&lt;"); i++; continue;
        case '>': ravel__sb_add(sb, "&gt;"); i++; continue;
        case '"': ravel__sb_add(sb, "&quot;"); i++; continue;
        case '\'': ravel__sb_add(sb, "&#39;"); i++; continue;
        case '\t':
        case '\n': ravel__sb_addc(sb, (char)c); i++; continue;
        default: break;
        }
        if (c < 0x20 || c == 0x7f) {
            ravel__sb_printf(sb, "\\x%02x", c);
            i++;
            continue;
        }
        size_t l = ravel__utf8_len(p + i, n - i);
        if (l == 0) {
            ravel__sb_printf(sb, "\\x%02x", c);
            i++;
            continue;
        }
        /* C1 controls (U+0080-U+009F) are discouraged in XML: shown. */
        if (l == 2 && c == 0xc2 && p[i + 1] < 0xa0) {
            ravel__sb_printf(sb, "\\x%02x\\x%02x", c, p[i + 1]);
            i += 2;
            continue;
        }
        ravel__sb_addn(sb, s + i, l);
        i += l;
    }
}

static void xml_str(struct ravel__strbuf *sb, const char *s)
{
    if (s)
        ravel__ci_xml_text(sb, s, strlen(s));
}

/* Attribute values: one line (a newline in an attribute is read back as
 * a space anyway). */
static void xml_attr(struct ravel__strbuf *sb, const char *name,
                     const char *s)
{
    ravel__sb_printf(sb, " %s=\"", name);
    if (s) {
        const char *nl = strchr(s, '\n');
        ravel__ci_xml_text(sb, s, nl ? (size_t)(nl - s) : strlen(s));
    }
    ravel__sb_addc(sb, '"');
}

void ravel__ci_junit(struct ravel__strbuf *sb, const char *suite,
                     const struct ravel__ci_case *cases, size_t n,
                     double time_s)
{
    size_t fail = 0, err = 0, skip = 0;
    for (size_t i = 0; i < n; i++) {
        fail += cases[i].status == RAVEL__CI_FAIL;
        err += cases[i].status == RAVEL__CI_ERROR;
        skip += cases[i].status == RAVEL__CI_SKIP;
    }
    ravel__sb_add(sb, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
    ravel__sb_add(sb, "<testsuites");
    xml_attr(sb, "name", suite);
    ravel__sb_printf(sb, " tests=\"%zu\" failures=\"%zu\" errors=\"%zu\" "
                         "time=\"%.3f\">\n",
                     n, fail, err, time_s);
    /* The attributes and elements the common JUnit schema (Ant's, as
     * Jenkins reads it) requires of a testsuite: id, package, timestamp
     * (ISO 8601, no zone), hostname, properties, system-out and
     * system-err. */
    char stamp[32] = "1970-01-01T00:00:00", host[256] = "localhost";
    time_t now = time(NULL);
    struct tm tm;
    if (gmtime_r(&now, &tm))
        strftime(stamp, sizeof stamp, "%Y-%m-%dT%H:%M:%S", &tm);
    if (gethostname(host, sizeof host - 1) != 0 || !host[0])
        snprintf(host, sizeof host, "localhost");
    host[sizeof host - 1] = 0;
    ravel__sb_add(sb, "  <testsuite");
    xml_attr(sb, "name", suite);
    ravel__sb_printf(sb, " tests=\"%zu\" failures=\"%zu\" errors=\"%zu\" "
                         "skipped=\"%zu\" time=\"%.3f\" id=\"0\"",
                     n, fail, err, skip, time_s);
    xml_attr(sb, "package", suite);
    xml_attr(sb, "timestamp", stamp);
    xml_attr(sb, "hostname", host);
    ravel__sb_add(sb, ">\n    <properties/>\n");
    for (size_t i = 0; i < n; i++) {
        const struct ravel__ci_case *c = &cases[i];
        ravel__sb_add(sb, "    <testcase");
        xml_attr(sb, "name", c->name);
        xml_attr(sb, "classname", c->classname ? c->classname : suite);
        ravel__sb_printf(sb, " time=\"%.3f\"", c->time_s);
        if (c->status == RAVEL__CI_PASS) {
            ravel__sb_add(sb, "/>\n");
            continue;
        }
        ravel__sb_add(sb, ">\n");
        if (c->status == RAVEL__CI_SKIP) {
            ravel__sb_add(sb, "      <skipped");
            xml_attr(sb, "message", c->message);
            ravel__sb_add(sb, "/>\n");
        } else {
            const char *tag =
                c->status == RAVEL__CI_ERROR ? "error" : "failure";
            ravel__sb_printf(sb, "      <%s", tag);
            xml_attr(sb, "message", c->message);
            xml_attr(sb, "type", c->type);
            ravel__sb_add(sb, ">");
            xml_str(sb, c->text);
            ravel__sb_printf(sb, "</%s>\n", tag);
        }
        ravel__sb_add(sb, "    </testcase>\n");
    }
    ravel__sb_add(sb, "    <system-out/>\n    <system-err/>\n"
                      "  </testsuite>\n</testsuites>\n");
}

void ravel__ci_tap_plan(struct ravel__strbuf *sb, size_t n)
{
    ravel__sb_printf(sb, "TAP version 13\n1..%zu\n", n);
}

/* A TAP description is one line, and '#' would start a directive. */
static void tap_desc(struct ravel__strbuf *sb, const char *s)
{
    for (; s && *s; s++) {
        if (*s == '\n' || *s == '\r')
            ravel__sb_addc(sb, ' ');
        else if (*s == '#' || *s == '\\')
            ravel__sb_printf(sb, "\\%c", *s);
        else
            ravel__sb_addc(sb, *s);
    }
}

static void tap_comment(struct ravel__strbuf *sb, const char *s)
{
    while (s && *s) {
        const char *nl = strchr(s, '\n');
        size_t l = nl ? (size_t)(nl - s) : strlen(s);
        ravel__sb_add(sb, "# ");
        ravel__sb_addn(sb, s, l);
        ravel__sb_addc(sb, '\n');
        s += l + (nl ? 1 : 0);
    }
}

void ravel__ci_tap_case(struct ravel__strbuf *sb, size_t number,
                        const struct ravel__ci_case *c)
{
    bool ok = c->status == RAVEL__CI_PASS || c->status == RAVEL__CI_SKIP;
    ravel__sb_printf(sb, "%s %zu - ", ok ? "ok" : "not ok", number);
    if (c->classname && *c->classname) {
        tap_desc(sb, c->classname);
        ravel__sb_addc(sb, '.');
    }
    tap_desc(sb, c->name);
    if (c->status == RAVEL__CI_SKIP) {
        ravel__sb_add(sb, " # SKIP ");
        tap_desc(sb, c->message);
    }
    ravel__sb_addc(sb, '\n');
    if (ok)
        return;
    if (c->type || c->message) {
        ravel__sb_add(sb, "# ");
        if (c->type) {
            ravel__sb_add(sb, c->type);
            ravel__sb_add(sb, ": ");
        }
        tap_desc(sb, c->message);
        ravel__sb_addc(sb, '\n');
    }
    tap_comment(sb, c->text);
}
