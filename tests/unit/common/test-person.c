#include "test.h"
#include "person.h"
#include "trailer.h"

#include <glib.h>

static void person(const char *in, const char *name, const char *email)
{
	char *n, *e;
	char what[256];

	ms_person_parse(in, -1, &n, &e);
	snprintf(what, sizeof(what), "name of '%s'", in);
	is_str(n, name, what);
	snprintf(what, sizeof(what), "email of '%s'", in);
	is_str(e, email, what);
	g_free(n);
	g_free(e);
}

static void norm(const char *in, int fold, const char *want)
{
	char *got = ms_email_normalize(in, fold);

	is_str(got, want, in);
	g_free(got);
}

static void block(const char *msg, const char *want)
{
	size_t s, e;
	bool found = ms_trailer_block(msg, strlen(msg), &s, &e);
	char *got = found ? g_strndup(msg + s, e - s) : NULL;

	is_str(got, want, "trailer block");
	g_free(got);
}

struct blocks {
	const char *msg;
	GString *out;
};

static void collect(size_t start, size_t end, void *data)
{
	struct blocks *b = data;

	g_string_append_printf(b->out, "[%.*s]", (int)(end - start),
			       b->msg + start);
}

static void blocks(const char *msg, const char *want)
{
	struct blocks b = { msg, g_string_new(NULL) };

	ms_trailer_blocks(msg, strlen(msg), collect, &b);
	is_str(b.out->str, want, "trailer blocks");
	g_string_free(b.out, TRUE);
}

int main(void)
{
	struct ms_trailer_line t;
	const char *l;

	person("Jane Doe <jane@example.com>", "Jane Doe", "jane@example.com");
	person("\"Doe, Jane\" <jane@example.com>", "Doe, Jane",
	       "jane@example.com");
	person("jane@example.com", NULL, "jane@example.com");
	person("<jane@example.com>", NULL, "jane@example.com");
	person("jane@example.com (Jane Doe)", "Jane Doe", "jane@example.com");
	person("Jane Doe <jane@example.com> # 5.10.x", "Jane Doe",
	       "jane@example.com");
	person("stable@vger.kernel.org # v6.1+", NULL,
	       "stable@vger.kernel.org");
	person("Just A Name", "Just A Name", NULL);
	person("  ", NULL, NULL);

	norm("Jane.Doe+netdev@Example.COM", 1, "jane.doe@example.com");
	norm("Jane.Doe+netdev@Example.COM", 0, "jane.doe+netdev@example.com");
	/* malformed addresses, recognised (issue 35) or not */
	norm("[hs@denx.de]", 1, "hs@denx.de");
	norm("swarren at nvidia.com", 1, "swarren@nvidia.com");
	norm("x (at) y dot org", 1, "x@y.org");
	norm("mailto:Ann@B.C", 1, "ann@b.c");
	norm("rahul.singh@arm.com<mailto:rahul.singh@arm.com", 1,
	     "rahul.singh@arm.com");
	norm("al.kochet@gmail.com <mailto:al.kochet@gmail.com", 1,
	     "al.kochet@gmail.com");
	norm("hs@pollux.(none)", 1, "hs@pollux.(none)");
	ok(ms_email_malformed("hs@pollux.(none)") &&
	   ms_email_malformed("george.dunlap.com") &&
	   !ms_email_malformed("hs@denx.de") && !ms_email_malformed(""),
	   "malformed: '(none)' and no '@'; not an address or nothing");
	{
		char *k1 = ms_name_key("Amazon.co.jp");
		char *k2 = ms_name_key("kernel test robot");
		char *k3 = ms_name_key("Acme Widgets GmbH");
		char *k4 = ms_name_key("Ye.Li");

		ok(!k1 && !k2 && !k3, "a domain, a program, a company: no "
		   "name to join by");
		is_str(k4, "ye li", "a local part written as a name is one");
		g_free(k1);
		g_free(k2);
		g_free(k3);
		g_free(k4);
	}
	norm("+x@example.com", 1, "+x@example.com");

	l = "reviewed-BY: Rob <rob@example.org>  ";
	ok(ms_trailer_parse_line(l, strlen(l), &t), "trailer line parsed");
	is_int(t.kind, MS_TRAILER_REVIEWED_BY, "token case-insensitive");
	ok(t.is_person, "*-by is a person");
	is_int((long)t.value_len, (long)strlen("Rob <rob@example.org>"),
	       "value trimmed");
	l = "Debugged-by: X <x@y.z>";
	ok(ms_trailer_parse_line(l, strlen(l), &t) &&
	   t.kind == MS_TRAILER_OTHER && t.is_person, "other *-by token");
	l = "https://example.com/x";
	ok(!ms_trailer_parse_line(l, strlen(l), &t), "URL is no trailer");
	l = "Not a trailer: because spaces in token";
	ok(!ms_trailer_parse_line(l, strlen(l), &t), "spaces in token");
	l = "Link:";
	ok(!ms_trailer_parse_line(l, strlen(l), &t), "empty value");

	block("subject\n\nbody text\n\nSigned-off-by: A <a@b.c>\n"
	      "Reviewed-by: R <r@b.c>\n\n",
	      "Signed-off-by: A <a@b.c>\nReviewed-by: R <r@b.c>");
	block("Signed-off-by: A <a@b.c>\n", NULL);
	block("subject\n\nbody text only\n", NULL);
	block("subject\n\n[ fixed up ]\nSigned-off-by: A <a@b.c>\n"
	      "Link: https://lore.kernel.org/r/x@y\n",
	      "[ fixed up ]\nSigned-off-by: A <a@b.c>\n"
	      "Link: https://lore.kernel.org/r/x@y");
	block("subject\n\nFixes: 123456789abc (\"long\n  subject\")\n"
	      "Signed-off-by: A <a@b.c>",
	      "Fixes: 123456789abc (\"long\n  subject\")\n"
	      "Signed-off-by: A <a@b.c>");
	block("subject\n\nline one\nline two\nline three\nline four\n"
	      "Signed-off-by: A <a@b.c>\n", NULL);
	/* a committer's note and Signed-off-by after the original block:
	 * both blocks count */
	blocks("subject\n\nBody.\n\nReviewed-by: R <r@x.y>\n"
	       "Signed-off-by: A <a@b.c>\n\nRe-committed with a tag "
	       "removed.\n\nSigned-off-by: C <c@d.e>\n",
	       "[Reviewed-by: R <r@x.y>\nSigned-off-by: A <a@b.c>]"
	       "[Signed-off-by: C <c@d.e>]");
	/* prose and indented lines are no block; a paragraph of unknown
	 * tokens only is none either */
	blocks("subject\n\nNote: a remark\n\n    Reviewed-by: Q <q@x.y>\n"
	       "\nSigned-off-by: A <a@b.c>\n", "[Signed-off-by: A <a@b.c>]");
	blocks("Reviewed-by: S <s@x.y>\n\nbody\n", "");
	/* git's rule: a line starting "---" ends the message (Xen
	 * 09de61c200c0: trailers, then "---" and Cc: lines) */
	blocks("subject\n\nBody.\n\nAcked-by: O <o@x.y>\n"
	       "Reviewed-by: D <d@x.y>\n---\nCC: A <a@x.y>\n"
	       "CC: J <j@x.y>\n\nv2:\n * New\n",
	       "[Acked-by: O <o@x.y>\nReviewed-by: D <d@x.y>]");
	block("subject\n\nBody.\n\nSigned-off-by: A <a@b.c>\n---\n"
	      "notes\n", "Signed-off-by: A <a@b.c>");
	block("subject\n\nBody.\n\nSigned-off-by: A <a@b.c>\n"
	      "----- a ruler\nmore\n", "Signed-off-by: A <a@b.c>\n"
	      "----- a ruler\nmore");
	return test_done();
}
