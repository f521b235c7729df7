/*
 * test-mail.c - the mail model: Date and Subject parsers, patch-id, the
 * per-message parse (fixtures/mail/parse.mbox) and the index's threads,
 * series, versions and review tags (fixtures/mail/rules.mbox).  Expected
 * values are the facts the fixtures plant (see fixtures/mail/README.md).
 */
#include "ident.h"
#include "mail.h"
#include "mapped.h"
#include "test.h"

#include <glib.h>
#include <fcntl.h>
#include <glib/gstdio.h>
#include <string.h>
#include <unistd.h>

static void test_dates(void)
{
	static const struct {
		const char *in;
		int64_t t;
		int tz;
	} good[] = {
		{ "Thu, 5 Jan 2023 10:00:00 +0000", 1672912800, 0 },
		{ "5 Jan 2023 10:00:00 +0100", 1672909200, 60 },
		{ "Thu,  5 Jan 2023 10:00 -0530", 1672932600, -330 },
		{ "Thu, 05 Jan 23 10:00:00 EST", 1672930800, -300 },
		{ "Thu, 5 Jan 99 10:00:00 GMT", 915530400, 0 },
		{ "Thu, 5 Jan 123 10:00:00 UT", 1672912800, 0 },
		{ "(comment) Thu, 5 (x) Jan 2023 10:00:00 +0000 (UTC)",
		  1672912800, 0 },
		{ "Thu, 5 Jan 2023 10:00:00 PDT", 1672938000, -420 },
		{ "Thu, 5 Jan 2023 10:00:00 z", 1672912800, 0 },
		{ "Sat, 31 Dec 2016 23:59:60 +0000", 1483228800, 0 },
		{ "Thu, 29 Feb 2024 00:00:00 +0000", 1709164800, 0 },
		/* before 1902 (a 32-bit time_t) and before 1970 */
		{ "Mon, 1 Jan 1900 00:00:00 +0000", -2208988800LL, 0 },
		{ "Fri, 13 Dec 1901 20:45:51 +0000", -2147483649LL, 0 },
		{ "Wed, 31 Dec 1969 23:59:59 -0100", 3599, -60 },
	};
	static const char *const bad[] = {
		"Mon, 1 Jan 0000 00:00:00 +0000",
		"Sun, 31 Dec 1899 23:59:59 +0000",
		"Fri, 31 Dec 9999 23:59:59 +0000",
		"Thu, 31 Feb 2023 10:00:00 +0000",
		"Thu, 29 Feb 2023 10:00:00 +0000",
		"Thu, 5 Jan 2023 25:00:00 +0000",
		"Thu, 5 Jan 2023 10:61:00 +0000",
		"Thu, 5 Foo 2023 10:00:00 +0000",
		"Thu, 5 Jan 2023 10:00:00 +0099",
		"yesterday",
		"",
	};
	for (size_t i = 0; i < G_N_ELEMENTS(good); i++) {
		int64_t t = 0;
		int tz = 99;
		char *what = g_strdup_printf("date '%s'", good[i].in);
		ok(ms_mail_parse_date(good[i].in, &t, &tz), what);
		is_int(t, good[i].t, what);
		is_int(tz, good[i].tz, what);
		g_free(what);
	}
	for (size_t i = 0; i < G_N_ELEMENTS(bad); i++) {
		int64_t t;
		int tz;
		char *what = g_strdup_printf("impossible date '%s' flagged",
					     bad[i]);
		ok(!ms_mail_parse_date(bad[i], &t, &tz), what);
		g_free(what);
	}
	ok(!ms_mail_parse_date(NULL, NULL, NULL), "no date");
}

static void test_subjects(void)
{
	struct ms_mail_subject s;

	ms_mail_parse_subject("[PATCH net-next v3 02/17] net: foo: bar", &s);
	ok(s.patch && !s.rfc && !s.resend && !s.pull, "patch flags");
	is_int(s.version, 3, "version");
	is_int(s.number, 2, "number");
	is_int(s.total, 17, "total");
	is_str(s.tree, "net-next", "tree");
	is_str(s.normalized, "net: foo: bar", "normalized");
	is_int(s.reply_depth, 0, "not a reply");
	ms_mail_subject_release(&s);

	ms_mail_parse_subject("Re: RE: Aw: [RFC PATCH] x", &s);
	ok(s.rfc && s.patch, "RFC PATCH");
	is_int(s.reply_depth, 3, "Re: RE: Aw: chain");
	is_int(s.version, 1, "version defaults to 1");
	is_str(s.normalized, "x", "normalized after chain");
	ms_mail_subject_release(&s);

	ms_mail_parse_subject("[PATCH RESEND 0/3]  two   spaces ", &s);
	ok(s.resend, "RESEND");
	is_int(s.number, 0, "cover number");
	is_int(s.total, 3, "cover total");
	is_str(s.normalized, "two spaces", "spaces folded");
	ms_mail_subject_release(&s);

	ms_mail_parse_subject("[GIT PULL] rdma fixes", &s);
	ok(s.pull && !s.patch, "GIT PULL");
	is_str(s.prefixes, "GIT PULL", "prefixes kept");
	ms_mail_subject_release(&s);

	/* netdev's request-pull mails carry the diff but are no patch */
	ms_mail_parse_subject("pull-request: mlx5-next 2023-01-24 V2", &s);
	ok(s.pull, "pull-request: subject");
	ms_mail_subject_release(&s);
	ms_mail_parse_subject("Re: Pull Request: x", &s);
	ok(s.pull && s.reply_depth == 1, "reply to a pull request");
	ms_mail_subject_release(&s);
	ms_mail_parse_subject("[PATCH] pull-requests: fix", &s);
	ok(!s.pull && s.patch, "pull-requests: is a patch's subject");
	ms_mail_subject_release(&s);

	ms_mail_parse_subject("Fwd: [PATCHv4 1/2] y", &s);
	ok(s.forward && s.patch, "Fwd: PATCHv4");
	is_int(s.version, 4, "PATCHv4 version");
	ms_mail_subject_release(&s);

	ms_mail_parse_subject("Re[2]: [bug report] z", &s);
	is_int(s.reply_depth, 1, "Re[2]:");
	ok(!s.patch, "[bug report] is no patch");
	is_str(s.tree, NULL, "untagged bracket has no tree");
	ms_mail_subject_release(&s);

	ms_mail_parse_subject(NULL, &s);
	is_str(s.normalized, "", "no subject");
	ms_mail_subject_release(&s);
}

/* ms_mail_subject_normalize() is ms_mail_parse_subject()'s normalized. */
static void test_subject_normalize(void)
{
	static const char *const subjects[] = {
		"[PATCH net-next v3 02/17] net: foo: bar",
		"Re: RE: Aw: [RFC PATCH] x", "  [PATCH RESEND 0/3]  two   "
		"spaces ", "Fwd: [PATCHv4 1/2] y", "Re[2]: [bug report] z",
		"a [bracket] inside", "[unclosed bracket", "\t\t", "",
		"net: plain   summary\tline",
	};
	char out[64], what[96];

	for (size_t i = 0; i < G_N_ELEMENTS(subjects); i++) {
		struct ms_mail_subject s;
		size_t n = ms_mail_subject_normalize(subjects[i], out);

		ms_mail_parse_subject(subjects[i], &s);
		snprintf(what, sizeof(what), "normalized '%s'", subjects[i]);
		is_str(out, s.normalized, what);
		is_int(n, strlen(s.normalized), "... its length");
		ms_mail_subject_release(&s);
	}
	is_int(ms_mail_subject_normalize(NULL, out), 0, "no subject");
	is_str(out, "", "... is empty");
}

static void test_patch_id(void)
{
	/* expected values from `git patch-id --stable` (git 2.39) */
	static const char text[] =
		"Subject: x\n\nmsg\n---\n"
		"diff --git a/b.c b/b.c\nindex 1..2 100644\n--- a/b.c\n"
		"+++ b/b.c\n@@ -1,2 +1,2 @@\n-old\n+new\n ctx\n"
		"diff --git a/a.c b/a.c\nindex 1..2 100644\n--- a/a.c\n"
		"+++ b/a.c\n@@ -10,3 +10,4 @@ fn\n a\n+b\n c\n d\n-- \n2.39.0\n";
	static const char swapped[] =
		"Subject: x\n\nmsg\n---\n"
		"diff --git a/a.c b/a.c\nindex 1..2 100644\n--- a/a.c\n"
		"+++ b/a.c\n@@ -10,3 +10,4 @@ fn\n a\n+b\n c\n d\n"
		"diff --git a/b.c b/b.c\nindex 1..2 100644\n--- a/b.c\n"
		"+++ b/b.c\n@@ -1,2 +1,2 @@\n-old\n+new\n ctx\n-- \n2.39.0\n";
	char hex[41];

	ok(ms_patch_id(text, sizeof text - 1, hex), "patch-id found");
	is_str(hex, "480339959dffdc251c1426075df0d568010704ef",
	       "patch-id as git patch-id --stable");
	ok(ms_patch_id(swapped, sizeof swapped - 1, hex), "swapped found");
	is_str(hex, "480339959dffdc251c1426075df0d568010704ef",
	       "stable patch-id ignores file order");
	ok(!ms_patch_id("no diff here\n", 13, hex), "no diff, no id");
}

static int collect(const char *raw, size_t len,
		   const struct ms_mail_source *src, void *data)
{
	GHashTable *by_id = data;
	struct ms_mail *m = ms_mail_parse(raw, len, src->problems,
					  MS_MAIL_PARSE_KEEP_BODY);
	if (m->message_id && !g_hash_table_contains(by_id, m->message_id))
		g_hash_table_insert(by_id, g_strdup(m->message_id), m);
	else
		ms_mail_free(m);
	return 0;
}

static GHashTable *read_fixture(const char *name)
{
	const char *dir = g_getenv("MS_FIXTURES");
	char *path = g_build_filename(dir ? dir : "fixtures", "mail", name,
				      NULL);
	GHashTable *by_id = g_hash_table_new_full(
		g_str_hash, g_str_equal, g_free,
		(GDestroyNotify)ms_mail_free);
	struct ms_mail_read_result r;

	ms_mail_read_result_init(&r);
	is_int(ms_mbox_read(path, NULL, collect, by_id, &r), 0, path);
	ms_mail_read_result_release(&r);
	g_free(path);
	return by_id;
}

static const struct ms_mail_trailer *trailer(const struct ms_mail *m,
					     guint i)
{
	return i < m->trailers->len ? m->trailers->pdata[i] : NULL;
}

static void test_parse(void)
{
	GHashTable *all = read_fixture("parse.mbox");
	const struct ms_mail *m;
	const struct ms_mail_trailer *t;

	m = g_hash_table_lookup(all, "rfc2047@example.de");
	ok(m != NULL, "rfc2047 message parsed");
	if (m) {
		is_str(m->from_name, "J\xc3\xb6rg M\xc3\xbcller",
		       "From: RFC 2047 decoded");
		is_str(m->in_reply_to, "three@x", "In-Reply-To id");
		is_int(m->references->len, 3, "junk between References");
		is_str(g_ptr_array_index(m->references, 1), "two@x",
		       "second reference");
		is_str(m->list_id, "foo.lists.example.org", "List-Id");
		is_int(m->date, 1672930800, "obsolete date form");
		is_int(m->date_tz, -300, "EST zone");
		is_int(m->subject.reply_depth, 2, "Re: Aw: in encoded subject");
		is_int(m->subject.number, 2, "02/17");
		is_int(m->quoted_lines, 2, "quoted lines");
		is_int(m->trailers->len, 2, "quoted trailers ignored");
		t = trailer(m, 0);
		ok(t && t->kind == MS_TRAILER_TESTED_BY, "Tested-by kept");
		if (t)
			is_str(t->name, "J\xc3\xb6rg M\xc3\xbcller",
			       "QP + Latin-1 decoded trailer name");
		is_int(m->kind, MS_MAIL_REVIEW, "reply with Tested-by");
		is_int(m->problems, 0, "no problems");
	}
	m = g_hash_table_lookup(all, "base64@example.fr");
	ok(m != NULL, "base64 message parsed");
	if (m) {
		is_str(m->from_name, "Base, Bea", "quoted display name");
		t = trailer(m, 0);
		ok(t && t->kind == MS_TRAILER_REVIEWED_BY, "base64 trailer");
		if (t)
			is_str(t->email, "bea@example.fr", "trailer email");
		ok(m->subject.rfc && m->subject.resend, "RFC RESEND");
		is_int(m->date_tz, 60, "zone with comment");
	}
	m = g_hash_table_lookup(all, "attach@example.com");
	ok(m != NULL, "attachment message parsed");
	if (m) {
		ok(m->has_diff && m->diff_in_attachment, "patch attachment");
		is_int(m->files->len, 1, "one file");
		is_str(g_ptr_array_index(m->files, 0), "fs/attach.c", "path");
		is_int(m->lines_added, 2, "added");
		ok(m->patch_id != NULL, "attachment patch-id");
		is_int(m->kind, MS_MAIL_PATCH, "attached patch is a patch");
	}
	m = g_hash_table_lookup(all, "plain@example.com");
	ok(m != NULL, "plain diff parsed");
	if (m) {
		is_int(m->files->len, 2, "plain ---/+++ files");
		is_str(g_ptr_array_index(m->files, 0), "src/plain.c",
		       "p1 path");
		is_str(g_ptr_array_index(m->files, 1), "src/new.c",
		       "/dev/null side skipped");
		is_int(m->lines_added, 2, "plain added");
		is_int(m->lines_removed, 1, "plain removed");
		is_int(m->subject.version, 4, "[PATCH 2/5 v4]");
	}
	m = g_hash_table_lookup(all, "000000000000abcd@google.com");
	ok(m && m->kind == MS_MAIL_BOT, "syzbot is a bot");
	/* bounces sent to the list (linux-erofs: postmaster@aliyun.com's
	 * nine, three from a "Mail Delivery System") */
	for (int i = 0; i < 2; i++) {
		static const char *const bounce[] = {
			"From: postmaster@aliyun.example\nSubject: returned\n"
			"Message-ID: <b1@x>\n\nundelivered\n",
			"From: Mail Delivery System <MAILER-DAEMON@mx.example>\n"
			"Subject: Mail delivery failed\nMessage-ID: <b2@x>\n\n"
			"undelivered\n",
		};
		struct ms_mail *b = ms_mail_parse(bounce[i], strlen(bounce[i]),
						  0, 0);

		ok(b && b->kind == MS_MAIL_BOT, i ?
		   "a bounce from a Mail Delivery System is a bot's" :
		   "a bounce from postmaster@ is a bot's");
		ms_mail_free(b);
	}
	/* "bot" a word of the local part (linux-leds: sashiko-bot@kernel.org
	 * reviews, 2026); a name that only holds the letters is a person */
	for (int i = 0; i < 4; i++) {
		static const char *const from[] = {
			"sashiko-bot@kernel.org", "bugbot@kernel.org",
			"martin.botka1@example.com", "talbot@example.org",
		};
		char *text = g_strdup_printf("From: %s\nSubject: Re: x\n"
					     "Message-ID: <r%d@x>\n\nok\n",
					     from[i], i);
		struct ms_mail *b = ms_mail_parse(text, strlen(text), 0, 0);

		ok(b && (b->kind == MS_MAIL_BOT) == (i < 2), "%s: %s", from[i],
		   i < 2 ? "a bot" : "a person");
		ms_mail_free(b);
		g_free(text);
	}
	m = g_hash_table_lookup(all, "baddate@example.com");
	ok(m && !m->date_valid &&
		   (m->problems & (1u << MS_MAIL_P_BAD_DATE)),
	   "Feb 31 flagged, not guessed");
	g_hash_table_unref(all);

	all = read_fixture("rules.mbox");
	m = g_hash_table_lookup(all, "c-1@kernel.org");
	ok(m && m->sender_rewritten, "B4 Relay sender rewritten");
	if (m) {
		is_str(m->sender_email, "carol@example.com",
		       "X-Original-From");
		is_str(m->sender_name, "Carol Relay", "relay name");
	}
	m = g_hash_table_lookup(all, "frank-1@example.com");
	ok(m && m->sender_rewritten, "DMARC via sender rewritten");
	if (m) {
		is_str(m->sender_email, "frank@example.com", "Reply-To");
		is_str(m->sender_name, "Frank Critic", "via stripped");
		is_int(m->kind, MS_MAIL_NACK, "Nacked-by reply");
	}
	m = g_hash_table_lookup(all, "b1-0@example.net");
	ok(m && m->change_id && !strcmp(m->change_id, "20230107-baz-1234"),
	   "b4 change-id");
	m = g_hash_table_lookup(all, "pw-1@kernel.org");
	ok(m && m->kind == MS_MAIL_BOT &&
	   m->notice == MS_MAIL_NOTICE_APPLIED,
	   "patchwork-bot applied notice");
	m = g_hash_table_lookup(all, "grace-1@example.com");
	ok(m && m->kind == MS_MAIL_PULL, "GIT PULL");
	g_hash_table_unref(all);
}

static int index_one(const char *raw, size_t len,
		     const struct ms_mail_source *src, void *data)
{
	struct ms_mail *m = ms_mail_parse(raw, len, src->problems, 0);
	ms_mail_index_add(data, m);
	ms_mail_free(m);
	return 0;
}

static void count_review(const struct ms_mail_rec *from,
			 const struct ms_mail_tag *tag, void *data)
{
	GString *s = data;
	g_string_append_printf(s, "%s%s:%s", s->len ? "," : "",
			       ms_trailer_kind_name(tag->kind),
			       from->sender_email);
}

static char *reviews(struct ms_mail_index *idx, const char *id)
{
	const struct ms_mail_rec *r = ms_mail_index_find(idx, id);
	GString *s = g_string_new(NULL);

	if (r)
		ms_mail_index_patch_reviews(
			idx, (uint32_t)(r - ms_mail_index_get(idx, 0)),
			count_review, s);
	return g_string_free(s, FALSE);
}

/* The pre-image blobs of a diff's "index A..B" lines (review's blob
 * rule): lowercase, once each; no new file's zeros, no empty blob, no
 * id shorter than 7 digits, none before the first "diff --git". */
static void test_preimages(void)
{
	static const char raw[] =
		"From: A <a@x>\nSubject: [PATCH] x: y\n"
		"Message-ID: <pre@x>\n\nindex 1111111111..2222222 here\n"
		"---\n"
		"diff --git a/a.c b/a.c\nindex 0FFC3C02247D..f3a2b1c9 100644\n"
		"--- a/a.c\n+++ b/a.c\n@@ -1 +1 @@\n-a\n+b\n"
		"diff --git a/n.c b/n.c\nnew file mode 100644\n"
		"index 0000000000..abcdef0123\n--- /dev/null\n+++ b/n.c\n"
		"@@ -0,0 +1 @@\n+n\n"
		"diff --git a/e.c b/e.c\nindex e69de29bb2..abcdef0123 100644\n"
		"--- a/e.c\n+++ b/e.c\n@@ -0,0 +1 @@\n+e\n"
		"diff --git a/s.c b/s.c\nindex abcdef..1234567\n"
		"--- a/s.c\n+++ b/s.c\n@@ -1 +1 @@\n-s\n+t\n"
		"diff --git a/b.c b/b.c\nindex 0ffc3c02247d..1234567\n"
		"--- a/b.c\n+++ b/b.c\n@@ -1 +1 @@\n-a\n+b\n"
		"diff --git a/c.c b/c.c\nindex 89abcdef0..7654321 100755\n"
		"--- a/c.c\n+++ b/c.c\n@@ -1 +1 @@\n-c\n+d\n";
	struct ms_mail *m = ms_mail_parse(raw, sizeof raw - 1, 0, 0);

	is_int(m->files->len, 6, "six files");
	is_int(m->preimages->len, 3, "three pre-images: no zeros, no empty "
	       "blob, no 6-digit id, none before the diff; one blob of two "
	       "files twice, with each path");
	if (m->preimages->len == 3) {
		is_str(m->preimages->pdata[0], "0ffc3c02247d a.c",
		       "lowercase, with the file it is of");
		is_str(m->preimages->pdata[1], "0ffc3c02247d b.c",
		       "the same blob as another file's");
		is_str(m->preimages->pdata[2], "89abcdef0 c.c", "with a mode");
	}
	ms_mail_free(m);
}

static void test_index(void)
{
	const char *dir = g_getenv("MS_FIXTURES");
	char *path = g_build_filename(dir ? dir : "fixtures", "mail",
				      "rules.mbox", NULL);
	struct ms_mail_index *idx = ms_mail_index_new();
	struct ms_mail_read_result r;
	struct ms_mail_stats st;
	const struct ms_mail_rec *a, *b;
	char *s;

	ms_mail_read_result_init(&r);
	is_int(ms_mbox_read(path, NULL, index_one, idx, &r), 0, "read rules");
	ms_mail_index_finish(idx);
	ms_mail_index_stats(idx, &st);
	is_int(st.messages, 20, "messages");
	is_int(st.message_ids, 19, "duplicate id counted once");
	is_int(st.patches, 7, "patches (duplicate not counted)");
	is_int(st.cover_letters, 4, "cover letters");
	is_int(st.series_postings, 5, "series postings");
	is_int(st.series, 3, "series linked across versions");
	is_int(st.replies, 4, "replies");
	is_int(st.review_replies, 2, "review replies");
	is_int(st.nacks, 1, "nacks");
	is_int(st.reviewed_patches, 3, "reviewed patches incl. via cover");
	is_int(st.bots, 2, "bots");
	is_int(st.applied_notices, 1, "applied notices");
	is_int(st.pulls, 1, "pull requests");
	is_int(st.threads, 8, "threads");
	is_int(st.senders, 11, "senders");

	s = reviews(idx, "a1-2@example.com");
	is_str(s, "Reviewed-by:bob@example.com",
	       "cover-letter review applies to patch 2/2");
	g_free(s);
	s = reviews(idx, "c-1@kernel.org");
	is_str(s, "Acked-by:dave@example.com",
	       "ack that arrived before its patch");
	g_free(s);
	s = reviews(idx, "a2-2@example.com");
	is_str(s, "", "v1 review does not carry to v2");
	g_free(s);

	a = ms_mail_index_find(idx, "a1-1@example.com");
	b = ms_mail_index_find(idx, "a2-1@example.com");
	ok(a && b && a->series != b->series, "v1 and v2 are two postings");
	if (a && b)
		is_int(ms_mail_index_series(idx, (uint32_t)a->series)->family,
		       ms_mail_index_series(idx, (uint32_t)b->series)->family,
		       "v1 and v2 linked by subject and author");
	a = ms_mail_index_find(idx, "b1-1@example.net");
	b = ms_mail_index_find(idx, "b2-1@example.net");
	if (a && b)
		is_int(ms_mail_index_series(idx, (uint32_t)a->series)->family,
		       ms_mail_index_series(idx, (uint32_t)b->series)->family,
		       "renamed v2 linked by change-id");
	a = ms_mail_index_find(idx, "a1-0@example.com");
	if (a) {
		const struct ms_mail_series *ser =
			ms_mail_index_series(idx, (uint32_t)a->series);
		ok(ser->has_cover, "cover letter heads its series");
		is_int(ser->patches->len, 2, "two patches in v1");
	}
	a = ms_mail_index_find(idx, "dave-1@example.com");
	b = ms_mail_index_find(idx, "c-1@kernel.org");
	ok(a && b && a->thread == b->thread, "out-of-order reply threaded");
	a = ms_mail_index_find(idx, "erin-1@example.com");
	b = ms_mail_index_find(idx, "ivan-1@example.com");
	ok(a && b && a->thread != b->thread, "missing parent: own thread");
	ms_mail_read_result_release(&r);
	ms_mail_index_free(idx);
	g_free(path);
}

/* An answer from Outlook keeps the patch's subject without "Re:" and
 * quotes its diff (fixtures/mail/README.md, outlook.mbox). */
static void test_quoting_reply(void)
{
	const char *dir = g_getenv("MS_FIXTURES");
	char *path = g_build_filename(dir ? dir : "fixtures", "mail",
				      "outlook.mbox", NULL);
	struct ms_mail_index *idx = ms_mail_index_new();
	struct ms_mail_read_result r;
	struct ms_mail_stats st;
	const struct ms_mail_rec *a;
	char *s;

	ms_mail_read_result_init(&r);
	is_int(ms_mbox_read(path, NULL, index_one, idx, &r), 0, "read outlook");
	ms_mail_index_finish(idx);
	ms_mail_index_stats(idx, &st);
	is_int(st.messages, 3, "outlook: messages");
	is_int(st.patches, 2, "outlook: the patch and its resend");
	is_int(st.replies, 1, "outlook: the quoting answer is a reply");
	a = ms_mail_index_find(idx, "37ee1818@mbx.example.net");
	ok(a && a->kind == MS_MAIL_REPLY, "outlook: answer is a reply");
	a = ms_mail_index_find(idx, "gao-2-resend@example.com");
	ok(a && a->kind == MS_MAIL_PATCH, "outlook: own resend stays a patch");
	s = reviews(idx, "gao-2@example.com");
	is_str(s, "Tested-by:hongyu@example.net",
	       "outlook: the answer's Tested-by goes to the patch");
	g_free(s);
	ms_mail_read_result_release(&r);
	ms_mail_index_free(idx);
	g_free(path);
}

static void test_bad_input(void)
{
	/* messages built here: no headers, NUL bytes, no newline at all */
	static const char nul[] = "Subject: a\0b\nMessage-ID: <n@x>\n\nx\0y\n";
	struct ms_mail *m;

	m = ms_mail_parse(nul, sizeof nul - 1, 0, 0);
	ok(m->problems & (1u << MS_MAIL_P_NUL_BYTES), "NUL bytes flagged");
	is_str(m->message_id, "n@x", "headers after a NUL still read");
	ms_mail_free(m);
	m = ms_mail_parse("", 0, 0, 0);
	ok(m->problems & (1u << MS_MAIL_P_NO_HEADERS), "empty message");
	ms_mail_free(m);
	m = ms_mail_parse("Subject: only", 13, 0, 0);
	is_str(m->subject_raw, "only", "header without newline");
	ms_mail_free(m);
}

/*
 * A single-part quoted-printable or base64 body is decoded without
 * GMime's parser (mail.c): the text must be what the parser gives for the
 * same part inside a nested multipart, which still goes through it.
 */
static struct ms_mail *parse_part(const char *ct, const char *cte,
				  const char *body, bool wrapped)
{
	GString *raw = g_string_new("Message-ID: <p@x>\n"
				    "Date: Thu, 5 Jan 2023 10:00:00 +0000\n"
				    "Subject: [PATCH] x\n");
	struct ms_mail *m;

	/* two levels: mail-multipart.c leaves nested ones to GMime */
	if (wrapped)
		g_string_append_printf(raw, "Content-Type: multipart/mixed; "
				       "boundary=\"a\"\n\n--a\n"
				       "Content-Type: multipart/mixed; "
				       "boundary=\"b\"\n\n--b\n");
	g_string_append_printf(raw, "Content-Type: %s\n"
			       "Content-Transfer-Encoding: %s\n\n%s", ct, cte,
			       body);
	if (wrapped)
		g_string_append(raw, "\n--b--\n\n--a--\n");
	m = ms_mail_parse(raw->str, raw->len, 0, MS_MAIL_PARSE_KEEP_BODY);
	g_string_free(raw, TRUE);
	return m;
}

static void test_transfer_encodings(void)
{
	static const struct {
		const char *ct, *cte, *body, *text;
		uint32_t problems;
	} cases[] = {
		{ "text/plain; charset=utf-8", "quoted-printable",
		  "Soft=\nbreak, caf=C3=A9 =3D x\n\nReviewed-by: A <a@x>\n",
		  "Softbreak, caf\xc3\xa9 = x\n\nReviewed-by: A <a@x>\n", 0 },
		{ "text/plain; charset=\"iso-8859-1\"", "Quoted-Printable",
		  "J=F6rg\n", "J\xc3\xb6rg\n", 0 },
		{ "text/plain", "base64",
		  "UmV2aWV3ZWQtYnk6IEIgPGJAeD4K\n", "Reviewed-by: B <b@x>\n",
		  0 },
		{ "text/plain", "base64", "UmV2!aWV3\n", NULL,
		  1u << MS_MAIL_P_BAD_BASE64 },
		{ "text/plain; charset=x-no-such-set", "quoted-printable",
		  "a=E9b\n", NULL, 1u << MS_MAIL_P_UNKNOWN_CHARSET },
	};

	for (size_t i = 0; i < G_N_ELEMENTS(cases); i++) {
		struct ms_mail *m = parse_part(cases[i].ct, cases[i].cte,
					       cases[i].body, false);
		struct ms_mail *w = parse_part(cases[i].ct, cases[i].cte,
					       cases[i].body, true);
		char *what = g_strdup_printf("%s %s", cases[i].cte,
					     cases[i].ct);

		if (cases[i].text)
			is_str(m->body, cases[i].text, what);
		is_str(m->body, w->body, what);
		is_int(m->problems, cases[i].problems, what);
		is_int(w->problems, cases[i].problems, what);
		is_int(m->trailers->len, w->trailers->len, what);
		g_free(what);
		ms_mail_free(m);
		ms_mail_free(w);
	}
}

/*
 * Multipart bodies of one level are split without GMime's parser
 * (mail-multipart.c); nested ones go through it.  The same parts, once
 * flat and once inside an outer multipart, must give the same text,
 * attached diffs and problems -- GMime's quirks included (a boundary line
 * ending in "\r\n" takes two bytes off the part before it).
 */
static struct ms_mail *parse_multipart(const char *parts, bool nested)
{
	GString *raw = g_string_new("Message-ID: <mp@x>\n"
				    "Date: Thu, 5 Jan 2023 10:00:00 +0000\n"
				    "Subject: [PATCH] x\n");
	struct ms_mail *m;

	if (nested)
		g_string_append(raw, "Content-Type: multipart/mixed; "
				"boundary=outer\n\n--outer\n");
	g_string_append_printf(raw, "Content-Type: multipart/signed; "
			       "protocol=\"application/pgp-signature\";\n"
			       " boundary=\"=-b:1\"\n\n%s", parts);
	if (nested)
		g_string_append(raw, "\n--outer--\n");
	m = ms_mail_parse(raw->str, raw->len, 0, MS_MAIL_PARSE_KEEP_BODY);
	g_string_free(raw, TRUE);
	return m;
}

static void test_multipart(void)
{
	static const struct {
		const char *what, *parts, *text;
	} cases[] = {
		{ "signed text",
		  "preamble\n--=-b:1\nContent-Type: text/plain\n\n"
		  "Reviewed-by: A <a@x>\n\n--=-b:1\n"
		  "Content-Type: application/pgp-signature; name=sig.asc\n\n"
		  "-----BEGIN PGP SIGNATURE-----\n--=-b:1--\nepilogue\n",
		  "Reviewed-by: A <a@x>\n" },
		{ "CRLF boundary lines",
		  "--=-b:1\r\nContent-Type: text/plain\r\n\r\nab\r\n"
		  "--=-b:1\r\n\r\ncd\n--=-b:1--\r\n", "ab\nc" },
		{ "html skipped, qp and latin-1 decoded",
		  "--=-b:1\nContent-Type: text/html\n\n<p>x</p>\n--=-b:1\n"
		  "Content-Type: text/plain; charset=iso-8859-1\n"
		  "Content-Transfer-Encoding: quoted-printable\n\n"
		  "J=F6rg=\n!\n--=-b:1--\n", "J\xc3\xb6rg!" },
		{ "named parts: inline first, attached after text",
		  "--=-b:1\nContent-Type: text/plain; name=a.txt\n\nfirst\n"
		  "--=-b:1\nContent-Type: application/octet-stream\n"
		  "Content-Disposition: inline; filename=\"x.patch\"\n"
		  "Content-Transfer-Encoding: base64\n\n"
		  "ZGlmZiAtLWdpdCBhL2YgYi9mCi0tLSBhL2YKKysrIGIvZgpAQCAtMSAr"
		  "MSBAQAotYQorYgo=\n--=-b:1\nContent-Type: text/plain\n"
		  "Content-Disposition: attachment\n\n"
		  "Reviewed-by: Not <given@x>\n--=-b:1--\n", "first" },
		{ "an encoded file name: GMime's to read (nothing leaks)",
		  "--=-b:1\nContent-Type: text/plain\n\nsee attached\n"
		  "--=-b:1\nContent-Type: text/x-patch\n"
		  "Content-Disposition: attachment; "
		  "filename=\"=?UTF-8?Q?0001-a.patch?=\"\n\n"
		  "diff --git a/f b/f\n--- a/f\n+++ b/f\n@@ -1 +1 @@\n"
		  "-a\n+b\n--=-b:1--\n", "see attached" },
		{ "bad base64 in a text part",
		  "--=-b:1\nContent-Type: text/plain\n"
		  "Content-Transfer-Encoding: base64\n\nab!c\n--=-b:1--\n",
		  NULL },
	};

	for (size_t i = 0; i < G_N_ELEMENTS(cases); i++) {
		struct ms_mail *m = parse_multipart(cases[i].parts, false);
		struct ms_mail *w = parse_multipart(cases[i].parts, true);

		if (cases[i].text)
			is_str(m->body, cases[i].text, cases[i].what);
		is_str(m->body, w->body, cases[i].what);
		is_str(m->attached_diff, w->attached_diff, cases[i].what);
		is_int(m->problems, w->problems, cases[i].what);
		is_int(m->trailers->len, w->trailers->len, cases[i].what);
		is_int(m->lines_added, w->lines_added, cases[i].what);
		ms_mail_free(m);
		ms_mail_free(w);
	}
}

/* ---- snapshots: an index dumped part-way, loaded and extended ---- */

static int keep_mail(const char *raw, size_t len,
		     const struct ms_mail_source *src, void *data)
{
	g_ptr_array_add(data, ms_mail_parse(raw, len, src->problems, 0));
	return 0;
}

static void list_unref(gpointer p)
{
	if (p)
		g_ptr_array_unref(p);
}

/* The per-record strings a caller keeps alongside: here sender, subject. */
static const GPtrArray *extra_of(uint32_t rec, void *data)
{
	GPtrArray *lists = data;

	return rec < lists->len ? lists->pdata[rec] : NULL;
}

static GPtrArray *extra_for(const struct ms_mail *m)
{
	GPtrArray *l;

	if (!m->subject.normalized || !*m->subject.normalized)
		return NULL;           /* some records keep no list */
	l = g_ptr_array_new();
	g_ptr_array_add(l, (gpointer)m->subject.normalized);
	g_ptr_array_add(l, (gpointer)(m->sender_email ? m->sender_email :
				      ""));
	return l;
}

/* Everything a finished index tells, as text. */
static char *describe(const struct ms_mail_index *idx)
{
	GString *s = g_string_new(NULL);
	struct ms_mail_stats st;

	for (uint32_t i = 0; i < ms_mail_index_count(idx); i++) {
		const struct ms_mail_rec *r = ms_mail_index_get(idx, i);
		const struct ms_mail_tag *t = ms_mail_index_tags(idx, r);

		g_string_append_printf(s, "%s|%s|%s|%s|%s|%s|%s|%lld|%d%d%d|"
			"%d|%u.%u.%u|%u|%u|%d|%u:", r->message_id,
			r->parent_id ? r->parent_id : "-",
			r->sender_email ? r->sender_email : "-",
			r->sender_name ? r->sender_name : "-",
			r->subject ? r->subject : "-",
			r->change_id ? r->change_id : "-",
			r->patch_id ? r->patch_id : "-", (long long)r->date,
			r->date_valid, r->duplicate, r->notice,
			(int)r->kind, r->version, r->number, r->total,
			r->problems, r->thread, r->series, r->n_review_tags);
		for (uint32_t k = 0; k < r->n_review_tags; k++)
			g_string_append_printf(s, "%d,%s,%s;", (int)t[k].kind,
					       t[k].email ? t[k].email : "-",
					       t[k].name ? t[k].name : "-");
		g_string_append_c(s, '\n');
	}
	for (uint32_t i = 0; i < ms_mail_index_series_count(idx); i++) {
		const struct ms_mail_series *ser = ms_mail_index_series(idx, i);

		g_string_append_printf(s, "series %u %d %u %u %d:", ser->root,
				       ser->has_cover, ser->version,
				       ser->total, ser->family);
		for (guint k = 0; k < ser->patches->len; k++)
			g_string_append_printf(s, " %u", g_array_index(
				ser->patches, uint32_t, k));
		g_string_append_c(s, '\n');
	}
	ms_mail_index_stats(idx, &st);
	g_string_append_printf(s, "stats %llu %llu %llu %llu %llu %llu\n",
			       (unsigned long long)st.messages,
			       (unsigned long long)st.threads,
			       (unsigned long long)st.senders,
			       (unsigned long long)st.bytes,
			       (unsigned long long)st.reviewed_patches,
			       (unsigned long long)st.message_ids);
	return g_string_free(s, FALSE);
}

/* How many of the snapshots `data` with one 4-byte word set to 0x7f7f7f7f
 * (each word in turn) load. */
static size_t words_loaded(const guint8 *data, size_t len)
{
	size_t loaded = 0;

	for (size_t off = 0; off + 4 <= len; off += 4) {
		guint8 *c = g_memdup2(data, len);
		GBytes *b;
		struct ms_mail_index *x;
		GPtrArray *e = NULL;

		memset(c + off, 0x7f, 4);
		b = g_bytes_new_take(c, len);
		x = ms_mail_index_load(b, &e);
		if (x) {
			loaded++;
			ms_mail_index_finish(x);
		}
		if (e)
			g_ptr_array_unref(e);
		ms_mail_index_free(x);
		g_bytes_unref(b);
	}
	return loaded;
}

static void test_snapshot(void)
{
	const char *dir = g_getenv("MS_FIXTURES");
	char *path = g_build_filename(dir ? dir : "fixtures", "mail",
				      "rules.mbox", NULL);
	GPtrArray *mails = g_ptr_array_new_with_free_func(
		(GDestroyNotify)ms_mail_free);
	GPtrArray *lists = g_ptr_array_new_with_free_func(list_unref);
	struct ms_mail_read_result r;
	struct ms_mail_index *whole = ms_mail_index_new();
	char *want;
	size_t n, same = 0, same_again = 0, extras_same = 0;

	ms_mail_read_result_init(&r);
	is_int(ms_mbox_read(path, NULL, keep_mail, mails, &r), 0, "read rules");
	n = mails->len;
	for (guint i = 0; i < n; i++) {
		ms_mail_index_add(whole, mails->pdata[i]);
		g_ptr_array_add(lists, NULL);
	}
	ms_mail_index_finish(whole);
	want = describe(whole);
	/* split the arrival sequence at every point: the first k messages
	 * dumped and loaded back, the rest added to the loaded index */
	for (size_t k = 0; k <= n; k++) {
		struct ms_mail_index *part = ms_mail_index_new(), *back;
		GPtrArray *ext = g_ptr_array_new_with_free_func(list_unref);
		GPtrArray *got_ext = NULL;
		GByteArray *a = g_byte_array_new();
		GBytes *b;
		char *got;
		bool ext_ok = true;

		for (size_t i = 0; i < k; i++) {
			ms_mail_index_add(part, mails->pdata[i]);
			g_ptr_array_add(ext, extra_for(mails->pdata[i]));
		}
		ok(ms_mail_index_dump(part, extra_of, ext, a), "dump");
		ms_mail_index_free(part);
		b = g_byte_array_free_to_bytes(a);
		back = ms_mail_index_load(b, &got_ext);
		if (!back || !got_ext) {
			ok(0, "a snapshot loads back");
			g_bytes_unref(b);
			g_ptr_array_unref(ext);
			continue;
		}
		for (size_t i = 0; i < k; i++) {
			const GPtrArray *w = ext->pdata[i];
			const GPtrArray *g = got_ext->pdata[i];

			if (!w != !g || (w && (w->len != g->len ||
			    strcmp(w->pdata[0], g->pdata[0]) ||
			    strcmp(w->pdata[1], g->pdata[1]))))
				ext_ok = false;
		}
		ext_ok = ext_ok && got_ext->len == k;
		extras_same += ext_ok;
		for (size_t i = k; i < n; i++)
			ms_mail_index_add(back, mails->pdata[i]);
		/* ... and dumped again (old strings kept where they were),
		 * as the next run does */
		{
			GByteArray *a2 = g_byte_array_new();
			GBytes *b2;
			struct ms_mail_index *again;

			ms_mail_index_dump(back, NULL, NULL, a2);
			b2 = g_byte_array_free_to_bytes(a2);
			again = ms_mail_index_load(b2, NULL);
			g_bytes_unref(b2);
			if (again) {
				ms_mail_index_finish(again);
				got = describe(again);
				if (!strcmp(got, want))
					same_again++;
				g_free(got);
				ms_mail_index_free(again);
			}
		}
		ms_mail_index_finish(back);
		got = describe(back);
		if (!strcmp(got, want))
			same++;
		else
			is_str(got, want, "split part-way: the same index");
		g_free(got);
		g_ptr_array_unref(got_ext);
		ms_mail_index_free(back);
		g_bytes_unref(b);
		g_ptr_array_unref(ext);
	}
	is_int(same, n + 1, "dumped at each point of the sequence, loaded "
	       "and extended: the index of one pass, record by record");
	is_int(extras_same, n + 1, "the caller's per-record strings come "
	       "back");
	is_int(same_again, n + 1, "a loaded, extended index dumped again "
	       "loads back the same");

	/* damaged or foreign bytes are refused, never read out of bounds */
	{
		struct ms_mail_index *part = ms_mail_index_new();
		GByteArray *a = g_byte_array_new();
		size_t refused = 0, len;
		guint8 *copy;

		for (guint i = 0; i < n; i++)
			ms_mail_index_add(part, mails->pdata[i]);
		ms_mail_index_dump(part, extra_of, lists, a);
		ms_mail_index_free(part);
		len = a->len;
		for (size_t cut = 0; cut < len; cut += 1 + cut / 16) {
			GBytes *b = g_bytes_new(a->data, cut);
			struct ms_mail_index *x = ms_mail_index_load(b, NULL);

			refused += !x;
			ms_mail_index_free(x);
			g_bytes_unref(b);
		}
		{
			size_t cuts = 0;

			for (size_t cut = 0; cut < len; cut += 1 + cut / 16)
				cuts++;
			is_int(refused, cuts, "every truncation refused");
		}
		copy = g_memdup2(a->data, len);
		copy[0] ^= 1;           /* the version */
		{
			GBytes *b = g_bytes_new_take(copy, len);

			ok(!ms_mail_index_load(b, NULL), "another version "
			   "refused");
			g_bytes_unref(b);
		}
		/* every 4-byte word set to a huge offset, in turn: refused
		 * by the structure's checks where it matters, and none
		 * crashes (a damaged byte the structure cannot see is the
		 * store's to refuse: its CRC-64, test-store-models) */
		ok(words_loaded(a->data, len) < len / 4, "corrupted words: "
		   "the structure's refused, none crashes");
		g_byte_array_unref(a);
	}
	g_free(want);
	ms_mail_index_free(whole);
	ms_mail_read_result_release(&r);
	g_ptr_array_unref(lists);
	g_ptr_array_unref(mails);
	g_free(path);
}

/* mail-ident.c: what the list tells the identity model. */
static void test_senders(void)
{
	static const char *const msgs[] = {
		/* the other Wei's patch, Cc'ing the listed one */
		"From: Wei Zhang <wzhang@b.example>\n"
		"Cc: Wei Zhang <wei@a.example>\n"
		"Message-ID: <p1@x>\nSubject: [PATCH] homonym: fix\n\n"
		"A fix.\n\nSigned-off-by: Wei Zhang <wzhang@b.example>\n---\n"
		"diff --git a/h.c b/h.c\n--- a/h.c\n+++ b/h.c\n@@ -1 +1 @@\n"
		"-a\n+b\n",
		/* the listed Wei reviews it (one way only would be one
		 * person reviewing their own patch: see the last two) */
		"From: Wei Zhang <wei@a.example>\n"
		"Message-ID: <r1@x>\nIn-Reply-To: <p1@x>\n"
		"Subject: Re: [PATCH] homonym: fix\n\n> A fix.\n\n"
		"Reviewed-by: Wei Zhang <wei@a.example>\n",
		/* Sam answers his own patch from a second address, without a
		 * tag, Cc'ing the first: one person */
		"From: Sam Many <sam@one.example>\n"
		"Message-ID: <p2@x>\nSubject: [PATCH] big: fix\n\n"
		"A fix.\n---\n"
		"diff --git a/b.c b/b.c\n--- a/b.c\n+++ b/b.c\n@@ -1 +1 @@\n"
		"-a\n+b\n",
		"From: Sam Many <sam@two.example>\n"
		"Cc: Sam Many <sam@one.example>\n"
		"Message-ID: <r2@x>\nIn-Reply-To: <p2@x>\n"
		"Subject: Re: [PATCH] big: fix\n\n> A fix.\n\nOops, v2 soon.\n",
		/* a DMARC rewrite without an original address */
		"From: Sam Many via Big-list <big@lists.example.org>\n"
		"Message-ID: <r3@x>\nIn-Reply-To: <p2@x>\n"
		"Subject: Re: [PATCH] big: fix\n\n> A fix.\n\nAnd again.\n",
		/* the listed Wei's patch, reviewed by the other: each
		 * reviewed the other's, so two people */
		"From: Wei Zhang <wei@a.example>\n"
		"Message-ID: <p4@x>\nSubject: [PATCH] homonym: more\n\n"
		"A fix.\n---\n"
		"diff --git a/h.c b/h.c\n--- a/h.c\n+++ b/h.c\n@@ -1 +1 @@\n"
		"-b\n+c\n",
		"From: Wei Zhang <wzhang@b.example>\n"
		"Message-ID: <r4@x>\nIn-Reply-To: <p4@x>\n"
		"Subject: Re: [PATCH] homonym: more\n\n> A fix.\n\n"
		"Reviewed-by: Wei Zhang <wzhang@b.example>\n",
		/* Xi posts each version in reply to the last, from two
		 * addresses in turn, each carrying Bo's tag (linux-erofs'
		 * Gao Xiang): no review of his, so one person */
		"From: Xi Gao <xg@one.example>\n"
		"Message-ID: <p5@x>\nSubject: [PATCH v1] multi: add\n\n"
		"A fix.\n\nReviewed-by: Bo Liu <bo@x.example>\n---\n"
		"diff --git a/m.c b/m.c\n--- a/m.c\n+++ b/m.c\n@@ -1 +1 @@\n"
		"-a\n+b\n",
		"From: Xi Gao <xg@two.example>\n"
		"Message-ID: <p6@x>\nIn-Reply-To: <p5@x>\n"
		"Subject: [PATCH v2] multi: add\n\n"
		"A fix.\n\nReviewed-by: Bo Liu <bo@x.example>\n---\n"
		"diff --git a/m.c b/m.c\n--- a/m.c\n+++ b/m.c\n@@ -1 +1 @@\n"
		"-a\n+c\n",
		"From: Xi Gao <xg@one.example>\n"
		"Message-ID: <p7@x>\nIn-Reply-To: <p6@x>\n"
		"Subject: [PATCH v3] multi: add\n\n"
		"A fix.\n\nReviewed-by: Bo Liu <bo@x.example>\n---\n"
		"diff --git a/m.c b/m.c\n--- a/m.c\n+++ b/m.c\n@@ -1 +1 @@\n"
		"-a\n+d\n",
	};
	struct ms_mail_index *idx = ms_mail_index_new();
	struct ms_ident *id = ms_ident_new(true);
	struct ms_diags diags = MS_DIAGS_INIT;
	struct ms_mail *m;
	unsigned wa, wb, s1, s2;
	const char *list, *ev;

	for (size_t i = 0; i < G_N_ELEMENTS(msgs); i++) {
		m = ms_mail_parse(msgs[i], strlen(msgs[i]), 0, 0);
		ok(ms_mail_via_list(m) == (i == 4), "via list only when the "
		   "list left no address");
		ms_mail_index_add(idx, m);
		ms_mail_free(m);
	}
	{
		static const char r[] = "From: Ann Ex via L <l@lists.example."
			"org>\nReply-To: Ann Ex <ann@x.example>\n"
			"Subject: x\n\nx\n";

		m = ms_mail_parse(r, sizeof(r) - 1, 0, 0);
	}
	ok(!ms_mail_via_list(m), "with Reply-To: the sender's own");
	ms_mail_free(m);
	{
		/* LTP's DE2G3PP72PJX.2MJ6J2Y375ATP@suse.com: the Reply-To
		 * carries the sender's name and the address of the person
		 * replied to, whom To: names */
		static const char r[] = "From: Ann Ex via L <l@lists.example."
			"org>\nReply-To: Ann Ex <mk@x.example>\n"
			"To: =?utf-8?q?Mich=C3=A1l_K?= <MK@x.example>\n"
			"Subject: x\n\nx\n";
		static const char self[] = "From: Ann Ex via L <l@lists."
			"example.org>\nReply-To: Ann Ex <ann@x.example>\n"
			"To: L <l@lists.example.org>\n"
			"Cc: Ann Ex <ann@x.example>, Bo <bo@x.example>\n"
			"Subject: x\n\nx\n";
		/* LTP's 20250327-conversions-modify_ldt-v2-6-...@suse.com */
		static const char accent[] = "From: \"Ricardo B. Marliere via "
			"L\" <l@lists.example.org>\nReply-To: rbm@x.example\n"
			"Cc: =?utf-8?q?Ricardo_B=2E_Marli=C3=A8re?= "
			"<rbm@x.example>\nSubject: x\n\nx\n";

		m = ms_mail_parse(r, sizeof(r) - 1, 0, 0);
		ok(m && ms_mail_via_list(m) &&
		   !strcmp(m->sender_email, "l@lists.example.org") &&
		   !strcmp(m->sender_name, "Ann Ex"), "a Reply-To that To: "
		   "names as another person is not the sender's address");
		ms_mail_free(m);
		m = ms_mail_parse(self, sizeof(self) - 1, 0, 0);
		ok(m && !strcmp(m->sender_email, "ann@x.example"),
		   "... her own address copied to herself still is");
		ms_mail_free(m);
		m = ms_mail_parse(accent, sizeof(accent) - 1, 0, 0);
		ok(m && !strcmp(m->sender_email, "rbm@x.example"),
		   "... also under her name spelt otherwise (b4, LTP)");
		ms_mail_free(m);
	}
	ms_mail_index_finish(idx);
	ms_mail_ident_add(id, idx, NULL);
	is_int(ms_ident_join_names(id, &diags), 2, "two name joins: Sam's, "
	       "Xi's");
	ms_mail_ident_credit(id, idx);
	wa = ms_ident_lookup(id, NULL, "wei@a.example");
	wb = ms_ident_lookup(id, NULL, "wzhang@b.example");
	s1 = ms_ident_lookup(id, NULL, "sam@one.example");
	s2 = ms_ident_lookup(id, NULL, "sam@two.example");
	ok(wa != MS_IDENT_NONE && wa != wb, "each reviewing the namesake's "
	   "patch keeps two Weis apart");
	ok(s1 != MS_IDENT_NONE && s1 == s2, "From and Cc of one name without "
	   "a review: one Sam (people copy their other address)");
	ok(ms_ident_lookup(id, NULL, "xg@one.example") != MS_IDENT_NONE &&
	   ms_ident_lookup(id, NULL, "xg@one.example") ==
	   ms_ident_lookup(id, NULL, "xg@two.example"), "versions answering "
	   "versions with another's tags are no review: one Xi");
	ok(ms_ident_shared(id, ms_ident_lookup(id, NULL,
					       "big@lists.example.org")),
	   "the rewriting list's address is shared");
	is_int(ms_ident_dmarc(id, s1, &list, &ev), 1, "its message is Sam's");
	is_str(ev ? ev : "(null)", "r3@x", "first evidence: the message");
	ms_diags_release(&diags);
	ms_ident_free(id);
	ms_mail_index_free(idx);
}

/* What the index holds grows with each message, by less for a duplicate
 * (no new strings), and passing ms_mail_max_index_size() is an error that
 * names the archive. */
static void test_index_memory(void)
{
	const char *dir = g_getenv("MS_FIXTURES");
	char *path = g_build_filename(dir ? dir : "fixtures", "mail",
				      "rules.mbox", NULL);
	GPtrArray *mails = g_ptr_array_new_with_free_func(
		(GDestroyNotify)ms_mail_free);
	struct ms_mail_index *idx = ms_mail_index_new();
	struct ms_mail_read_result r;
	size_t empty, first, again;

	ms_mail_read_result_init(&r);
	is_int(ms_mbox_read(path, NULL, keep_mail, mails, &r), 0, "read rules");
	empty = ms_mail_index_memory(idx);
	for (guint i = 0; i < mails->len; i++)
		ms_mail_index_add(idx, mails->pdata[i]);
	first = ms_mail_index_memory(idx) - empty;
	ok(first >= mails->len * sizeof(struct ms_mail_rec),
	   "each message costs at least its record");
	for (guint i = 0; i < mails->len; i++)
		ms_mail_index_add(idx, mails->pdata[i]);
	again = ms_mail_index_memory(idx) - empty - first;
	ok(again >= mails->len * sizeof(struct ms_mail_rec) && again < first,
	   "the same messages again cost their records, not their "
	   "strings");
	ms_mail_set_max_index_size(ms_mail_index_memory(idx));
	is_int(ms_mail_index_check_size(idx, path), 0, "at the limit: go on");
	ms_mail_set_max_index_size(ms_mail_index_memory(idx) - 1);
	is_int(ms_mail_index_check_size(idx, path), MS_ERROR,
	       "past the limit: an error");
	ok(strstr(ms_error_last(), path) &&
	   strstr(ms_error_last(), "after 40 messages"),
	   "naming the archive and the messages read");
	ms_mail_set_max_index_size(0);
	ok(ms_mail_max_index_size() >= (size_t)256 << 20,
	   "0: the default, at least 256 MiB");
	ms_mail_read_result_release(&r);
	ms_mail_index_free(idx);
	g_ptr_array_unref(mails);
	g_free(path);
}

/* An mbox of `n` small messages of about 1 KiB at `path`. */
static void write_mbox(const char *path, unsigned n)
{
	GString *s = g_string_new(NULL);

	for (unsigned i = 0; i < n; i++) {
		g_string_append_printf(s, "From x Mon Jan  2 10:00:00 2023\n"
				       "From: A <a@example.com>\n"
				       "Message-ID: <%u@cut>\n"
				       "Subject: message %u\n\n", i, i);
		for (int k = 0; k < 16; k++)
			g_string_append(s, "a body line of some sixty letters, "
					"as mail has them.....\n");
		g_string_append_c(s, '\n');
	}
	g_assert(g_file_set_contents(path, s->str, (gssize)s->len, NULL));
	g_string_free(s, TRUE);
}

static int cut_raw(const char *raw, size_t len,
		   const struct ms_mail_source *src, void *data)
{
	unsigned *seen = data;

	(void)raw;
	(void)len;
	if ((*seen)++ == 0 && truncate(src->path, 4096) != 0)
		return ms_error_set(MS_ERROR, "truncate failed");
	return 0;
}

static int cut_parsed(struct ms_mail *m, const struct ms_mail_source *src,
		      void *data)
{
	unsigned *seen = data;

	ms_mail_free(m);
	if ((*seen)++ == 0 && truncate(src->path, 4096) != 0)
		return ms_error_set(MS_ERROR, "truncate failed");
	return 0;
}

/* A plain mbox cut short by another program while it is read through a
 * mapping: without the SIGBUS catcher the process dies; with it, reading
 * past the new end gives zeros, the mapping is marked cut and both readers
 * fail with an error naming the file. */
static void test_cut_while_read(void)
{
	char *dir = g_dir_make_tmp("ms-cut-XXXXXX", NULL);
	char *path = g_build_filename(dir, "cut.mbox", NULL);
	struct ms_mail_read_result r;
	struct ms_mapped *m;
	unsigned seen = 0;
	int fd, rc;

	ok(ms_mapped_catch_cuts(), "the SIGBUS catcher is installed");
	write_mbox(path, 8192);
	fd = open(path, O_RDONLY);
	m = ms_mapped_new(fd);
	close(fd);
	ok(m != NULL, "an 8 MiB mbox is mapped");
	if (m) {
		const volatile char *d = ms_mapped_data(m);
		size_t size = ms_mapped_size(m);

		ok(!ms_mapped_cut(m), "not cut yet");
		is_int(truncate(path, 4096), 0, "cut to 4 KiB");
		is_int(d[0], 'F', "the first page still reads");
		is_int(d[size - 1], 0, "past the new end: zeros, not SIGBUS");
		ok(ms_mapped_cut(m), "and the mapping says it was cut");
		ms_mapped_unref(m);
	}
	write_mbox(path, 8192);
	ms_mail_read_result_init(&r);
	rc = ms_mbox_read(path, NULL, cut_raw, &seen, &r);
	is_int(rc, MS_ERROR, "ms_mbox_read: cut after the first message "
	       "is an error");
	ok(strstr(ms_error_last(), "cut.mbox' was cut short while it was "
		  "read") != NULL, "naming the file");
	ms_mail_read_result_release(&r);
	write_mbox(path, 8192);
	seen = 0;
	ms_mail_read_result_init(&r);
	rc = ms_mail_parse_archive(path, NULL, 0, 0, cut_parsed, &seen, &r,
				   NULL);
	is_int(rc, MS_ERROR, "ms_mail_parse_archive: the same");
	ok(strstr(ms_error_last(), "was cut short") != NULL &&
	   seen < 8192, "before all 8,192 messages reached the caller");
	ms_mail_read_result_release(&r);
	unlink(path);
	g_rmdir(dir);
	g_free(path);
	g_free(dir);
}

int main(void)
{
	test_dates();
	test_subjects();
	test_subject_normalize();
	test_patch_id();
	test_parse();
	test_preimages();
	test_index();
	test_quoting_reply();
	test_bad_input();
	test_transfer_encodings();
	test_multipart();
	test_snapshot();
	test_index_memory();
	test_cut_while_read();
	test_senders();
	return test_done();
}
