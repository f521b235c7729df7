/*
 * cli-review-out.c - the text and JSON of a review (cli-review-out.h):
 * per entry its figures, listed people, other repliers, ignored patches,
 * tag ledger and series, as `review` prints them and `report` embeds
 * them (docs/review.md, docs/json.md).
 */
#include "cli-review-out.h"
#include "activity.h"
#include "cli-activity.h"
#include "cli-date.h"
#include "mail.h"
#include "link.h"
#include "maintainers.h"
#include "output.h"
#include "review.h"
#include "verdict.h"
#include "when.h"

#include <glib.h>
#include <stdio.h>
#include <string.h>

/* "a of b" as a whole percentage, or "-" over nothing. */
static void pct(char buf[16], size_t a, size_t b)
{
	if (!b)
		snprintf(buf, 16, "-");
	else
		snprintf(buf, 16, "%u%%", cli_percent(a, b));
}

/*
 * A count of commits (a person's `commits`, `applied`): "n/a" in text
 * and null in JSON when no git history was read (`git` false), never a
 * 0 that reads as "none" (docs/json.md).
 */
static const char *git_count(char buf[24], bool git, size_t n)
{
	if (!git)
		return "n/a";
	snprintf(buf, 24, "%zu", n);
	return buf;
}

char *cli_review_msg_url(const char *list_url, const char *msgid)
{
	char *esc;
	char *url;

	if (!list_url)
		return NULL;
	esc = g_uri_escape_string(msgid, "@!$&'()*+,;=:", FALSE);
	url = g_strdup_printf("%s%s%s/", list_url,
			      g_str_has_suffix(list_url, "/") ? "" : "/",
			      esc);
	g_free(esc);
	return url;
}

/* The verdict on listed person `p` of review entry `e` (ap: their git
 * facts in `ae`, NULL without --repo), with the cutoff of run `r`. */
static void verdict(const struct cli_review_view *r,
		    const struct ms_rv_entry *e, const struct ms_act_entry *ae,
		    const char *email, struct ms_verdict *v)
{
	ms_verdict_person(ae, ms_act_entry_person(ae, email, NULL), email, e,
			  true, r->inactive_since, v);
}

void cli_review_print_context(FILE *fp, const struct cli_review_view *r)
{
	const struct cli_act_opts *o = r->opts;
	char a[32], b[32];

	cli_rev_print_archives(fp, o, r->idx);
	ms_act_format(r->since, 0, false, true, a);
	ms_act_format(r->until, 0, false, true, b);
	fprintf(fp, "Window: patches posted from %s to %s (UTC)\n",
		r->since ? a : "the first message",
		r->until != INT64_MAX ? b : "the last");
	if (o->repo)
		fprintf(fp, "Repository %s at %s\n", o->repo,
			o->rev ? o->rev : "HEAD");
	else
		fprintf(fp, "Tree %s (no history: no merged figures, and "
			"only an applied notice or a pull request makes a "
			"patch accepted)\n",
			o->tree ? o->tree : ".");
	if (o->repo && r->inactive_since) {
		ms_act_format(r->inactive_since, 0, false, true, a);
		fprintf(fp, "Inactive: listed people with nothing in git and "
			"no list message since %s\n", a);
	}
	fprintf(fp, "Identities: %s", o->repo || o->tree ?
		"the .mailmap" : "addresses");
	for (int i = 0; i < o->mailmaps.nr; i++)
		fprintf(fp, ", mailmap %s", o->mailmaps.items[i]);
	if (o->aliases)
		fprintf(fp, ", aliases %s", o->aliases);
	if (!o->no_name_join)
		fprintf(fp, ", equal names");
	if (!o->no_plus_fold)
		fprintf(fp, ", plus-address folding");
	ms_duration_format(r->ignore_after, a, sizeof(a));
	ms_duration_format(r->target, b, sizeof(b));
	fprintf(fp, "\nIgnored: no response at all (a late one counts), "
		"not judged until %s after the newest version; response "
		"target %s\n\n", a, b);
}

/* The patch postings set aside, by rule as the JSON's "set_aside" names
 * them ("Set aside: stable 4, foreign_subject 2, ..."), `all` of them,
 * and those kept by their pre-image blobs, each line after `indent`
 * when there are any; `what` follows "Set aside". */
static void text_aside(FILE *fp, const char *indent, const char *what,
		       const size_t *n, size_t all, size_t kept)
{
	if (all) {
		fprintf(fp, "%sSet aside%s: ", indent, what);
		for (int k = 0; k < MS_RV_ASIDE_RULES; k++)
			fprintf(fp, "%s%s %zu", k ? ", " : "",
				ms_rv_aside_rule_name(k), n[k]);
		fputc('\n', fp);
	}
	if (kept)
		fprintf(fp, "%sKept against subject or recipients, the "
			"repository has their pre-image blobs: %zu\n", indent,
			kept);
}

/* Where the entry's patches stand (docs/review.md). */
static void text_states(FILE *fp, const struct ms_rv_entry *e)
{
	char a[32], b[32], c[32], d[32], p1[16], rv[24];

	fprintf(fp, "  States:");
	for (int s = 0; s < MS_RV__STATES; s++)
		fprintf(fp, "%s %s %zu", s ? "," : "",
			ms_rv_state_name((enum ms_rv_state)s), e->states[s]);
	fputc('\n', fp);
	cli_share_text(p1, e->accept_rate);
	ms_duration_format(e->accept_median, a, 32);
	ms_duration_format(e->accept_p90, b, 32);
	ms_duration_format(e->open_median, c, 32);
	ms_duration_format(e->open_p90, d, 32);
	if (e->revisions_median < 0)
		snprintf(rv, sizeof(rv), "-");
	else
		snprintf(rv, sizeof(rv), "%" G_GINT64_FORMAT,
			 e->revisions_median);
	fprintf(fp, "  Accepted of decided %s, versions until accepted "
		"(median) %s, to acceptance: median %s, p90 %s; open %zu, "
		"waiting: median %s, p90 %s\n", p1, rv, a, b, e->open, c, d);
}

/* An entry's figures: its git side (with --repo), its patches and their
 * responses, ignored, merged, and its responsiveness. */
static void text_figures(FILE *fp, const struct cli_review_view *r,
			 const struct ms_rv_entry *e,
			 const struct ms_act_entry *ae)
{
	size_t n = e->patches->len;
	char a[32], b[32], c[32], d[32], p1[16], p2[16];

	if (ae) {
		fprintf(fp, "  Changes: reviewed %zu of %zu commits (%u%%)\n",
			ae->reviewed, ae->commits,
			cli_percent(ae->reviewed, ae->commits));
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
	text_aside(fp, "  ", "", e->aside, e->aside_total, e->own_by_blobs);
	ms_duration_format(e->ttfr_median, a, 32);
	ms_duration_format(e->ttfr_p90, b, 32);
	ms_duration_format(e->ttmr_median, c, 32);
	ms_duration_format(e->ttmr_p90, d, 32);
	fprintf(fp, "  First response: median %s, p90 %s; from a listed "
		"person: median %s, p90 %s\n", a, b, c, d);
	ms_duration_format(e->tttag_median, a, 32);
	ms_duration_format(e->tttag_p90, b, 32);
	pct(p1, e->tagged, n);
	fprintf(fp, "  First review tag: %zu (%s), median %s, p90 %s\n",
		e->tagged, p1, a, b);
	fprintf(fp, "  Ignored patches: %zu (from contributors %zu); listed "
		"people's own patches without another's review tag: %zu\n",
		e->ignored, e->ignored_contributor, e->own_unreviewed);
	if (r->commits) {
		ms_duration_format(e->merge_median, a, 32);
		ms_duration_format(e->merge_p90, b, 32);
		pct(p1, e->merged, n);
		fprintf(fp, "  Merged %zu (%s), posting to commit: median "
			"%s, p90 %s\n", e->merged, p1, a, b);
	}
	cli_share_text(p1, e->responsiveness);
	fprintf(fp, "  Responsiveness (%" G_GINT64_FORMAT "h): %s\n",
		r->target / 3600, p1);
	text_states(fp, e);
}

/* Listed person `p` of an entry of `n` patches: their git side (`ap`,
 * with --repo) and their list figures. */
static void text_listed(FILE *fp, const struct ms_rv_person *p, size_t n,
			const struct ms_act_person *ap)
{
	char a[32], b[32], p1[16], p2[16];

	fprintf(fp, "  ");
	cli_person_label(fp, p->name, p->email);
	fprintf(fp, ":\n");
	if (ap)
		cli_act_print_lasts(fp, ap);
	ms_duration_format(p->has_latency ? p->median_latency : -1, a, 32);
	if (p->has_last_list)
		ms_act_format(p->last_list, 0, false, true, b);
	else
		strcpy(b, "never");
	pct(p1, p->replied, n - p->own_patches);
	cli_share_text(p2, p->responsiveness);
	fprintf(fp, "    List replied %zu/%zu (%s), median %s, "
		"Reviewed-by %zu, Acked-by %zu, score %s, "
		"last %s\n", p->replied, n - p->own_patches, p1, a,
		p->reviewed_by, p->acked_by, p2, b);
}

/* The unlisted people: the first five repliers, the de-facto
 * maintainers, and the corporate aliases they answer for. */
static void text_others(FILE *fp, const struct ms_rv_entry *e, bool git)
{
	char c[24];

	if (e->others->len &&
	    ((const struct ms_rv_person *)e->others->pdata[0])->replied) {
		fprintf(fp, "  Other repliers:\n");
		for (guint i = 0; i < e->others->len && i < 5; i++) {
			const struct ms_rv_person *p = e->others->pdata[i];

			if (!p->replied)
				break;
			fprintf(fp, "    [%zu]: ", p->replied);
			if (p->via_list)
				fprintf(fp, "%s via %s (unattributed)", p->name,
					p->email);
			else
				cli_person_label(fp, p->name, p->email);
			fprintf(fp, " (first responses %zu, tags %zu, commits %s)\n",
				p->first_responses, p->reviewed_by + p->acked_by,
				git_count(c, git, p->commits));
		}
	}
	for (guint i = 0; i < e->defacto->len; i++) {
		const struct ms_rv_person *p = e->defacto->pdata[i];

		fprintf(fp, "  DE-FACTO MAINTAINER ");
		cli_person_label(fp, p->name, p->email);
		fprintf(fp, " (applied %s, accepted by notice %zu, first "
			"responses %zu, tags %zu)\n",
			git_count(c, git, p->applied), p->accepted_by_notice,
			p->first_responses, p->reviewed_by + p->acked_by);
	}
	for (guint i = 0; i < e->aliases->len; i++) {
		const struct ms_rv_alias *al = e->aliases->pdata[i];

		fprintf(fp, "  CORPORATE ALIAS %s:", al->email);
		for (guint k = 0; k < al->people->len; k++) {
			const struct ms_rv_person *p = al->people->pdata[k];

			fprintf(fp, "%s ", k ? "," : "");
			cli_person_label(fp, p->name, p->email);
		}
		fprintf(fp, "\n");
	}
}

/* The ignored patches, at most --limit, oldest first: the date, message
 * id, subject and link of their first version, as JSON and the report
 * give them (docs/review.md). */
static void text_ignored(FILE *fp, const struct cli_review_view *r,
			 const struct ms_rv_entry *e)
{
	size_t shown = 0, max = cli_limit(r->limit, false, e->ignored);
	char a[32];

	if (!e->ignored)
		return;
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
			pt->postings, uint32_t, 0));
		ms_act_format(rec->date, 0, false, true, a);
		url = cli_review_msg_url(r->list_url, rec->message_id);
		fprintf(fp, "    %s <%s> %s%s%s\n", a, rec->message_id,
			rec->subject ? rec->subject : "",
			url ? " " : "", url ? url : "");
		g_free(url);
	}
	cli_print_more(fp, "    ", shown, e->ignored);
}

/* The tag ledger: tags given on the list that the commit lost (with
 * the message that gave them), and tags of the commit never given on
 * the list. */
static void text_ledger(FILE *fp, const struct cli_review_view *r,
			const struct ms_rv_entry *e)
{
	static const char *const titles[] = {
		"Tags given on the list, missing from the commit",
		"Tags in the commit with no trace on the list",
	};
	const GArray *sides[] = { e->tags_dropped, e->tags_untraced };

	for (int side = 0; side < 2; side++) {
		if (sides[side]->len)
			fprintf(fp, "  %s:\n", titles[side]);
		for (guint i = 0; i < sides[side]->len; i++) {
			const struct ms_rv_tag *t = &g_array_index(
				sides[side], struct ms_rv_tag, i);
			const struct ms_link_commit *lc =
				r->commits->pdata[t->commit];

			fprintf(fp, "    %.12s %s: ", lc->id,
				ms_trailer_kind_name(t->kind));
			cli_person_label(fp, t->name, t->email);
			if (!side)
				fprintf(fp, " <%s>", ms_mail_index_get(
					r->idx, t->rec)->message_id);
			fputc('\n', fp);
		}
	}
}

/* One entry of the text report. */
void cli_review_print_text(FILE *fp, const struct cli_review_view *r,
			   const struct ms_review *rv,
			   const struct ms_rv_entry *e,
			   const struct ms_act_entry *ae)
{
	(void)rv;  /* the run's review: `e` is one of its entries */
	fprintf(fp, "Subsystem %s\n", e->entry->name);
	text_figures(fp, r, e, ae);
	for (guint i = 0; i < e->listed->len; i++) {
		const struct ms_rv_person *p = e->listed->pdata[i];

		text_listed(fp, p, e->patches->len, ms_act_entry_person(ae, p->email, NULL));
	}
	text_others(fp, e, r->commits != NULL);
	text_ignored(fp, r, e);
	text_ledger(fp, r, e);
	for (guint i = 0; i < e->listed->len; i++) {
		const struct ms_rv_person *p = e->listed->pdata[i];
		struct ms_verdict v;
		const char *mark;

		verdict(r, e, ae, p->email, &v);
		mark = ms_verdict_mark(&v);
		if (!mark)
			continue;
		fprintf(fp, "  %s %s ", mark,
			p->role == 'M' ? "MAINTAINER" : "REVIEWER");
		cli_person_label(fp, p->name, p->email);
		fprintf(fp, "\n");
	}
	if (e->negative)
		fprintf(fp, "  Negative intervals clamped: %zu\n", e->negative);
}

void cli_review_print_aside(FILE *fp, const struct cli_review_view *r,
			    bool list)
{
	const struct ms_review *rv = r->rv;
	const GArray *l = rv->aside_list;
	char date[32];

	if (!rv->aside_total && !rv->own_by_blobs)
		return;
	fputc('\n', fp);
	text_aside(fp, "", " over the archive (patch postings of the window, "
		   "any entry)", rv->aside, rv->aside_total, rv->own_by_blobs);
	for (int k = 0; list && k < MS_RV_ASIDE_RULES; k++) {
		size_t shown = 0, max = cli_limit(r->limit, false,
						  rv->aside[k]);

		if (rv->aside[k])
			fprintf(fp, "  %s:\n", ms_rv_aside_rule_name(k));
		for (guint i = 0; l && i < l->len && shown < max; i++) {
			const struct ms_rv_aside *a = &g_array_index(l,
				struct ms_rv_aside, i);
			const struct ms_mail_rec *rec;

			if ((int)a->rule != k)
				continue;
			shown++;
			rec = ms_mail_index_get(r->idx, a->rec);
			ms_act_format(rec->date, 0, false, true, date);
			fprintf(fp, "    %s <%s> %s\n      %s", date,
				rec->message_id, rec->subject ?
				rec->subject : "", a->evidence);
			if (a->by != a->rec)
				fprintf(fp, " (decided by <%s>)",
					ms_mail_index_get(r->idx,
							  a->by)->message_id);
			fputc('\n', fp);
		}
		cli_print_more(fp, "    ", shown, rv->aside[k]);
	}
}

static void json_msg(struct ms_out *o, const struct cli_review_view *r,
		     const char *key, const char *msgid)
{
	char *url = cli_review_msg_url(r->list_url, msgid);

	ms_out_kv_string(o, key, msgid);
	ms_out_kv_string(o, "url", url);
	g_free(url);
}

static void json_reply(struct ms_out *o, const struct cli_review_view *r,
		       const char *key, bool has, const struct ms_rv_reply *rep)
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
	cli_json_person_kv(o, "from", rec->sender_name, rec->sender_email);
	ms_out_kv_real(o, "hours", (double)rep->latency / 3600.0);
	ms_out_kv_bool(o, "clamped", rep->negative);
	ms_out_end_object(o);
}

/* Person `p` of an entry of `n` patches: their list figures, and for a
 * listed person (verdict `v`) their newest commits (ap: their git facts,
 * NULL without --repo) and the verdict. */
static void json_person(struct ms_out *o, const struct ms_rv_person *p,
			size_t n, const struct ms_act_person *ap,
			const struct ms_verdict *v, bool git)
{
	ms_out_begin_object(o);
	cli_rv_json_person(o, p, n, git);
	if (v) {
		ms_out_key(o, "git");
		if (ap) {
			ms_out_begin_object(o);
			cli_act_json_lasts(o, &ap->author, &ap->committer,
					   &ap->tags);
			ms_out_end_object(o);
		} else {
			ms_out_null(o);
		}
		cli_json_verdict(o, v);
	}
	ms_out_end_object(o);
}

static void json_tag(struct ms_out *o, const struct cli_review_view *r,
		     const struct ms_rv_tag *t)
{
	const struct ms_link_commit *lc = r->commits->pdata[t->commit];

	ms_out_begin_object(o);
	ms_out_kv_string(o, "commit", lc->id);
	ms_out_kv_string(o, "tag", ms_trailer_kind_name(t->kind));
	cli_json_person(o, t->name, t->email);
	if (t->rec != UINT32_MAX)
		json_msg(o, r, "message_id",
			 ms_mail_index_get(r->idx, t->rec)->message_id);
	ms_out_end_object(o);
}

/* Interval i of the review as counted: [*from, *to), the first and last
 * cut by the window. */
static void interval(const struct ms_review *rv, size_t i, int64_t *from,
		     int64_t *to)
{
	*from = MAX(rv->bounds[i], rv->since);
	*to = MIN(rv->bounds[i + 1], rv->until + 1);
}

/* The series as a compact table: one row per interval. */
void cli_review_print_series(FILE *fp, const struct cli_review_view *r,
			     const struct ms_rv_entry *e)
{
	const struct ms_review *rv = r->rv;
	char a[32], b[32], c[32];

	fprintf(fp, "  By %s (patches first posted in the interval):\n",
		r->by);
	fprintf(fp, "    %-12s %7s %7s %7s %9s %9s %7s %8s %5s\n", "start",
		"patches", "replied", "ignored", "ttfr-med", "ttfr-p90",
		"listed", "accepted", "open");
	for (size_t i = 0; i < rv->nr_intervals; i++) {
		const struct ms_rv_entry *s = e->intervals->pdata[i];
		const char *label = r->labels ? r->labels->pdata[i] : NULL;
		int64_t from, to;

		interval(rv, i, &from, &to);
		ms_act_format(from, 0, false, true, a);
		fprintf(fp, "    %-12s", a);
		if (!s) {
			fprintf(fp, " %7s", "-");
		} else {
			size_t n = s->patches->len;

			ms_duration_format(s->ttfr_median, b, 32);
			ms_duration_format(s->ttfr_p90, c, 32);
			fprintf(fp, " %7zu %7zu %7zu %9s %9s %6u%% %8zu %5zu",
				n, s->replied, s->ignored, b, c,
				cli_percent(s->replied_maint, n),
				s->states[MS_RV_ACCEPTED], s->open);
		}
		if (label)
			fprintf(fp, "  (until %s)", label);
		fputc('\n', fp);
	}
}

/* Keys "states" (a count per state), "acceptance_rate",
 * "revisions_until_accepted", "time_to_acceptance", "open" and
 * "open_age" (docs/json.md). */
static void json_states(struct ms_out *o, const struct ms_rv_entry *e)
{
	ms_out_kv_begin_object(o, "states");
	for (int s = 0; s < MS_RV__STATES; s++)
		ms_out_kv_int(o, ms_rv_state_name((enum ms_rv_state)s),
			      (int64_t)e->states[s]);
	ms_out_end_object(o);
	if (e->accept_rate < 0)
		ms_out_kv_null(o, "acceptance_rate");
	else
		ms_out_kv_real(o, "acceptance_rate", e->accept_rate);
	if (e->revisions_median < 0)
		ms_out_kv_null(o, "revisions_until_accepted");
	else
		ms_out_kv_int(o, "revisions_until_accepted",
			      e->revisions_median);
	cli_json_quant(o, "time_to_acceptance", e->accept_median, e->accept_p90);
	ms_out_kv_int(o, "open", (int64_t)e->open);
	cli_json_quant(o, "open_age", e->open_median, e->open_p90);
}

/* Key "set_aside": the patches left out, by why. */
static void json_set_aside(struct ms_out *o, const size_t *n)
{
	ms_out_kv_begin_object(o, "set_aside");
	for (int k = 0; k < MS_RV_ASIDE_RULES; k++)
		ms_out_kv_int(o, ms_rv_aside_rule_name(k), (int64_t)n[k]);
	ms_out_end_object(o);
}

/* Key "set_aside_list": each posting counted in "set_aside", the rule
 * that set it aside and its evidence, and the patch of its series that
 * evidence is of when not its own. */
static void json_aside_list(struct ms_out *o, const struct cli_review_view *r)
{
	const GArray *l = r->rv->aside_list;

	ms_out_kv_begin_list(o, "set_aside_list");
	for (guint i = 0; l && i < l->len; i++) {
		const struct ms_rv_aside *a = &g_array_index(l,
			struct ms_rv_aside, i);
		const struct ms_mail_rec *rec = ms_mail_index_get(r->idx,
								  a->rec);

		ms_out_begin_object(o);
		json_msg(o, r, "message_id", rec->message_id);
		ms_out_kv_string(o, "subject", rec->subject);
		cli_json_person_kv(o, "from", rec->sender_name,
				   rec->sender_email);
		cli_json_date(o, "date", rec->date_valid, rec->date);
		ms_out_kv_string(o, "reason", ms_rv_aside_rule_name(a->rule));
		ms_out_kv_string(o, "evidence", a->evidence);
		ms_out_kv_string(o, "decided_by", a->by == a->rec ? NULL :
				 ms_mail_index_get(r->idx, a->by)->message_id);
		ms_out_end_object(o);
	}
	ms_out_end_list(o);
}

/* An entry's figures in JSON: its patches and their responses, set
 * aside, merged, the latencies and its responsiveness; `whole` the
 * entry's (its set-aside patches and states too), else one interval's
 * of its series. */
static void json_figures(struct ms_out *o, const struct cli_review_view *r,
			 const struct ms_rv_entry *e, bool whole)
{
	size_t n = e->patches->len;

	ms_out_kv_int(o, "patches", (int64_t)n);
	ms_out_kv_int(o, "series", (int64_t)e->series);
	ms_out_kv_int(o, "replied", (int64_t)e->replied);
	ms_out_kv_int(o, "replied_by_listed", (int64_t)e->replied_maint);
	ms_out_kv_int(o, "review_tagged", (int64_t)e->tagged);
	ms_out_kv_int(o, "ignored", (int64_t)e->ignored);
	if (whole) {
		ms_out_kv_int(o, "ignored_contributor",
			      (int64_t)e->ignored_contributor);
		ms_out_kv_int(o, "own_unreviewed",
			      (int64_t)e->own_unreviewed);
		json_set_aside(o, e->aside);
		ms_out_kv_int(o, "kept_by_blobs", (int64_t)e->own_by_blobs);
	}
	cli_json_count(o, "merged", r->commits != NULL, e->merged);
	cli_json_count(o, "commits", r->commits != NULL, e->commits);
	cli_json_share(o, "reply_share", e->replied, n);
	cli_json_quant(o, "time_to_first_response", e->ttfr_median, e->ttfr_p90);
	cli_json_quant(o, "time_to_first_maintainer_response", e->ttmr_median,
		   e->ttmr_p90);
	cli_json_quant(o, "time_to_first_review_tag", e->tttag_median,
		   e->tttag_p90);
	cli_json_quant(o, "review_cycle_duration", e->merge_median, e->merge_p90);
	if (e->responsiveness < 0)           /* over no patch */
		ms_out_kv_null(o, "responsiveness");
	else
		ms_out_kv_real(o, "responsiveness", e->responsiveness);
	if (whole)
		ms_out_kv_int(o, "negative_intervals", (int64_t)e->negative);
	json_states(o, e);
}

static void json_series(struct ms_out *o, const struct cli_review_view *r,
			const struct ms_rv_entry *e)
{
	const struct ms_review *rv = r->rv;
	static const char *const figures[] = {
		"patches", "series", "replied", "replied_by_listed",
		"review_tagged", "ignored", "merged", "commits", "reply_share",
		"time_to_first_response", "time_to_first_maintainer_response",
		"time_to_first_review_tag", "review_cycle_duration",
		"responsiveness", "states", "acceptance_rate",
		"revisions_until_accepted", "time_to_acceptance", "open",
		"open_age", "people",
	};
	char d[32];

	ms_out_kv_begin_list(o, "intervals");
	for (size_t i = 0; i < rv->nr_intervals; i++) {
		const struct ms_rv_entry *s = e->intervals->pdata[i];
		int64_t from, to;

		interval(rv, i, &from, &to);
		ms_out_begin_object(o);
		ms_act_format(from, 0, true, false, d);
		ms_out_kv_string(o, "start", d);
		ms_act_format(to, 0, true, false, d);
		ms_out_kv_string(o, "end", d);
		if (r->labels)
			ms_out_kv_string(o, "release", r->labels->pdata[i]);
		if (!s) {
			for (size_t k = 0; k < G_N_ELEMENTS(figures); k++)
				ms_out_kv_null(o, figures[k]);
			ms_out_end_object(o);
			continue;
		}
		json_figures(o, r, s, false);
		cli_rv_json_people(o, "people", s->listed, s->patches->len,
				   r->commits != NULL);
		ms_out_end_object(o);
	}
	ms_out_end_list(o);
}

/* A patch's "state" and "state_evidence": the message or commit that
 * decided it (null: no answer yet). */
static void json_state(struct ms_out *o, const struct cli_review_view *r,
		       const struct ms_rv_patch *pt)
{
	ms_out_kv_string(o, "state", ms_rv_state_name(pt->state));
	ms_out_key(o, "state_evidence");
	if (pt->why.by == MS_RV_BY_NONE) {
		ms_out_null(o);
		return;
	}
	/* one shape: a message's members null for a commit, and back */
	ms_out_begin_object(o);
	if (pt->why.by == MS_RV_BY_COMMIT) {
		const struct ms_link_commit *lc =
			r->commits->pdata[pt->why.commit];

		ms_out_kv_null(o, "message_id");
		ms_out_kv_null(o, "url");
		ms_out_kv_null(o, "from");
		ms_out_kv_string(o, "commit", lc->id);
	} else {
		const struct ms_mail_rec *m = ms_mail_index_get(r->idx,
								pt->why.rec);

		json_msg(o, r, "message_id", m->message_id);
		cli_json_person_kv(o, "from", m->sender_name, m->sender_email);
		/* the commit id an applied notice gives, else null */
		ms_out_kv_string(o, "commit", pt->why.applied);
	}
	cli_json_date(o, "date", true, pt->why.date);
	ms_out_end_object(o);
}

/* Keys "defacto_maintainers" and "corporate_aliases". */
static void json_defacto_aliases(struct ms_out *o,
				 const struct ms_rv_entry *e, bool git)
{
	cli_rv_json_people(o, "defacto_maintainers", e->defacto,
			   e->patches->len, git);
	ms_out_kv_begin_list(o, "corporate_aliases");
	for (guint i = 0; i < e->aliases->len; i++) {
		const struct ms_rv_alias *al = e->aliases->pdata[i];

		ms_out_begin_object(o);
		ms_out_kv_string(o, "email", al->email);
		ms_out_kv_string(o, "name", al->name && *al->name ? al->name :
				 NULL);
		ms_out_kv_begin_list(o, "people");
		for (guint k = 0; k < al->people->len; k++) {
			const struct ms_rv_person *p = al->people->pdata[k];

			ms_out_begin_object(o);
			cli_json_person(o, p->name, p->email);
			ms_out_end_object(o);
		}
		ms_out_end_list(o);
		ms_out_end_object(o);
	}
	ms_out_end_list(o);
}

/* One patch of "patch_list": its first posting, versions, responses,
 * and the commit that merged it. */
static void json_patch(struct ms_out *o, const struct cli_review_view *r,
		       const struct ms_rv_patch *pt)
{
	const struct ms_mail_rec *first = ms_mail_index_get(r->idx,
		g_array_index(pt->postings, uint32_t, 0));

	ms_out_begin_object(o);
	json_msg(o, r, "message_id", first->message_id);
	ms_out_kv_string(o, "subject", first->subject);
	cli_json_person_kv(o, "author", first->sender_name,
			   first->sender_email);
	cli_json_date(o, "date", true, first->date);
	ms_out_kv_begin_list(o, "versions");
	for (guint k = 0; k < pt->postings->len; k++)
		ms_out_string(o, ms_mail_index_get(r->idx,
			g_array_index(pt->postings, uint32_t, k))->message_id);
	ms_out_end_list(o);
	json_reply(o, r, "first_response", pt->has_first, &pt->first);
	json_reply(o, r, "first_maintainer_response", pt->has_maint,
		   &pt->first_maint);
	json_reply(o, r, "first_review_tag", pt->has_tag, &pt->first_tag);
	ms_out_kv_bool(o, "is_ignored", pt->ignored);
	ms_out_key(o, "merged_as");
	if (pt->merged) {
		const struct ms_link_commit *lc = r->commits->pdata[pt->commit];

		ms_out_begin_object(o);
		ms_out_kv_string(o, "commit", lc->id);
		ms_out_kv_real(o, "hours", (double)pt->merge_time / 3600.0);
		ms_out_end_object(o);
	} else {
		ms_out_null(o);
	}
	json_state(o, r, pt);
	ms_out_end_object(o);
}

/* Key "tag_ledger": the tags dropped and the tags untraced. */
static void json_ledger(struct ms_out *o, const struct cli_review_view *r,
			const struct ms_rv_entry *e)
{
	ms_out_kv_begin_object(o, "tag_ledger");
	ms_out_kv_begin_list(o, "dropped");
	for (guint i = 0; i < e->tags_dropped->len; i++)
		json_tag(o, r, &g_array_index(e->tags_dropped,
					      struct ms_rv_tag, i));
	ms_out_end_list(o);
	ms_out_kv_begin_list(o, "untraced");
	for (guint i = 0; i < e->tags_untraced->len; i++)
		json_tag(o, r, &g_array_index(e->tags_untraced,
					      struct ms_rv_tag, i));
	ms_out_end_list(o);
	ms_out_end_object(o);
}

/* One entry's object of the JSON document. */
static void print_json(struct ms_out *o, const struct cli_review_view *r,
		       const struct ms_rv_entry *e,
		       const struct ms_act_entry *ae)
{
	size_t n = e->patches->len;

	ms_out_begin_object(o);
	ms_out_kv_string(o, "name", e->entry->name);
	json_figures(o, r, e, true);
	ms_out_kv_begin_list(o, "people");
	for (guint i = 0; i < e->listed->len; i++) {
		const struct ms_rv_person *p = e->listed->pdata[i];

		struct ms_verdict v;

		verdict(r, e, ae, p->email, &v);
		json_person(o, p, n, ms_act_entry_person(ae, p->email, NULL), &v,
			    r->commits != NULL);
	}
	ms_out_end_list(o);
	ms_out_kv_begin_list(o, "others");
	for (guint i = 0; i < e->others->len; i++)
		json_person(o, e->others->pdata[i], n, NULL, NULL,
			    r->commits != NULL);
	ms_out_end_list(o);
	json_defacto_aliases(o, e, r->commits != NULL);
	ms_out_kv_begin_list(o, "patch_list");
	for (guint i = 0; i < e->patches->len; i++)
		json_patch(o, r, &g_array_index(e->patches,
						struct ms_rv_patch, i));
	ms_out_end_list(o);
	json_ledger(o, r, e);
	if (e->intervals)
		json_series(o, r, e);
	ms_out_end_object(o);
}

/* The whole `review --json` document. */
void cli_review_print_document(struct ms_out *o,
			       const struct cli_review_view *r)
{
	const struct ms_review *rv = r->rv;
	int64_t since = r->since, last;

	ms_out_begin_document(o);
	/* without --since the window starts with the oldest message (not
	 * 1970, the 0 that stands for no bound) */
	if (!since && !ms_mail_index_span(r->idx, &since, &last, NULL))
		since = 0;
	cli_json_window(o, since != 0, since, r->until);
	cli_json_date(o, "active_since", r->inactive_since != 0,
		      r->inactive_since);
	ms_out_kv_int(o, "ignore_after_seconds", r->ignore_after);
	ms_out_kv_int(o, "target_seconds", r->target);
	ms_out_kv_int(o, "negative_intervals", (int64_t)rv->negative);
	json_set_aside(o, rv->aside);
	ms_out_kv_int(o, "kept_by_blobs", (int64_t)rv->own_by_blobs);
	json_aside_list(o, r);
	ms_out_kv_string(o, "list_url", r->list_url);
	ms_out_kv_begin_list(o, "entries");
	for (guint i = 0; i < rv->entries->len; i++)
		print_json(o, r, rv->entries->pdata[i],
			   r->act ? r->act[i] : NULL);
	ms_out_end_list(o);
}

void cli_review_view_entry(const struct cli_review_view *r,
			   struct ms_out *o, size_t i)
{
	ms_out_begin_document(o);
	ms_out_key(o, "review_entry");
	print_json(o, r, r->rv->entries->pdata[i],
		   r->act ? r->act[i] : NULL);
}

void cli_review_view_verdict(const struct cli_review_view *r, size_t i,
			     const char *email, struct ms_verdict *v)
{
	verdict(r, r->rv->entries->pdata[i], r->act ? r->act[i] : NULL, email,
		v);
}

const char *cli_review_view_mark(const struct cli_review_view *r, size_t i,
				 const char *email)
{
	struct ms_verdict v;

	cli_review_view_verdict(r, i, email, &v);
	return ms_verdict_mark(&v);
}
