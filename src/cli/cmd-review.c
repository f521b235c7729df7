/*
 * cmd-review.c - maintstat review: how each entry's patches are answered
 * on the list, joined with the git facts of `activity` (docs/review.md).
 */
#include "activity.h"
#include "cli-review.h"
#include "commands.h"
#include "mail.h"
#include "cli-activity.h"
#include "tree.h"
#include "history.h"
#include "ident.h"
#include "inbox-url.h"
#include "link.h"
#include "maintainers.h"
#include "output.h"
#include "when.h"
#include "review.h"
#include "series.h"
#include "store.h"

#include <glib.h>
#include <stdio.h>
#include <string.h>

static const struct cli_command_help help = {
	"maintstat review --archive PATH [--archive PATH...] "
	"[--repo GITDIR | --tree DIR] [options] [ENTRY...]",
	"For each MAINTAINERS entry (all with patches, or those named): the\n"
	"patches posted in the window (mapped by the files their diffs touch\n"
	"and K: patterns on their changed lines), the share answered by a\n"
	"human other than the author, time to first response, to the first\n"
	"reply of a listed M:/R: person and to the first Reviewed-by/Acked-by\n"
	"(median and p90), patches ignored for --ignore-after, the share\n"
	"merged and the posting-to-commit time; per listed person their\n"
	"replies, latency, tags and scores, with the git facts of `activity`;\n"
	"the tag ledger, corporate aliases and de-facto maintainers.  List\n"
	"addresses are joined to people as activity joins git ones: the\n"
	".mailmap of --rev, --aliases and plus-address folding.  Every\n"
	"metric is defined in docs/review.md.\n"
	"\n"
	"--by month|quarter|year|release adds a time series: each entry's\n"
	"patches are split by the date of their first posting and every\n"
	"figure is computed again over each interval (release: between the\n"
	"tags of --repo matching --release-tags, default 'v*', without\n"
	"-rc ones); an interval without patches is null.",
	"  maintstat review --archive linux-rdma-2023.mbox.gz \\\n"
	"      --since 2023-01-01 --until 2023-12-31 'INFINIBAND SUBSYSTEM'",
};

struct run {
	const struct ms_mail_index *idx;
	const struct ms_review *rv;
	const char *by;              /* --by, or NULL */
	const GPtrArray *labels;     /* release names per interval, or NULL */
	int64_t since, until;
	int64_t ignore_after;         /* seconds */
	struct ms_act_entry **act_for; /* per report entry, or NULL */
	const GPtrArray *commits;
	const char *list_url;
	int64_t target;
	struct ms_act_entry *act;    /* per report entry, or NULL */
	struct ms_activity *a;
	long limit;                  /* --limit */
};

/* A latency for people: 45min, 1.4h, 3.2d (when.h); "-" for none. */
static void hours(char buf[32], int64_t secs)
{
	ms_duration_format(secs, buf, 32);
}

/* "a of b" as a whole percentage, or "-" over nothing. */
static void pct(char buf[16], size_t a, size_t b)
{
	if (!b)
		snprintf(buf, 16, "-");
	else
		snprintf(buf, 16, "%zu%%", a * 100 / b);
}

/* A share in JSON: null over nothing. */
static void json_share(struct ms_out *o, const char *key, size_t a, size_t b)
{
	if (b)
		ms_out_kv_real(o, key, (double)a / (double)b);
	else
		ms_out_kv_null(o, key);
}

static char *msg_url(const struct run *r, const char *msgid)
{
	char *esc;
	char *url;

	if (!r->list_url)
		return NULL;
	esc = g_uri_escape_string(msgid, "@!$&'()*+,;=:", FALSE);
	url = g_strdup_printf("%s%s%s/", r->list_url,
			      g_str_has_suffix(r->list_url, "/") ? "" : "/",
			      esc);
	g_free(esc);
	return url;
}

static void person_label(FILE *fp, const char *name, const char *email)
{
	if (name && *name)
		fprintf(fp, "%s <%s>", name, email);
	else
		fprintf(fp, "%s", email);
}

static const struct ms_act_person *act_person(const struct ms_act_entry *ae,
					      const char *email)
{
	for (size_t i = 0; ae && i < ae->nr_people; i++)
		if (!g_ascii_strcasecmp(ae->people[i].email, email))
			return &ae->people[i];
	return NULL;
}

static void text_last(FILE *fp, const char *what, const struct ms_act_last *l)
{
	char date[32];

	if (!l->set)
		return;
	ms_act_format(l->time, l->offset, false, false, date);
	fprintf(fp, "    %s %.12s %s %zu\n", what, l->id, date, l->count);
}

/* Listed, inactive in git over the window and silent on the list. */
static bool inactive(const struct ms_rv_person *p,
		     const struct ms_act_person *ap, int64_t since)
{
	bool list = p->has_last_list && p->last_list >= since;

	if (list || p->replied)
		return false;
	/*
	 * Silence on the lists read is no evidence on its own: the person
	 * may work on other lists.  Without the git history (no --repo)
	 * nobody is judged.
	 */
	return ap && ap->inactive;
}

/*
 * What a text report starts with: the archives and the dates they span,
 * the window, where MAINTAINERS and the history come from, how people
 * are joined, and the thresholds.
 */
static void print_context(FILE *fp, const struct run *r,
			  const struct cli_rev_opts *ro,
			  const struct cli_tree_opts *to, const char *aliases,
			  const struct cli_act_opts *io, bool plus_fold)
{
	char a[32], b[32];

	cli_rev_print_archives(fp, ro, r->idx);
	ms_act_format(r->since, 0, false, true, a);
	ms_act_format(r->until, 0, false, true, b);
	fprintf(fp, "Window: patches posted %s to %s (UTC)\n",
		r->since ? a : "the first message",
		r->until != INT64_MAX ? b : "the last");
	if (ro->repo)
		fprintf(fp, "Repository %s at %s\n", ro->repo,
			ro->rev ? ro->rev : "HEAD");
	else
		fprintf(fp, "Tree %s (no history: no merged figures)\n",
			to->tree ? to->tree : ".");
	fprintf(fp, "Identities: %s", ro->repo || to->tree ?
		"the .mailmap" : "addresses");
	for (int i = 0; i < io->mailmaps.nr; i++)
		fprintf(fp, ", mailmap %s", io->mailmaps.items[i]);
	if (aliases)
		fprintf(fp, ", aliases %s", aliases);
	if (!io->no_name_join)
		fprintf(fp, ", equal names");
	if (plus_fold)
		fprintf(fp, ", plus-address folding");
	ms_duration_format(r->ignore_after, a, sizeof(a));
	ms_duration_format(r->target, b, sizeof(b));
	fprintf(fp, "\nIgnored: no human reply within %s; response target %s"
		"\n\n", a, b);
}

static void print_text(FILE *fp, const struct run *r,
		       const struct ms_review *rv, const struct ms_rv_entry *e,
		       const struct ms_act_entry *ae)
{
	size_t n = e->patches->len;
	char a[32], b[32], c[32], d[32], p1[16], p2[16];

	fprintf(fp, "Subsystem %s\n", e->entry->name);
	if (ae) {
		fprintf(fp, "  Changes: reviewed %zu of %zu commits (%zu%%)\n",
			ae->reviewed,
			ae->commits, ae->commits ?
			ae->reviewed * 100 / ae->commits : 0);
		if (ae->has_last_activity) {
			ms_act_format(ae->last_activity,
				      ae->last_activity_offset, false, true,
				      a);
			fprintf(fp, "  Last activity: %s\n", a);
		} else {
			fprintf(fp, "  Last activity: never\n");
		}
	}
	pct(p1, e->replied, n);
	pct(p2, e->replied_maint, n);
	fprintf(fp, "  Patches %zu (series %zu), replied %zu (%s), by a "
		"listed person %zu (%s)\n", n, e->series, e->replied, p1,
		e->replied_maint, p2);
	if (e->aside_stable || e->aside_foreign_subject ||
	    e->aside_foreign_paths)
		fprintf(fp, "  Set aside: stable backports %zu, other "
			"projects by subject %zu, by paths %zu\n",
			e->aside_stable, e->aside_foreign_subject,
			e->aside_foreign_paths);
	hours(a, e->ttfr_median);
	hours(b, e->ttfr_p90);
	hours(c, e->ttmr_median);
	hours(d, e->ttmr_p90);
	fprintf(fp, "  First response: median %s, p90 %s; from a listed "
		"person: median %s, p90 %s\n", a, b, c, d);
	hours(a, e->tttag_median);
	hours(b, e->tttag_p90);
	pct(p1, e->tagged, n);
	fprintf(fp, "  First review tag: %zu (%s), median %s, p90 %s\n",
		e->tagged, p1, a, b);
	fprintf(fp, "  Ignored patches: %zu (from contributors %zu); listed "
		"people's own patches without another's review tag: %zu\n",
		e->ignored, e->ignored_contributor, e->own_unreviewed);
	if (r->commits) {
		hours(a, e->merge_median);
		hours(b, e->merge_p90);
		pct(p1, e->merged, n);
		fprintf(fp, "  Merged %zu (%s), posting to commit: median "
			"%s, p90 %s\n", e->merged, p1, a, b);
	}
	if (e->responsiveness < 0)
		snprintf(p1, sizeof(p1), "-");
	else
		snprintf(p1, sizeof(p1), "%.0f%%", e->responsiveness * 100);
	fprintf(fp, "  Responsiveness (%" G_GINT64_FORMAT "h): %s\n",
		r->target / 3600, p1);
	for (guint i = 0; i < e->listed->len; i++) {
		const struct ms_rv_person *p = e->listed->pdata[i];
		const struct ms_act_person *ap = act_person(ae, p->email);

		fprintf(fp, "  ");
		person_label(fp, p->name, p->email);
		fprintf(fp, ":\n");
		if (ap) {
			text_last(fp, "Author", &ap->author);
			text_last(fp, "Committer", &ap->committer);
			text_last(fp, "Tags", &ap->tags);
		}
		hours(a, p->has_latency ? p->median_latency : -1);
		if (p->has_last_list)
			ms_act_format(p->last_list, 0, false, true, b);
		else
			strcpy(b, "never");
		pct(p1, p->replied, n - p->own_patches);
		if (p->responsiveness < 0)
			snprintf(p2, sizeof(p2), "-");
		else
			snprintf(p2, sizeof(p2), "%.0f%%",
				 p->responsiveness * 100);
		fprintf(fp, "    List replied %zu/%zu (%s), median %s, "
			"Reviewed-by %zu, Acked-by %zu, score %s, "
			"last %s\n", p->replied, n - p->own_patches, p1, a,
			p->reviewed_by, p->acked_by, p2, b);
	}
	if (e->others->len &&
	    ((const struct ms_rv_person *)e->others->pdata[0])->replied) {
		fprintf(fp, "  Other repliers:\n");
		for (guint i = 0; i < e->others->len && i < 5; i++) {
			const struct ms_rv_person *p = e->others->pdata[i];

			if (!p->replied)
				break;
			fprintf(fp, "    [%zu]: ", p->replied);
			person_label(fp, p->name, p->email);
			fprintf(fp, " (first %zu, tags %zu, commits %zu)\n",
				p->first_replies, p->reviewed_by + p->acked_by,
				p->commits);
		}
	}
	for (guint i = 0; i < e->defacto->len; i++) {
		const struct ms_rv_person *p = e->defacto->pdata[i];

		fprintf(fp, "  DE-FACTO MAINTAINER ");
		person_label(fp, p->name, p->email);
		fprintf(fp, " (applied %zu, first replies %zu, tags %zu)\n",
			p->applied, p->first_replies,
			p->reviewed_by + p->acked_by);
	}
	for (guint i = 0; i < e->aliases->len; i++) {
		const struct ms_rv_alias *al = e->aliases->pdata[i];

		fprintf(fp, "  CORPORATE ALIAS %s:", al->email);
		for (guint k = 0; k < al->people->len; k++) {
			const struct ms_rv_person *p = al->people->pdata[k];

			fprintf(fp, "%s ", k ? "," : "");
			person_label(fp, p->name, p->email);
		}
		fprintf(fp, "\n");
	}
	if (e->ignored) {
		size_t shown = 0, max = cli_limit(r->limit, false,
						  e->ignored);

		fprintf(fp, "  Ignored:\n");
		for (guint i = 0; i < e->patches->len && shown < max; i++) {
			const struct ms_rv_patch *pt = &g_array_index(
				e->patches, struct ms_rv_patch, i);
			const struct ms_mail_rec *rec;
			char *url;

			if (!pt->ignored)
				continue;
			shown++;
			rec = ms_mail_index_get(r->idx, g_array_index(
				pt->postings, uint32_t, pt->postings->len - 1));
			ms_act_format(rec->date, 0, false, true, a);
			url = msg_url(r, rec->message_id);
			fprintf(fp, "    %s <%s> %s%s%s\n", a, rec->message_id,
				rec->subject ? rec->subject : "",
				url ? " " : "", url ? url : "");
			g_free(url);
		}
		cli_print_more(fp, "    ", shown, e->ignored);
	}
	if (e->tags_dropped->len) {
		fprintf(fp, "  Tags given on the list, missing from the "
			"commit:\n");
		for (guint i = 0; i < e->tags_dropped->len; i++) {
			const struct ms_rv_tag *t = &g_array_index(
				e->tags_dropped, struct ms_rv_tag, i);
			const struct ms_link_commit *lc =
				r->commits->pdata[t->commit];

			fprintf(fp, "    %.12s %s: ", lc->id,
				ms_trailer_kind_name(t->kind));
			person_label(fp, t->name, t->email ? t->email : "");
			fprintf(fp, " <%s>\n",
				ms_mail_index_get(r->idx, t->rec)->message_id);
		}
	}
	if (e->tags_untraced->len) {
		fprintf(fp, "  Tags in the commit with no trace on the list:\n");
		for (guint i = 0; i < e->tags_untraced->len; i++) {
			const struct ms_rv_tag *t = &g_array_index(
				e->tags_untraced, struct ms_rv_tag, i);
			const struct ms_link_commit *lc =
				r->commits->pdata[t->commit];

			fprintf(fp, "    %.12s %s: ", lc->id,
				ms_trailer_kind_name(t->kind));
			person_label(fp, t->name, t->email);
			fprintf(fp, "\n");
		}
	}
	for (guint i = 0; i < e->listed->len; i++) {
		const struct ms_rv_person *p = e->listed->pdata[i];

		if (!inactive(p, act_person(ae, p->email), rv->since))
			continue;
		fprintf(fp, "  INACTIVE %s ",
			p->role == 'M' ? "MAINTAINER" : "REVIEWER");
		person_label(fp, p->name, p->email);
		fprintf(fp, "\n");
	}
	if (e->negative)
		fprintf(fp, "  Negative intervals clamped: %zu\n", e->negative);
}

static void json_quant(struct ms_out *o, const char *key, int64_t med,
		       int64_t p90)
{
	ms_out_key(o, key);
	if (med < 0) {
		ms_out_null(o);
		return;
	}
	ms_out_begin_object(o);
	ms_out_kv_real(o, "median_hours", (double)med / 3600.0);
	ms_out_kv_real(o, "p90_hours", (double)p90 / 3600.0);
	ms_out_end_object(o);
}

static void json_date(struct ms_out *o, const char *key, bool set,
		      int64_t t)
{
	char d[32];

	if (!set) {
		ms_out_kv_null(o, key);
		return;
	}
	ms_act_format(t, 0, true, false, d);
	ms_out_kv_string(o, key, d);
}

static void json_msg(struct ms_out *o, const struct run *r,
		     const char *key, const char *msgid)
{
	char *url = msg_url(r, msgid);

	ms_out_kv_string(o, key, msgid);
	ms_out_kv_string(o, "url", url);
	g_free(url);
}

static void json_reply(struct ms_out *o, const struct run *r,
		       const char *key, bool has,
		       const struct ms_rv_reply *rep)
{
	const struct ms_mail_rec *rec;

	ms_out_key(o, key);
	if (!has) {
		ms_out_null(o);
		return;
	}
	rec = ms_mail_index_get(r->idx, rep->rec);
	ms_out_begin_object(o);
	json_msg(o, r, "message_id", rec->message_id);
	ms_out_kv_string(o, "from", rec->sender_email);
	ms_out_kv_real(o, "hours", (double)rep->latency / 3600.0);
	ms_out_kv_bool(o, "clamped", rep->negative);
	ms_out_end_object(o);
}

static void json_last(struct ms_out *o, const char *key,
		      const struct ms_act_last *l)
{
	char date[32];

	ms_out_key(o, key);
	if (!l->set) {
		ms_out_null(o);
		return;
	}
	ms_act_format(l->time, l->offset, true, false, date);
	ms_out_begin_object(o);
	ms_out_kv_string(o, "commit", l->id);
	ms_out_kv_string(o, "date", date);
	ms_out_kv_int(o, "count", (int64_t)l->count);
	if (l->tag)
		ms_out_kv_string(o, "tag", l->tag);
	ms_out_end_object(o);
}

static void json_person(struct ms_out *o, const struct ms_rv_person *p,
			size_t n, const struct ms_act_person *ap,
			const struct ms_review *rv, bool listed)
{
	ms_out_begin_object(o);
	if (listed) {
		char role[2] = { p->role, 0 };

		ms_out_kv_string(o, "role", role);
	}
	ms_out_kv_string(o, "name", p->name && *p->name ? p->name : NULL);
	ms_out_kv_string(o, "email", p->email);
	ms_out_kv_int(o, "replied", (int64_t)p->replied);
	ms_out_kv_int(o, "own_patches", (int64_t)p->own_patches);
	json_share(o, "replied_share", p->replied, n - p->own_patches);
	if (p->has_latency)
		ms_out_kv_real(o, "median_latency_hours",
			       (double)p->median_latency / 3600.0);
	else
		ms_out_kv_null(o, "median_latency_hours");
	ms_out_kv_int(o, "within_target", (int64_t)p->within_target);
	if (p->responsiveness < 0)
		ms_out_kv_null(o, "responsiveness");
	else
		ms_out_kv_real(o, "responsiveness", p->responsiveness);
	ms_out_key(o, "tags");
	ms_out_begin_object(o);
	ms_out_kv_int(o, "reviewed_by", (int64_t)p->reviewed_by);
	ms_out_kv_int(o, "acked_by", (int64_t)p->acked_by);
	ms_out_kv_int(o, "tested_by", (int64_t)p->tested_by);
	ms_out_end_object(o);
	ms_out_kv_int(o, "messages", (int64_t)p->messages);
	ms_out_kv_int(o, "threads", (int64_t)p->threads);
	ms_out_kv_int(o, "authored", (int64_t)p->authored);
	ms_out_kv_int(o, "first_replies", (int64_t)p->first_replies);
	ms_out_kv_int(o, "commits", (int64_t)p->commits);
	ms_out_kv_int(o, "applied", (int64_t)p->applied);
	ms_out_kv_int(o, "netdev_score", p->netdev_score);
	json_date(o, "last_list_activity", p->has_last_list, p->last_list);
	if (listed) {
		ms_out_key(o, "git");
		if (ap) {
			ms_out_begin_object(o);
			json_last(o, "author", &ap->author);
			json_last(o, "committer", &ap->committer);
			json_last(o, "tags", &ap->tags);
			ms_out_end_object(o);
		} else {
			ms_out_null(o);
		}
		if (ap)
			ms_out_kv_bool(o, "inactive", inactive(p, ap, rv->since));
		else
			ms_out_kv_null(o, "inactive");  /* not judged */
		ms_out_kv_bool(o, "role_address", ap && ap->role_address);
	}
	ms_out_end_object(o);
}

static void json_tag(struct ms_out *o, const struct run *r,
		     const struct ms_rv_tag *t)
{
	const struct ms_link_commit *lc = r->commits->pdata[t->commit];

	ms_out_begin_object(o);
	ms_out_kv_string(o, "commit", lc->id);
	ms_out_kv_string(o, "tag", ms_trailer_kind_name(t->kind));
	ms_out_kv_string(o, "name", t->name && *t->name ? t->name : NULL);
	ms_out_kv_string(o, "email", t->email && *t->email ? t->email : NULL);
	if (t->rec != UINT32_MAX)
		json_msg(o, r, "message_id",
			 ms_mail_index_get(r->idx, t->rec)->message_id);
	ms_out_end_object(o);
}

static void day(char buf[32], int64_t t)
{
	ms_act_format(t, 0, false, true, buf);
}

/* The series as a compact table: one row per interval. */
static void print_series(FILE *fp, const struct run *r,
			 const struct ms_rv_entry *e)
{
	const struct ms_review *rv = r->rv;
	char a[32], b[32], c[32];

	fprintf(fp, "  By %s (patches first posted in the interval):\n",
		r->by);
	fprintf(fp, "    %-12s %7s %7s %7s %9s %9s %7s\n", "start",
		"patches", "replied", "ignored", "ttfr-med", "ttfr-p90",
		"listed");
	for (size_t i = 0; i < rv->nr_intervals; i++) {
		const struct ms_rv_entry *s = e->intervals->pdata[i];
		const char *label = r->labels ? r->labels->pdata[i] : NULL;

		day(a, rv->bounds[i]);
		fprintf(fp, "    %-12s", a);
		if (!s) {
			fprintf(fp, " %7s", "-");
		} else {
			size_t n = s->patches->len;

			hours(b, s->ttfr_median);
			hours(c, s->ttfr_p90);
			fprintf(fp, " %7zu %7zu %7zu %9s %9s %6zu%%", n,
				s->replied, s->ignored, b, c,
				n ? s->replied_maint * 100 / n : 0);
		}
		if (label)
			fprintf(fp, "  (until %s)", label);
		fputc('\n', fp);
	}
}

static void json_series(struct ms_out *o, const struct run *r,
			const struct ms_rv_entry *e)
{
	const struct ms_review *rv = r->rv;
	static const char *const figures[] = {
		"patches", "series", "replied", "replied_by_listed",
		"review_tagged", "ignored", "merged", "commits", "reply_share",
		"time_to_first_response", "time_to_first_maintainer_response",
		"time_to_first_review_tag", "review_cycle_duration",
		"responsiveness", "people",
	};
	char d[32];

	ms_out_key(o, "series");
	ms_out_begin_list(o);
	for (size_t i = 0; i < rv->nr_intervals; i++) {
		const struct ms_rv_entry *s = e->intervals->pdata[i];
		size_t n;

		ms_out_begin_object(o);
		ms_act_format(rv->bounds[i], 0, true, false, d);
		ms_out_kv_string(o, "start", d);
		ms_act_format(rv->bounds[i + 1], 0, true, false, d);
		ms_out_kv_string(o, "end", d);
		if (r->labels)
			ms_out_kv_string(o, "release", r->labels->pdata[i]);
		if (!s) {
			for (size_t k = 0; k < G_N_ELEMENTS(figures); k++)
				ms_out_kv_null(o, figures[k]);
			ms_out_end_object(o);
			continue;
		}
		n = s->patches->len;
		ms_out_kv_int(o, "patches", (int64_t)n);
		ms_out_kv_int(o, "series", (int64_t)s->series);
		ms_out_kv_int(o, "replied", (int64_t)s->replied);
		ms_out_kv_int(o, "replied_by_listed",
			      (int64_t)s->replied_maint);
		ms_out_kv_int(o, "review_tagged", (int64_t)s->tagged);
		ms_out_kv_int(o, "ignored", (int64_t)s->ignored);
		if (r->commits) {
			ms_out_kv_int(o, "merged", (int64_t)s->merged);
			ms_out_kv_int(o, "commits", (int64_t)s->commits);
		} else {
			ms_out_kv_null(o, "merged");
			ms_out_kv_null(o, "commits");
		}
		ms_out_kv_real(o, "reply_share", (double)s->replied / n);
		json_quant(o, "time_to_first_response", s->ttfr_median,
			   s->ttfr_p90);
		json_quant(o, "time_to_first_maintainer_response",
			   s->ttmr_median, s->ttmr_p90);
		json_quant(o, "time_to_first_review_tag", s->tttag_median,
			   s->tttag_p90);
		json_quant(o, "review_cycle_duration", s->merge_median,
			   s->merge_p90);
		ms_out_kv_real(o, "responsiveness", s->responsiveness);
		ms_out_key(o, "people");
		ms_out_begin_list(o);
		for (guint k = 0; k < s->listed->len; k++) {
			const struct ms_rv_person *p = s->listed->pdata[k];
			char role[2] = { p->role, 0 };

			ms_out_begin_object(o);
			ms_out_kv_string(o, "role", role);
			ms_out_kv_string(o, "name", p->name && *p->name ?
					 p->name : NULL);
			ms_out_kv_string(o, "email", p->email);
			ms_out_kv_int(o, "replied", (int64_t)p->replied);
			if (p->has_latency)
				ms_out_kv_real(o, "median_latency_hours",
					(double)p->median_latency / 3600.0);
			else
				ms_out_kv_null(o, "median_latency_hours");
			ms_out_kv_int(o, "within_target",
				      (int64_t)p->within_target);
			ms_out_kv_int(o, "reviewed_by",
				      (int64_t)p->reviewed_by);
			ms_out_kv_int(o, "acked_by", (int64_t)p->acked_by);
			ms_out_kv_int(o, "commits", (int64_t)p->commits);
			ms_out_end_object(o);
		}
		ms_out_end_list(o);
		ms_out_end_object(o);
	}
	ms_out_end_list(o);
}

static void print_json(struct ms_out *o, const struct run *r,
		       const struct ms_review *rv, const struct ms_rv_entry *e,
		       const struct ms_act_entry *ae)
{
	size_t n = e->patches->len;

	ms_out_begin_object(o);
	ms_out_kv_string(o, "name", e->entry->name);
	ms_out_kv_int(o, "patches", (int64_t)n);
	ms_out_kv_int(o, "series", (int64_t)e->series);
	ms_out_kv_int(o, "replied", (int64_t)e->replied);
	ms_out_kv_int(o, "replied_by_listed", (int64_t)e->replied_maint);
	ms_out_kv_int(o, "review_tagged", (int64_t)e->tagged);
	ms_out_kv_int(o, "ignored", (int64_t)e->ignored);
	ms_out_kv_int(o, "ignored_contributor",
		      (int64_t)e->ignored_contributor);
	ms_out_kv_int(o, "own_unreviewed", (int64_t)e->own_unreviewed);
	ms_out_key(o, "set_aside");
	ms_out_begin_object(o);
	ms_out_kv_int(o, "stable", (int64_t)e->aside_stable);
	ms_out_kv_int(o, "foreign_subject", (int64_t)e->aside_foreign_subject);
	ms_out_kv_int(o, "foreign_paths", (int64_t)e->aside_foreign_paths);
	ms_out_end_object(o);
	if (r->commits) {
		ms_out_kv_int(o, "merged", (int64_t)e->merged);
		ms_out_kv_int(o, "commits", (int64_t)e->commits);
	} else {
		ms_out_kv_null(o, "merged");
		ms_out_kv_null(o, "commits");
	}
	json_share(o, "reply_share", e->replied, n);
	json_quant(o, "time_to_first_response", e->ttfr_median, e->ttfr_p90);
	json_quant(o, "time_to_first_maintainer_response", e->ttmr_median,
		   e->ttmr_p90);
	json_quant(o, "time_to_first_review_tag", e->tttag_median,
		   e->tttag_p90);
	json_quant(o, "review_cycle_duration", e->merge_median, e->merge_p90);
	if (e->responsiveness < 0)
		ms_out_kv_null(o, "responsiveness");
	else
		ms_out_kv_real(o, "responsiveness", e->responsiveness);
	ms_out_kv_int(o, "negative_intervals", (int64_t)e->negative);
	ms_out_key(o, "people");
	ms_out_begin_list(o);
	for (guint i = 0; i < e->listed->len; i++) {
		const struct ms_rv_person *p = e->listed->pdata[i];

		json_person(o, p, n, act_person(ae, p->email), rv, true);
	}
	ms_out_end_list(o);
	ms_out_key(o, "others");
	ms_out_begin_list(o);
	for (guint i = 0; i < e->others->len; i++)
		json_person(o, e->others->pdata[i], n, NULL, rv, false);
	ms_out_end_list(o);
	ms_out_key(o, "defacto_maintainers");
	ms_out_begin_list(o);
	for (guint i = 0; i < e->defacto->len; i++) {
		const struct ms_rv_person *p = e->defacto->pdata[i];

		ms_out_begin_object(o);
		ms_out_kv_string(o, "name", p->name && *p->name ? p->name :
				 NULL);
		ms_out_kv_string(o, "email", p->email);
		ms_out_kv_int(o, "applied", (int64_t)p->applied);
		ms_out_kv_int(o, "first_replies", (int64_t)p->first_replies);
		ms_out_kv_int(o, "tags",
			      (int64_t)(p->reviewed_by + p->acked_by));
		ms_out_end_object(o);
	}
	ms_out_end_list(o);
	ms_out_key(o, "corporate_aliases");
	ms_out_begin_list(o);
	for (guint i = 0; i < e->aliases->len; i++) {
		const struct ms_rv_alias *al = e->aliases->pdata[i];

		ms_out_begin_object(o);
		ms_out_kv_string(o, "email", al->email);
		ms_out_kv_string(o, "name", al->name && *al->name ? al->name :
				 NULL);
		ms_out_key(o, "people");
		ms_out_begin_list(o);
		for (guint k = 0; k < al->people->len; k++) {
			const struct ms_rv_person *p = al->people->pdata[k];

			ms_out_begin_object(o);
			ms_out_kv_string(o, "name", p->name && *p->name ?
					 p->name : NULL);
			ms_out_kv_string(o, "email", p->email);
			ms_out_end_object(o);
		}
		ms_out_end_list(o);
		ms_out_end_object(o);
	}
	ms_out_end_list(o);
	ms_out_key(o, "patch_list");
	ms_out_begin_list(o);
	for (guint i = 0; i < e->patches->len; i++) {
		const struct ms_rv_patch *pt = &g_array_index(
			e->patches, struct ms_rv_patch, i);
		const struct ms_mail_rec *first = ms_mail_index_get(r->idx,
			g_array_index(pt->postings, uint32_t, 0));

		ms_out_begin_object(o);
		json_msg(o, r, "message_id", first->message_id);
		ms_out_kv_string(o, "subject", first->subject);
		ms_out_kv_string(o, "author", first->sender_email);
		json_date(o, "date", true, first->date);
		ms_out_key(o, "versions");
		ms_out_begin_list(o);
		for (guint k = 0; k < pt->postings->len; k++)
			ms_out_string(o, ms_mail_index_get(r->idx,
				g_array_index(pt->postings, uint32_t,
					      k))->message_id);
		ms_out_end_list(o);
		json_reply(o, r, "first_response", pt->has_first, &pt->first);
		json_reply(o, r, "first_maintainer_response", pt->has_maint,
			   &pt->first_maint);
		json_reply(o, r, "first_review_tag", pt->has_tag,
			   &pt->first_tag);
		ms_out_kv_bool(o, "ignored", pt->ignored);
		ms_out_key(o, "merged");
		if (pt->merged) {
			const struct ms_link_commit *lc =
				r->commits->pdata[pt->commit];

			ms_out_begin_object(o);
			ms_out_kv_string(o, "commit", lc->id);
			ms_out_kv_real(o, "hours",
				       (double)pt->merge_time / 3600.0);
			ms_out_end_object(o);
		} else {
			ms_out_null(o);
		}
		ms_out_end_object(o);
	}
	ms_out_end_list(o);
	ms_out_key(o, "tag_ledger");
	ms_out_begin_object(o);
	ms_out_key(o, "dropped");
	ms_out_begin_list(o);
	for (guint i = 0; i < e->tags_dropped->len; i++)
		json_tag(o, r, &g_array_index(e->tags_dropped,
					      struct ms_rv_tag, i));
	ms_out_end_list(o);
	ms_out_key(o, "untraced");
	ms_out_begin_list(o);
	for (guint i = 0; i < e->tags_untraced->len; i++)
		json_tag(o, r, &g_array_index(e->tags_untraced,
					      struct ms_rv_tag, i));
	ms_out_end_list(o);
	ms_out_end_object(o);
	if (e->intervals)
		json_series(o, r, e);
	ms_out_end_object(o);
}

/* Newest message date of the archive (the default --until). */
/* The whole `review --json` document. */
static void print_document(struct ms_out *o, const struct run *r)
{
	const struct ms_review *rv = r->rv;
	char d[32];

	ms_out_begin_document(o);
	ms_out_key(o, "window");
	ms_out_begin_object(o);
	ms_act_format(r->since, 0, true, false, d);
	ms_out_kv_string(o, "since", d);
	ms_act_format(r->until, 0, true, false, d);
	ms_out_kv_string(o, "until", d);
	ms_out_end_object(o);
	ms_out_kv_int(o, "ignore_after_days", r->ignore_after / 86400);
	ms_out_kv_int(o, "target_hours", r->target / 3600);
	ms_out_kv_int(o, "ignore_after_seconds", r->ignore_after);
	ms_out_kv_int(o, "target_seconds", r->target);
	ms_out_kv_int(o, "negative_intervals", (int64_t)rv->negative);
	ms_out_key(o, "set_aside");
	ms_out_begin_object(o);
	ms_out_kv_int(o, "stable", (int64_t)rv->aside_stable);
	ms_out_kv_int(o, "foreign_subject", (int64_t)rv->aside_foreign_subject);
	ms_out_kv_int(o, "foreign_paths", (int64_t)rv->aside_foreign_paths);
	ms_out_end_object(o);
	ms_out_kv_string(o, "list_url", r->list_url);
	ms_out_key(o, "entries");
	ms_out_begin_list(o);
	for (guint i = 0; i < rv->entries->len; i++)
		print_json(o, r, rv, rv->entries->pdata[i],
			   r->act_for ? r->act_for[i] : NULL);
	ms_out_end_list(o);
}

void cli_review_view_document(const struct cli_review_view *v,
			      struct ms_out *o)
{
	print_document(o, v->priv);
}

void cli_review_view_entry(const struct cli_review_view *v,
			   struct ms_out *o, size_t i)
{
	const struct run *r = v->priv;

	ms_out_begin_document(o);
	ms_out_key(o, "entry");
	print_json(o, r, r->rv, r->rv->entries->pdata[i],
		   r->act_for ? r->act_for[i] : NULL);
}

bool cli_review_view_inactive(const struct cli_review_view *v, size_t i,
			      const struct ms_rv_person *p)
{
	const struct run *r = v->priv;

	return inactive(p, act_person(r->act_for ? r->act_for[i] : NULL,
				      p->email), r->rv->since);
}

char *cli_review_view_url(const struct cli_review_view *v,
			  const char *msgid)
{
	return msg_url(v->priv, msgid);
}

/* Oldest message date of the archive (the series' start without
 * --since), or INT64_MAX. */
static int64_t oldest_mail(const struct ms_mail_index *idx)
{
	int64_t t = INT64_MAX;

	for (size_t i = 0; i < ms_mail_index_count(idx); i++) {
		const struct ms_mail_rec *r = ms_mail_index_get(idx, i);

		if (r->date_valid && r->date < t)
			t = r->date;
	}
	return t;
}

static int64_t newest_mail(const struct ms_mail_index *idx)
{
	int64_t t = 0;

	for (size_t i = 0; i < ms_mail_index_count(idx); i++) {
		const struct ms_mail_rec *r = ms_mail_index_get(idx, i);

		if (r->date_valid && r->date > t)
			t = r->date;
	}
	return t;
}

struct seen {
	const struct ms_activity *act;
	int64_t until;
};

static bool git_seen(unsigned person, void *data)
{
	const struct seen *s = data;

	return ms_activity_seen(s->act, person, s->until);
}

static void add_history_path(const char *path, void *data)
{
	g_ptr_array_add(data, (gpointer)path);
}

/*
 * Without git history, people are joined from what the list and
 * MAINTAINERS show: every sender (after DMARC and relay rewriting) and
 * every M:/R: line, then equal names.
 */
static void ident_from_list(struct ms_ident *id,
			    const struct ms_mail_index *mi,
			    const struct maint_file *mf,
			    const struct ms_tree *t, bool name_join,
			    struct ms_diags *diags)
{
	size_t n = ms_mail_index_count(mi);

	/* the lists' own addresses carry rewritten senders' names */
	for (size_t i = 0; i < maint_file_nr_entries(mf); i++) {
		const struct maint_entry *e = maint_file_entry(mf, i);

		for (size_t f = 0; f < e->nr_fields; f++) {
			char *name = NULL, *email = NULL;

			if (e->fields[f].key != 'L')
				continue;
			maint_parse_person(e->fields[f].value, &name, &email);
			if (email && *email)
				ms_ident_set_shared(id, ms_ident_resolve(
					id, NULL, email));
			g_free(name);
			g_free(email);
		}
	}
	for (size_t i = 0; i < n; i++) {
		const struct ms_mail_rec *m = ms_mail_index_get(mi,
							       (uint32_t)i);

		if (!m->sender_email)
			continue;
		ms_ident_set_evidence(id, m->message_id, true);
		ms_ident_resolve(id, m->sender_name, m->sender_email);
	}
	for (size_t i = 0; i < maint_file_nr_entries(mf); i++) {
		const struct maint_entry *e = maint_file_entry(mf, i);

		for (size_t f = 0; f < e->nr_fields; f++) {
			const struct maint_field *fl = &e->fields[f];
			const char *file = fl->file;
			size_t rl = strlen(ms_tree_root(t));
			char *name = NULL, *email = NULL, *ev;

			if (fl->key != 'M' && fl->key != 'R')
				continue;
			if (!strncmp(file, ms_tree_root(t), rl) &&
			    file[rl] == '/')
				file += rl + 1;
			ev = g_strdup_printf("%s:%u", file, fl->line);
			ms_ident_set_evidence(id, ev, false);
			maint_parse_person(fl->value, &name, &email);
			if (email && *email)
				ms_ident_set_listed(id, ms_ident_resolve(
					id, name, email));
			g_free(ev);
			g_free(name);
			g_free(email);
		}
	}
	ms_ident_set_evidence(id, NULL, false);
	if (name_join)
		ms_ident_join_names(id, diags);
}

int cmd_review(int argc, char **argv)
{
	return cli_review_main(argc, argv, NULL, NULL);
}

int cli_review_main(int argc, char **argv, cli_review_sink sink,
		    void *sink_data)
{
	struct cli_rev_opts ro = { 0 };
	struct cli_tree_opts to = { 0 };
	bool json = false;
	struct cli_strings files = { 0 };
	const char *ignore_arg = "14d", *target_arg = "48h";
	long limit = -1;
	struct ms_duration ignore_d, target_d;
	const char *list_url = NULL, *aliases_file = NULL;
	const char *by = NULL, *release_tags = "v*";
	struct cli_act_opts io = { 0 };   /* --mailmap, --no-name-join */
	bool no_plus_fold = false, include_stable = false;
	bool include_foreign = false;
	const char *foreign_subject = NULL;
	GRegex *foreign_re = NULL;
	const struct cli_option opts[] = {
		CLI_REV_OPTIONS(&ro),
		{ CLI_OPT_STRING, "aliases", 0, &aliases_file, "FILE",
		  "gitdm-style aliases: 'alias canonical' addresses per line "
		  "(default: none; .mailmap is always read)" },
		{ CLI_OPT_FLAG, "no-plus-fold", 0, &no_plus_fold, NULL,
		  "keep user+tag@domain apart from user@domain" },
		CLI_IDENT_OPTIONS(&io),
		{ CLI_OPT_STRING, "tree", 0, &to.tree, "DIR",
		  "without --repo: the source tree whose MAINTAINERS (and "
		  ".mailmap) to use (default: the enclosing git "
		  "repository's)" },
		{ CLI_OPT_STRING_LIST, "maintainers", 0, &to.maintainers,
		  "FILE", "read this MAINTAINERS file (default: the tree's)" },
		{ CLI_OPT_FLAG, "find-maintainer-files", 0,
		  &to.find_maintainer_files, NULL,
		  "also read every */MAINTAINERS below the tree" },
		{ CLI_OPT_STRING, "ignore-after", 0, &ignore_arg, "DURATION",
		  "a patch without reply this long is ignored (48h, 2w; "
		  "default 14d)" },
		{ CLI_OPT_STRING, "target", 0, &target_arg, "DURATION",
		  "the response target of the scores (default 48h)" },
		{ CLI_OPT_STRING, "list-url", 0, &list_url, "URL",
		  "the archive's base URL, for links to messages (default: "
		  "the remote a public-inbox mirror was fetched from)" },
		{ CLI_OPT_STRING, "by", 0, &by, "UNIT",
		  "a time series: month, quarter, year or release "
		  "(default: none)" },
		{ CLI_OPT_STRING, "release-tags", 0, &release_tags, "GLOB",
		  "--by release: the tags that end a release (default 'v*', "
		  "-rc tags never)" },
		{ CLI_OPT_FLAG, "include-stable", 0, &include_stable, NULL,
		  "count stable backports ([PATCH AUTOSEL], [PATCH 6.1.y], "
		  "[PATCH 5.15 012/123]) as patches" },
		{ CLI_OPT_FLAG, "include-foreign", 0, &include_foreign, NULL,
		  "count patches of other projects sharing the list" },
		{ CLI_OPT_STRING, "foreign-subject", 0, &foreign_subject,
		  "REGEX", "patches whose subject matches belong to another "
		  "project too (default: none)" },
		CLI_ENTRY_FILE_OPTION(&files),
		CLI_OPT_LIMIT(&limit),
		CLI_OPT_JSON(&json),
		CLI_OPTION_END,
	};
	enum ms_series_unit unit = MS_SERIES_MONTH;
	GArray *bounds = NULL, *qbounds = NULL;
	GPtrArray *labels = NULL;
	struct ms_review *rvq = NULL;
	struct cli_tree tree = { 0 };
	struct ms_diags diags = MS_DIAGS_INIT;
	struct ms_review_map *map = NULL;
	struct ms_link_mail *lm = NULL;
	struct ms_link_result *links = NULL;
	struct ms_review *rv = NULL;
	struct ms_review_opts rvo = { 0 };
	struct ms_link_opts lo = { 0 };
	const struct maint_entry **sel = NULL;
	GPtrArray *commits = NULL, *history_paths = NULL;
	struct ms_activity *act = NULL;
	struct ms_act_entry **act_for = NULL;
	GPtrArray *act_results = NULL;
	struct run r = { 0 };
	struct seen seen = { 0 };
	struct ms_ident *own_ident = NULL;
	char *aliases = NULL, *inbox_url = NULL, **mailmaps = NULL;
	gsize aliases_len = 0;
	size_t *mailmap_lens = NULL;
	int64_t since, until;
	bool have_tree = false;
	struct ms_out *o;
	int rc;

	rc = cli_parse_options(&argc, &argv, opts, &help);
	if (rc != CLI_CONTINUE)
		return rc;
	/* without --tree, the enclosing repository if there is one */
	if (!to.tree) {
		rc = cli_default_repo("review", &ro.repo, false);
		if (rc != CLI_CONTINUE)
			return rc;
	}
	if (!ro.archives.nr)
		return cli_usage_error("review", "--archive PATH is required");
	rc = cli_parse_duration("review", "ignore-after", ignore_arg,
				&ignore_d);
	if (rc != CLI_CONTINUE)
		return rc;
	rc = cli_parse_duration("review", "target", target_arg, &target_d);
	if (rc != CLI_CONTINUE)
		return rc;
	if (ms_duration_seconds(&target_d) <= 0)
		return cli_usage_error("review", "--target must be positive");
	if (by && ms_series_parse_unit(by, &unit) < 0)
		return cli_usage_error("review", "--by: %s", ms_error_last());
	if (by && unit == MS_SERIES_RELEASE && !ro.repo)
		return cli_usage_error("review", "--by release needs --repo "
				       "(its tags)");
	if (foreign_subject) {
		GError *err = NULL;

		foreign_re = g_regex_new(foreign_subject, G_REGEX_RAW, 0, &err);
		if (!foreign_re) {
			rc = cli_usage_error("review", "invalid "
					     "--foreign-subject '%s': %s",
					     foreign_subject, err->message);
			g_error_free(err);
			return rc;
		}
	}
	rc = cli_rev_window("review", &ro, &since, &until);
	if (rc != CLI_CONTINUE)
		goto out;
	to.repo = ro.repo;
	to.rev = ro.rev;
	rc = cli_tree_open("review", &to, NULL, &tree);
	if (rc != CLI_CONTINUE)
		goto out;
	have_tree = true;
	if (aliases_file) {
		GError *err = NULL;

		if (!g_file_get_contents(aliases_file, &aliases, &aliases_len,
					 &err)) {
			rc = cli_error("cannot read '%s': %s", aliases_file,
				       err->message);
			g_error_free(err);
			goto out;
		}
	}
	rc = cli_read_files(&io.mailmaps, &mailmaps, &mailmap_lens);
	if (rc != CLI_CONTINUE)
		goto out;
	{
		size_t nr_sel;

		rc = cli_select_entries("review", tree.mf, tree.idx, argc,
					argv, &files, &sel, &nr_sel);
		if (rc != CLI_CONTINUE)
			goto out;
		if (sel) {
			rvo.entries = sel;
			rvo.nr_entries = nr_sel;
		}
	}
	map = ms_review_map_new(tree.mf, tree.idx, &diags);
	ms_review_map_foreign_subject(map, foreign_re);
	cli_print_diags(&diags);
	ms_diags_release(&diags);
	rc = cli_rev_load("review", &ro, since, INT64_MAX,
			  MS_MAIL_PARSE_KEEP_BODY, ms_review_map_hook, map,
			  &commits, &lm);
	if (rc != CLI_CONTINUE)
		goto out;
	if (!ro.until)
		until = newest_mail(ms_link_mail_index(lm));
	if (ro.repo) {
		rc = cli_rev_link(&ro, lm, commits, &lo, &links);
		if (rc != CLI_CONTINUE)
			goto out;
	}
	rvo.since = since;
	rvo.until = until;
	rvo.ignore_after = ms_duration_seconds(&ignore_d);
	rvo.target = ms_duration_seconds(&target_d);
	if (by) {
		int64_t lo = since ? since : oldest_mail(ms_link_mail_index(lm));

		if (lo > until)
			lo = until;
		if (unit == MS_SERIES_RELEASE)
			rc = ms_series_releases(ro.repo, release_tags, lo,
						until, &bounds, &labels);
		else
			rc = ms_series_calendar(lo, until, unit, &bounds);
		if (rc == MS_EUSAGE) {
			rc = cli_usage_error("review", "--by: %s",
					     ms_error_last());
			goto out;
		}
		if (rc < 0) {
			rc = cli_error_last();
			goto out;
		}
		rvo.bounds = (const int64_t *)(void *)bounds->data;
		rvo.nr_intervals = bounds->len - 1;
	}
	rvo.include_stable = include_stable;
	rvo.include_foreign = include_foreign;
	rvo.tree = tree.tree;
	if (ro.repo) {
		/* people resolve as activity's git side does: the .mailmap
		 * of --rev, --aliases, case and plus-folding */
		struct ms_activity_load_opts alo = { 0 };

		alo.gitdir = ro.repo;
		alo.rev = ro.rev;
		alo.maintainers = to.maintainers.items;
		alo.nr_maintainers = (size_t)to.maintainers.nr;
		alo.find_maintainer_files = to.find_maintainer_files;
		alo.no_plus_fold = no_plus_fold;
		alo.aliases = aliases;
		alo.aliases_len = aliases_len;
		alo.aliases_name = aliases_file;
		alo.no_name_join = io.no_name_join;
		alo.mailmaps = (const char *const *)mailmaps;
		alo.mailmap_lens = mailmap_lens;
		alo.mailmap_names = io.mailmaps.items;
		alo.nr_mailmaps = (size_t)io.mailmaps.nr;
		rc = cli_store_open(&ro.store, ro.repo, &alo.store);
		if (rc != CLI_CONTINUE)
			goto out;
		rc = ms_activity_load(&alo, &act, &diags);
		ms_store_free(alo.store);
		cli_print_diags(&diags);
		ms_diags_release(&diags);
		if (rc < 0) {
			rc = cli_error_last();
			goto out;
		}
		rc = cli_act_set_range("review", act, ro.repo, ro.rev,
				       ro.since, since);
		if (rc != CLI_CONTINUE)
			goto out;
		rvo.ident = ms_activity_ident(act);
		seen.act = act;
		seen.until = ro.until ? until : INT64_MAX;
		rvo.git_seen = git_seen;
		rvo.git_seen_data = &seen;
		/* a patch to a file the history once had is the project's */
		history_paths = g_ptr_array_new();
		ms_activity_foreach_path(act, add_history_path, history_paths);
		rvo.history_paths = history_paths;
	} else {
		char *mm = NULL;
		size_t mm_len = 0;

		/* the tree's own .mailmap (a Debian or tarball kernel tree
		 * has one), --mailmap, --aliases; then the list's names */
		own_ident = ms_ident_new(!no_plus_fold);
		if (ms_tree_read(tree.tree, ".mailmap", &mm, &mm_len) == 0)
			ms_ident_add_mailmap(own_ident, ".mailmap", mm, mm_len,
					     &diags);
		g_free(mm);
		for (int i = 0; i < io.mailmaps.nr; i++)
			ms_ident_add_mailmap(own_ident, io.mailmaps.items[i],
					     mailmaps[i], mailmap_lens[i],
					     &diags);
		if (aliases)
			ms_ident_add_aliases(own_ident, aliases_file, aliases,
					     aliases_len, &diags);
		ident_from_list(own_ident, ms_link_mail_index(lm), tree.mf,
				tree.tree, !io.no_name_join, &diags);
		cli_print_diags(&diags);
		ms_diags_release(&diags);
		rvo.ident = own_ident;
	}
	rv = ms_review_compute(lm, map, tree.mf, commits, links, &rvo);
	if (sink && bounds) {
		/* the report's people per quarter: the same computation
		 * over quarters, from the mail already read */
		struct ms_review_opts qo = rvo;

		if (ms_series_calendar(rvo.bounds[0], until,
				       MS_SERIES_QUARTER, &qbounds) < 0) {
			rc = cli_error_last();
			goto out;
		}
		qo.bounds = (const int64_t *)(void *)qbounds->data;
		qo.nr_intervals = qbounds->len - 1;
		rvq = ms_review_compute(lm, map, tree.mf, commits, links, &qo);
	}

	if (ro.repo) {
		/* the git facts of `activity` over the same window */
		struct ms_activity_query q = { 0 };
		const struct maint_file *amf;

		amf = ms_activity_maintainers(act);
		act_for = g_new0(struct ms_act_entry *, rv->entries->len);
		act_results = g_ptr_array_new();
		q.since = since;
		q.until = ro.until ? until : ms_activity_newest(act);
		q.active_since = since;
		for (guint i = 0; i < rv->entries->len; i++) {
			const struct ms_rv_entry *e = rv->entries->pdata[i];
			const struct maint_entry *ae =
				maint_file_find(amf, e->entry->name);
			struct ms_act_entry *res = NULL;
			size_t nr = 0;

			if (!ae)
				continue;
			q.entries = &ae;
			q.nr_entries = 1;
			if (ms_activity_query(act, &q, &res, &nr) < 0) {
				rc = cli_error_last();
				goto out;
			}
			act_for[i] = res;
			g_ptr_array_add(act_results, res);
		}
	}

	/* evidence URLs: --list-url, else the archive's own address */
	for (int i = 0; !list_url && i < ro.archives.nr; i++) {
		inbox_url = ms_inbox_base_url(ro.archives.items[i]);
		list_url = inbox_url;
	}
	r.idx = ms_link_mail_index(lm);
	r.rv = rv;
	r.by = by;
	r.labels = labels;
	r.commits = commits;
	r.list_url = list_url;
	r.target = rvo.target;
	r.since = since;
	r.until = until;
	r.ignore_after = rvo.ignore_after;
	r.act_for = act_for;
	r.limit = limit;
	if (sink) {
		struct cli_review_view v = { 0 };

		v.rv = rv;
		v.idx = r.idx;
		v.commits = commits;
		v.act = act_for;
		v.list_url = list_url;
		v.target = rvo.target;
		v.act_model = act;
		v.rv_quarter = rvq;
		v.ident = rvo.ident;
		v.priv = &r;
		rc = sink(&v, sink_data);
		goto out;
	}
	o = ms_out_new(json ? MS_OUT_JSON : MS_OUT_TEXT, stdout);
	if (json) {
		print_document(o, &r);
	} else {
		print_context(stdout, &r, &ro, &to, aliases_file, &io,
			      !no_plus_fold);
		for (guint i = 0; i < rv->entries->len; i++) {
			if (i)
				fputc('\n', stdout);
			print_text(stdout, &r, rv, rv->entries->pdata[i],
				   act_for ? act_for[i] : NULL);
			if (by)
				print_series(stdout, &r,
					     rv->entries->pdata[i]);
		}
	}
	rc = ms_out_finish(o) < 0 ? cli_error_last() : EXIT_OK;
	ms_out_free(o);
out:
	if (act_results) {
		for (guint i = 0; i < act_results->len; i++)
			ms_act_entries_free(act_results->pdata[i], 1);
		g_ptr_array_unref(act_results);
	}
	g_free(act_for);
	ms_review_free(rv);
	ms_review_free(rvq);
	if (qbounds)
		g_array_free(qbounds, TRUE);
	if (bounds)
		g_array_free(bounds, TRUE);
	if (labels)
		g_ptr_array_unref(labels);
	ms_activity_free(act);
	ms_ident_free(own_ident);
	g_free(aliases);
	cli_files_free(mailmaps, mailmap_lens, (size_t)io.mailmaps.nr);
	g_free(inbox_url);
	ms_link_result_free(links);
	if (commits)
		g_ptr_array_unref(commits);
	if (history_paths)
		g_ptr_array_unref(history_paths);
	ms_link_mail_free(lm);
	if (have_tree)
		ms_review_map_report(map, &tree.diags);
	ms_review_map_free(map);
	g_free(sel);
	if (have_tree)
		cli_tree_close(&tree);
	if (foreign_re)
		g_regex_unref(foreign_re);
	return rc;
}
