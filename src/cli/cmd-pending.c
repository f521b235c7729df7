/*
 * cmd-pending.c - `maintstat pending`: the open patches of each entry,
 * oldest wait first, with who is listed, who answered and who usually
 * answers first.  The states and the queue are review's (review.h:
 * ms_rv_patch_state(), ms_rv_pending()); this file only prints.
 */
#include "activity.h"
#include "cli-review.h"
#include "cli-review-out.h"
#include "commands.h"
#include "ident.h"
#include "mail.h"
#include "maintainers.h"
#include "output.h"
#include "review.h"
#include "when.h"

#include <glib.h>
#include <stdio.h>
#include <string.h>

static const struct cli_command_help help = {
	"maintstat pending --archive PATH [--archive PATH...] [--repo GITDIR "
	"| --tree DIR] [options] [ENTRY...]",
	"The open patches of each entry (all with patches, or those named):\n"
	"those changes_requested, waiting_for_maintainer, waiting or ignored\n"
	"(docs/review.md, \"Where each patch stands\"), oldest first posting\n"
	"first: the date, the wait since the first posting and since the last\n"
	"message, the state, version, subject and author, who is listed for\n"
	"the entry, who answered so far (first response, first listed\n"
	"response, first review tag), who usually answers the entry first\n"
	"(most first responses, with their median) and the message's URL.\n"
	"Waits are measured to --until (default: the archive's end).\n"
	"\n"
	"--person ADDR shows the patches waiting on that person: entries\n"
	"where they are listed, not last answered by them.  --mine takes\n"
	"`git config user.email`.  The other options are review's.",
	"  maintstat pending --archive linux-rdma-2023.mbox.gz --tree ~/linux \\\n"
	"      'INFINIBAND SUBSYSTEM'",
};

struct pending_args {
	const char *person;
	bool mine, json;
};

static int check(void *data)
{
	struct pending_args *a = data;
	gchar *out = NULL;

	if (!a->mine)
		return CLI_CONTINUE;
	if (a->person)
		return cli_usage_error("pending", "--mine and --person "
				       "exclude each other");
	if (!g_spawn_command_line_sync("git config user.email", &out, NULL,
				       NULL, NULL) || !out || !*g_strstrip(out)) {
		g_free(out);
		return cli_error("--mine: no user.email in git config");
	}
	a->person = out;   /* kept until exit */
	return CLI_CONTINUE;
}

/* One open patch: a text paragraph, or an object of the JSON list; `fr`
 * its entry's first responders, `frj` their JSON once written. */
static void print_item(struct ms_out *o, const struct cli_review_view *v,
		       const struct ms_rv_entry *e, const GPtrArray *fr,
		       GString **frj, const struct ms_rv_patch *pt,
		       int64_t now)
{
	const struct ms_mail_rec *first = ms_mail_index_get(v->idx,
		g_array_index(pt->postings, uint32_t, 0));
	const struct ms_mail_rec *newest = ms_mail_index_get(v->idx,
		g_array_index(pt->postings, uint32_t, pt->postings->len - 1));
	char *url = cli_review_msg_url(v->list_url, first->message_id);
	struct ms_rv_answer ans[3];
	size_t nans = ms_rv_answered(e, v->idx, v->ident, pt, ans);
	char d[32], w[32], l[32], m[32];

	if (ms_out_is_json(o))
		goto json;
	ms_act_format(pt->posted, 0, false, true, d);
	ms_duration_format(now - pt->posted, w, 32);
	ms_duration_format(now - ms_rv_last_message(v->idx, pt), l, 32);
	printf("%s  waited %s, last %s  %s  v%u  %s\n", d, w, l,
	       ms_rv_state_name(pt->state), newest->version,
	       first->subject ? first->subject : "");
	printf("    from ");
	cli_person_label(stdout, first->sender_name, first->sender_email);
	printf(" in %s\n    listed:", e->entry->name);
	for (guint i = 0; i < e->listed->len; i++) {
		const struct ms_rv_person *p = e->listed->pdata[i];

		printf("%s ", i ? "," : "");
		cli_person_label(stdout, p->name, p->email);
	}
	printf("\n    answered:%s", nans ? "" : " nobody");
	for (size_t i = 0; i < nans; i++) {
		printf("%s ", i ? "," : "");
		cli_person_label(stdout, ans[i].name, ans[i].email);
	}
	printf("\n    usually first:%s", fr->len ? "" : " nobody");
	for (guint i = 0; i < fr->len; i++) {
		const struct ms_rv_person *p = fr->pdata[i];

		ms_duration_format(p->has_latency ? p->median_latency : -1,
				   m, 32);
		printf("%s ", i ? "," : "");
		cli_person_label(stdout, p->name, p->email);
		printf(" (%zu, median %s)", p->first_responses, m);
	}
	printf("\n%s%s%s", url ? "    " : "", url ? url : "",
	       url ? "\n" : "");
	goto out;
json:
	ms_out_begin_object(o);
	ms_out_kv_string(o, "entry", e->entry->name);
	ms_out_kv_string(o, "message_id", first->message_id);
	ms_out_kv_string(o, "url", url);
	ms_out_kv_string(o, "subject", first->subject);
	cli_json_person_kv(o, "author", first->sender_name,
			   first->sender_email);
	ms_out_kv_int(o, "version", newest->version);
	ms_out_kv_string(o, "state", ms_rv_state_name(pt->state));
	ms_act_format(pt->posted, 0, true, false, d);
	ms_out_kv_string(o, "posted", d);
	ms_out_kv_real(o, "waited_hours", (double)(now - pt->posted) / 3600);
	ms_out_kv_real(o, "since_last_hours",
		       (double)(now - ms_rv_last_message(v->idx, pt)) / 3600);
	ms_out_kv_begin_list(o, "listed_people");
	for (guint i = 0; i < e->listed->len; i++) {
		const struct ms_rv_person *p = e->listed->pdata[i];

		ms_out_begin_object(o);
		cli_json_person(o, p->name, p->email);
		ms_out_end_object(o);
	}
	ms_out_end_list(o);
	ms_out_kv_begin_list(o, "answered");
	for (size_t i = 0; i < nans; i++) {
		ms_out_begin_object(o);
		cli_json_person(o, ans[i].name, ans[i].email);
		ms_out_end_object(o);
	}
	ms_out_end_list(o);
	if (!ms_out_kv_recorded(o, "first_responders", frj)) {
		cli_rv_json_people(o, "first_responders", fr,
				   e->patches->len, v->commits != NULL);
		ms_out_recorded(o, frj);
	}
	ms_out_end_object(o);
out:
	g_free(url);
}

static int sink(const struct cli_review_view *v, void *data)
{
	const struct pending_args *a = data;
	unsigned person = MS_IDENT_NONE;
	int64_t now = v->rv->until, wall = g_get_real_time() / G_USEC_PER_SEC;
	struct ms_out *o = ms_out_new(a->json ? MS_OUT_JSON : MS_OUT_TEXT,
				      stdout);
	/* each entry's first responders, found for its first open patch */
	GPtrArray **fr = g_new0(GPtrArray *, v->rv->entries->len);
	GString **frj = g_new0(GString *, v->rv->entries->len);
	GArray *q;
	size_t max, listing;
	int rc;

	if (a->person && v->ident)
		person = ms_ident_resolve(v->ident, NULL, a->person);
	if (now > wall)
		now = wall;
	q = ms_rv_pending(v->rv, v->idx, v->ident, person, a->person,
			  &listing);
	if (a->person && !listing)
		cli_warning("'%s' is listed in no entry with patches in the "
			    "window, under any address joined to it: nothing "
			    "waits on them", a->person);
	if (!a->json)
		cli_review_print_context(stdout, v);
	if (!a->json && a->person)
		printf("Waiting on: %s (listed in %zu %s with patches), "
		       "where they did not answer last\n", a->person,
		       listing, listing == 1 ? "entry" : "entries");
	if (a->json) {
		ms_out_begin_document(o);
		ms_out_kv_string(o, "person", a->person);
		ms_out_kv_begin_list(o, "pending");
	}
	max = cli_limit(v->limit, a->json, q->len);
	for (guint i = 0; i < max; i++) {
		const struct ms_rv_pending *p = &g_array_index(q,
			struct ms_rv_pending, i);
		const struct ms_rv_entry *e = v->rv->entries->pdata[p->entry];
		const struct ms_rv_patch *pt = &g_array_index(e->patches,
			struct ms_rv_patch, p->patch);

		if (!fr[p->entry])
			fr[p->entry] = ms_rv_first_responders(e, 3);
		print_item(o, v, e, fr[p->entry], &frj[p->entry], pt, now);
	}
	for (guint i = 0; i < v->rv->entries->len; i++) {
		if (fr[i])
			g_ptr_array_unref(fr[i]);
		if (frj[i])
			g_string_free(frj[i], TRUE);
	}
	g_free(fr);
	g_free(frj);
	if (a->json) {
		ms_out_end_list(o);
		ms_out_end_object(o);
	} else if (!q->len) {
		printf("No open patches.\n");
	} else {
		cli_print_more(stdout, "", max, q->len);
	}
	g_array_free(q, TRUE);
	rc = ms_out_finish(o) ? cli_error_last() : 0;
	ms_out_free(o);
	return rc;
}

int cmd_pending(int argc, char **argv)
{
	struct pending_args a = { 0 };
	const struct cli_option opts[] = {
		{ CLI_OPT_STRING, "person", 0, &a.person, "ADDR",
		  "only the patches waiting on this person (any address of "
		  "theirs): entries listing them, not last answered by them "
		  "(default: everyone's)" },
		{ CLI_OPT_FLAG, "mine", 0, &a.mine, NULL,
		  "--person with `git config user.email`" },
		CLI_OPT_JSON(&a.json),
		CLI_OPTION_END,
	};
	const struct cli_review_caller caller = {
		.name = "pending", .help = &help, .options = opts,
		.check = check,
		.sink = sink, .data = &a, .result = "pending",
		.result_key = (const char *const *)&a.person,
		.json = &a.json,
	};

	return cli_review_main(argc, argv, &caller);
}
