/*
 * cmd-mail.c - `maintstat mail stats` and `maintstat mail show`: mailing
 * list archives read, parsed and counted (the model is in mail.h).
 */
#include "cli.h"
#include "cli-date.h"
#include "commands.h"
#include "mail.h"
#include "output.h"
#include "store.h"

#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static void out_date(struct ms_out *o, const char *key, int64_t t, int tz)
{
	GDateTime *utc = g_date_time_new_from_unix_utc(t);
	GTimeZone *zone = g_time_zone_new_offset(tz * 60);
	GDateTime *local = utc ? g_date_time_to_timezone(utc, zone) : NULL;
	char *s = local ? g_date_time_format(local, "%Y-%m-%dT%H:%M:%S%:z")
			: NULL;

	ms_out_kv_string(o, key, s);
	g_free(s);
	if (local)
		g_date_time_unref(local);
	if (utc)
		g_date_time_unref(utc);
	g_time_zone_unref(zone);
}

static bool parse_after(const struct cli_strings *in,
			struct ms_mail_after **out)
{
	*out = g_new0(struct ms_mail_after, in->nr ? in->nr : 1);
	for (int i = 0; i < in->nr; i++) {
		const char *v = in->items[i];
		const char *colon = strchr(v, ':');
		(*out)[i].epoch = -1;
		(*out)[i].commit = v;
		if (colon) {
			char *end;
			long e = strtol(v, &end, 10);
			if (end != colon || e < 0 || e > 100000 || !colon[1])
				return false;
			(*out)[i].epoch = (int)e;
			(*out)[i].commit = colon + 1;
		}
	}
	return true;
}

/* ---- stats ---- */

#define PROBLEMS_LISTED 20

struct stats_ctx {
	struct ms_mail_index *idx;
	struct ms_diags *diags;
	unsigned long reported, unreported;
	/* MS_TEST_STOP_AT_MESSAGE=N: stop (SIGSTOP) at the N-th message,
	 * for a test to act on the run at that known point */
	unsigned long stop_at, seen;
};

static void report_problems(struct stats_ctx *c, const struct ms_mail *m,
			    const struct ms_mail_source *src)
{
	/* one warning per problem message, capped so a broken archive does
	 * not drown the report; every one is counted, and the rest are
	 * summed up in one line (report_unlisted()) */
	if (!m->problems)
		return;
	if (c->reported >= PROBLEMS_LISTED) {
		c->unreported++;
		return;
	}
	c->reported++;
	for (int p = 0; p < MS_MAIL_P__COUNT; p++) {
		if (!(m->problems & (1u << p)))
			continue;
		if (src->commit)
			ms_diags_add(c->diags, src->path, 0,
				     "commit %s: %s", src->commit,
				     ms_mail_problem_name(p));
		else
			ms_diags_add(c->diags, src->path, (unsigned)src->line,
				     "message %s: %s",
				     m->message_id ? m->message_id : "(none)",
				     ms_mail_problem_name(p));
	}
}

static void report_unlisted(const struct stats_ctx *c)
{
	if (c->unreported)
		ms_diags_add(c->diags, NULL, 0, "%lu more message%s with "
			     "problems %s not listed (only the first %d "
			     "are); the report's 'problems' counts every one",
			     c->unreported, c->unreported == 1 ? "" : "s",
			     c->unreported == 1 ? "is" : "are",
			     PROBLEMS_LISTED);
}

static int stats_one(struct ms_mail *m, const struct ms_mail_source *src,
		     void *data)
{
	struct stats_ctx *c = data;

	if (c->stop_at && ++c->seen == c->stop_at)
		raise(SIGSTOP);
	ms_mail_index_add(c->idx, m);
	report_problems(c, m, src);
	ms_mail_free(m);
	if (ms_mail_index_count(c->idx) % 1024 == 0)
		cli_progress_update(ms_mail_index_count(c->idx));
	return ms_mail_index_check_size(c->idx, src->path);
}

static int mail_stats(int argc, char **argv)
{
	bool json = false;
	struct cli_strings after_opt = { 0 };
	struct cli_store_opts so = { 0 };
	const struct cli_option opts[] = {
		CLI_OPT_JSON(&json),
		{ CLI_OPT_STRING_LIST, "after", 0, &after_opt, "[EPOCH:]COMMIT",
		  "public-inbox: read only commits after COMMIT" },
		CLI_STORE_OPTIONS(&so),
		CLI_MAIL_LIMIT_OPTIONS,
		CLI_OPTION_END,
	};
	const struct cli_command_help help = {
		"maintstat mail stats [options] ARCHIVE...",
		"Count the messages, patches, series, replies and review tags\n"
		"of mailing-list archives: mbox files (mboxrd or mboxo, .gz\n"
		"read transparently), directories of them, or public-inbox\n"
		"v1/v2 inboxes.",
		"  maintstat mail stats linux-rdma-2023.mbox.gz\n"
		"  maintstat mail stats --json ~/.local/share/maintstat/inboxes/ltp",
	};
	struct ms_diags diags = MS_DIAGS_INIT;
	struct stats_ctx c = { 0 };
	struct ms_mail_after *after = NULL;
	struct ms_mail_stats st;
	struct ms_out *o;
	GPtrArray *results = g_ptr_array_new();
	int rc = cli_parse_options(&argc, &argv, opts, &help);
	const char *stop = g_getenv("MS_TEST_STOP_AT_MESSAGE");

	if (stop && *stop)
		c.stop_at = (unsigned long)g_ascii_strtoull(stop, NULL, 10);
	if (rc != CLI_CONTINUE)
		goto out;
	if (argc < 1) {
		rc = cli_usage_error("mail stats", "no ARCHIVE given");
		goto out;
	}
	if (!parse_after(&after_opt, &after)) {
		rc = cli_usage_error("mail stats", "--after wants "
				     "[EPOCH:]COMMIT");
		goto out;
	}
	c.idx = ms_mail_index_new();
	c.diags = &diags;
	cli_progress_start("messages", 0);
	for (int i = 0; i < argc; i++) {
		struct ms_mail_read_result *r = g_new0(
			struct ms_mail_read_result, 1);
		struct ms_store *store = NULL;
		int err;

		ms_mail_read_result_init(r);
		g_ptr_array_add(results, r);
		/* archives go through the store (store.h), unless the
		 * reader is told where to resume */
		if (!after_opt.nr) {
			rc = cli_store_open(&so, argv[i], &store);
			if (rc != CLI_CONTINUE)
				goto out;
		}
		err = store ? ms_store_mail_parse_archive(store, argv[i], 0,
				stats_one, &c, r, &diags) :
			ms_mail_parse_archive(argv[i], after,
					      (size_t)after_opt.nr,
					      MS_MAIL_PARSE_INDEX_ONLY,
					      stats_one, &c, r, &diags);
		ms_store_free(store);
		if (err < 0) {
			cli_progress_done();
			rc = cli_error_last();
			goto out;
		}
	}
	cli_progress_done();
	ms_mail_index_finish(c.idx);
	ms_mail_index_stats(c.idx, &st);
	report_unlisted(&c);
	cli_print_diags(&diags);

	o = ms_out_new(json ? MS_OUT_JSON : MS_OUT_TEXT, stdout);
	ms_out_begin_document(o);
	ms_out_kv_int(o, "messages", (int64_t)st.messages);
	ms_out_kv_int(o, "message_ids", (int64_t)st.message_ids);
	ms_out_kv_int(o, "patches", (int64_t)st.patches);
	ms_out_kv_int(o, "cover_letters", (int64_t)st.cover_letters);
	ms_out_kv_int(o, "series", (int64_t)st.series);
	ms_out_kv_int(o, "series_postings", (int64_t)st.series_postings);
	ms_out_kv_int(o, "replies", (int64_t)st.replies);
	ms_out_kv_int(o, "review_replies", (int64_t)st.review_replies);
	ms_out_kv_int(o, "nacks", (int64_t)st.nacks);
	ms_out_kv_int(o, "reviewed_patches", (int64_t)st.reviewed_patches);
	ms_out_kv_int(o, "pull_requests", (int64_t)st.pulls);
	ms_out_kv_int(o, "bots", (int64_t)st.bots);
	ms_out_kv_int(o, "applied_notices", (int64_t)st.applied_notices);
	ms_out_kv_int(o, "stable_patches", (int64_t)st.stable_patches);
	ms_out_kv_int(o, "stable_notices", (int64_t)st.stable_notices);
	ms_out_kv_int(o, "foreign_patches", (int64_t)st.foreign_patches);
	ms_out_kv_int(o, "threads", (int64_t)st.threads);
	ms_out_kv_int(o, "senders", (int64_t)st.senders);
	cli_json_date(o, "first_date", st.have_dates, st.first_date);
	cli_json_date(o, "last_date", st.have_dates, st.last_date);
	ms_out_kv_int(o, "misdated", (int64_t)st.misdated);
	ms_out_kv_int(o, "bytes", (int64_t)st.bytes);
	ms_out_kv_begin_object(o, "problems");
	for (int p = 0; p < MS_MAIL_P__COUNT; p++)
		if (st.problems[p])
			ms_out_kv_int(o, ms_mail_problem_name(p),
				      (int64_t)st.problems[p]);
	ms_out_end_object(o);
	ms_out_kv_begin_list(o, "archives");
	for (int i = 0; i < argc; i++) {
		const struct ms_mail_read_result *r = results->pdata[i];
		ms_out_begin_object(o);
		ms_out_kv_string(o, "path", argv[i]);
		ms_out_kv_string(o, "format", ms_mail_format_name(r->format));
		ms_out_kv_int(o, "messages", (int64_t)r->messages);
		if (r->heads->len)
			ms_out_kv_strings(o, "heads", (const char *const *)
					  r->heads->pdata, r->heads->len);
		ms_out_end_object(o);
	}
	ms_out_end_list(o);
	rc = ms_out_finish(o) < 0 ? cli_error_last() : EXIT_OK;
	ms_out_free(o);
out:
	for (guint i = 0; i < results->len; i++) {
		ms_mail_read_result_release(results->pdata[i]);
		g_free(results->pdata[i]);
	}
	g_ptr_array_unref(results);
	ms_mail_index_free(c.idx);
	ms_diags_release(&diags);
	g_free(after);
	return rc;
}

/* ---- show ---- */

struct show_ctx {
	const char *msgid;
	struct ms_mail *found;
	char *path, *commit;
	unsigned long line;
	int epoch;
	unsigned copies;
};

static int show_one(const char *raw, size_t len,
		    const struct ms_mail_source *src, void *data)
{
	struct show_ctx *c = data;
	const char *hend = memmem(raw, len, "\n\n", 2);
	size_t idlen = strlen(c->msgid);
	struct ms_mail *m;

	/* only messages whose header mentions the id are worth a full
	 * parse; the whole header, however long (a 3 MB one hid the id
	 * when only the first 2 MiB were searched) */
	if (!memmem(raw, hend ? (size_t)(hend - raw) + 1 : len, c->msgid,
		    idlen))
		return 0;
	m = ms_mail_parse(raw, len, src->problems, MS_MAIL_PARSE_KEEP_BODY);
	if (!m->message_id || strcmp(m->message_id, c->msgid)) {
		ms_mail_free(m);
		return 0;
	}
	if (c->copies++) {
		ms_mail_free(m);
		return 0;
	}
	c->found = m;
	c->path = g_strdup(src->path);
	c->commit = g_strdup(src->commit);
	c->line = src->line;
	c->epoch = src->epoch;
	return 0;
}

static void out_mail(struct ms_out *o, const struct ms_mail *m)
{
	const struct ms_mail_subject *s = &m->subject;

	ms_out_kv_string(o, "message_id", m->message_id);
	ms_out_kv_string(o, "in_reply_to", m->in_reply_to);
	ms_out_kv_strings(o, "references", (const char *const *)
			  m->references->pdata, m->references->len);
	ms_out_kv_string(o, "date_raw", m->date_raw);
	if (m->date_valid)
		out_date(o, "date", m->date, m->date_tz);
	else
		ms_out_kv_null(o, "date");
	cli_json_person_kv(o, "from", m->from_name, m->from_email);
	ms_out_kv_begin_object(o, "sender");
	ms_out_kv_string(o, "name", m->sender_name);
	ms_out_kv_string(o, "email", m->sender_email);
	ms_out_kv_bool(o, "rewritten", m->sender_rewritten);
	ms_out_end_object(o);
	ms_out_kv_string(o, "to_raw", m->to);
	ms_out_kv_string(o, "cc_raw", m->cc);
	ms_out_kv_string(o, "list_id", m->list_id);
	ms_out_kv_string(o, "subject", m->subject_raw);
	ms_out_kv_begin_object(o, "subject_parsed");
	ms_out_kv_string(o, "prefixes", s->prefixes);
	ms_out_kv_string(o, "normalized", s->normalized);
	ms_out_kv_int(o, "reply_depth", s->reply_depth);
	ms_out_kv_bool(o, "forward", s->forward);
	ms_out_kv_bool(o, "patch", s->patch);
	ms_out_kv_bool(o, "rfc", s->rfc);
	ms_out_kv_bool(o, "resend", s->resend);
	ms_out_kv_bool(o, "pull", s->pull);
	ms_out_kv_int(o, "version", s->version);
	ms_out_kv_int(o, "number", s->number);
	ms_out_kv_int(o, "total", s->total);
	ms_out_kv_string(o, "tree", s->tree);
	ms_out_end_object(o);
	ms_out_kv_string(o, "kind", ms_mail_kind_name(m->kind));
	ms_out_kv_bool(o, "applied_notice",
		       m->notice == MS_MAIL_NOTICE_APPLIED);
	ms_out_kv_int(o, "new_lines", m->new_lines);
	ms_out_kv_int(o, "quoted_lines", m->quoted_lines);
	ms_out_kv_begin_list(o, "trailers");
	for (guint i = 0; i < m->trailers->len; i++) {
		const struct ms_mail_trailer *t = m->trailers->pdata[i];

		if (t->kind == MS_TRAILER_APPLIED)
			continue;       /* not a trailer: a b4 ty item */
		ms_out_begin_object(o);
		ms_out_kv_string(o, "token", t->token);
		ms_out_kv_string(o, "kind", ms_trailer_kind_name(t->kind));
		ms_out_kv_string(o, "value", t->value);
		ms_out_kv_string(o, "name", t->name);
		ms_out_kv_string(o, "email", t->email);
		ms_out_end_object(o);
	}
	ms_out_end_list(o);
	ms_out_kv_string(o, "change_id", m->change_id);
	ms_out_key(o, "diff");
	if (m->has_diff) {
		ms_out_begin_object(o);
		ms_out_kv_strings(o, "file_list", (const char *const *)
				  m->files->pdata, m->files->len);
		ms_out_kv_int(o, "added", m->lines_added);
		ms_out_kv_int(o, "removed", m->lines_removed);
		ms_out_kv_string(o, "patch_id", m->patch_id);
		ms_out_kv_bool(o, "in_attachment", m->diff_in_attachment);
		ms_out_end_object(o);
	} else {
		ms_out_null(o);
	}
	ms_out_kv_begin_list(o, "problems");
	for (int p = 0; p < MS_MAIL_P__COUNT; p++)
		if (m->problems & (1u << p))
			ms_out_string(o, ms_mail_problem_name(p));
	ms_out_end_list(o);
	ms_out_kv_int(o, "size", (int64_t)m->size);
	ms_out_kv_string(o, "body", m->body);
}

static int mail_show(int argc, char **argv)
{
	bool json = false;
	const struct cli_option opts[] = {
		CLI_OPT_JSON(&json),
		CLI_MAIL_LIMIT_OPTIONS,
		CLI_OPTION_END,
	};
	const struct cli_command_help help = {
		"maintstat mail show [options] ARCHIVE MSGID",
		"Show everything maintstat understood of one message: headers,\n"
		"the real sender, the parsed subject, trailers, the diff and\n"
		"its patch-id, the kind and any input problems.",
		"  maintstat mail show linux-rdma-2023.mbox.gz '<1234@example.org>'",
	};
	struct ms_diags diags = MS_DIAGS_INIT;
	struct show_ctx c = { 0 };
	struct ms_mail_read_result r;
	struct ms_out *o;
	char *id = NULL;
	int rc = cli_parse_options(&argc, &argv, opts, &help);

	ms_mail_read_result_init(&r);
	if (rc != CLI_CONTINUE)
		goto out;
	if (argc != 2) {
		rc = cli_usage_error("mail show", "want ARCHIVE and MSGID");
		goto out;
	}
	id = g_strdup(argv[1]);
	if (id[0] == '<' && strlen(id) > 1 && id[strlen(id) - 1] == '>') {
		memmove(id, id + 1, strlen(id));
		id[strlen(id) - 1] = 0;
	}
	if (!*id) {
		rc = cli_usage_error("mail show", "empty MSGID");
		goto out;
	}
	c.msgid = id;
	if (ms_mail_read(argv[0], NULL, 0, show_one, &c, &r, &diags) < 0) {
		rc = cli_error_last();
		goto out;
	}
	cli_print_diags(&diags);
	if (!c.found) {
		rc = cli_error("no message '%s' in '%s'", id, argv[0]);
		goto out;
	}
	o = ms_out_new(json ? MS_OUT_JSON : MS_OUT_TEXT, stdout);
	ms_out_begin_document(o);
	ms_out_kv_begin_object(o, "location");
	ms_out_kv_string(o, "path", c.path);
	ms_out_kv_string(o, "format", ms_mail_format_name(r.format));
	if (c.commit) {
		ms_out_kv_int(o, "epoch", c.epoch);
		ms_out_kv_string(o, "commit", c.commit);
	} else {
		ms_out_kv_int(o, "line", (int64_t)c.line);
	}
	ms_out_kv_int(o, "copies", c.copies);
	ms_out_end_object(o);
	out_mail(o, c.found);
	rc = ms_out_finish(o) < 0 ? cli_error_last() : EXIT_OK;
	ms_out_free(o);
out:
	ms_mail_free(c.found);
	g_free(c.path);
	g_free(c.commit);
	g_free(id);
	ms_mail_read_result_release(&r);
	ms_diags_release(&diags);
	return rc;
}

int cmd_mail(int argc, char **argv)
{
	if (argc < 2 || !strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
		FILE *fp = argc < 2 ? stderr : stdout;
		fprintf(fp, "Usage: maintstat mail stats [options] ARCHIVE...\n"
			"   or: maintstat mail show [options] ARCHIVE MSGID\n"
			"\n"
			"Read mailing-list archives: mbox files (mboxrd or "
			"mboxo, .gz read\ntransparently), directories of "
			"them, or public-inbox v1/v2 inboxes.\n\n"
			"Commands:\n"
			"  stats   count messages, patches, series, replies, "
			"review tags\n"
			"  show    everything maintstat understood of one "
			"message\n\n"
			"Options: see 'maintstat mail stats --help' and "
			"'maintstat mail show --help';\n"
			"both print text, or one JSON document with --json.\n"
			"\nExamples:\n"
			"  maintstat mail stats linux-rdma-2023.mbox.gz\n"
			"  maintstat mail show --help\n");
		return argc < 2 ? EXIT_USAGE : EXIT_OK;
	}
	/* argv[0] names the command in usage hints: "mail stats" */
	if (!strcmp(argv[1], "stats")) {
		static char name[] = "mail stats";

		argv[1] = name;
		return mail_stats(argc - 1, argv + 1);
	}
	if (!strcmp(argv[1], "show")) {
		static char name[] = "mail show";

		argv[1] = name;
		return mail_show(argc - 1, argv + 1);
	}
	return cli_usage_error("mail", "unknown subcommand '%s'; say "
			       "'stats' or 'show'", argv[1]);
}
