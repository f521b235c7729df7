/*
 * cli-review-out.h - the text and JSON of a review (cli-review-out.c),
 * for `maintstat review` and, through cli_review_view (cli-review.h),
 * for `maintstat report`.
 */
#ifndef MS_CLI_REVIEW_OUT_H
#define MS_CLI_REVIEW_OUT_H

#include "cli-review.h"

#include <glib.h>
#include <stdint.h>
#include <stdio.h>

struct cli_act_opts;
struct cli_tree_opts;
struct ms_act_entry;
struct ms_mail_index;
struct ms_out;
struct ms_review;
struct ms_rv_entry;

/* What the printers read: the review and how it was asked for (all
 * borrowed; the command owns them). */
struct cli_review_run {
	const struct ms_mail_index *idx;
	const struct ms_review *rv;
	const char *by;              /* --by, or NULL */
	const GPtrArray *labels;     /* release names per interval, or NULL */
	int64_t since, until;
	int64_t inactive_since;      /* with --repo: the git cutoff, else 0 */
	int64_t ignore_after;         /* seconds */
	struct ms_act_entry **act_for; /* per report entry, or NULL */
	const GPtrArray *commits;
	const char *list_url;
	int64_t target;
	long limit;                  /* --limit */
};
/*
 * What a text report starts with: the archives and the dates they span,
 * the window, where MAINTAINERS and the history come from, how people
 * are joined, and the thresholds.
 */
void cli_review_print_context(FILE *fp, const struct cli_review_run *r,
			      const struct cli_rev_opts *ro,
			      const struct cli_tree_opts *to,
			      const char *aliases,
			      const struct cli_act_opts *io, bool plus_fold);

/* The same for a command built on review's loading (pending, people). */
struct cli_review_view;
void cli_review_view_context(FILE *fp, const struct cli_review_view *v);

/* Entry `e` of the text report, `ae` its git facts (NULL without). */
void cli_review_print_text(FILE *fp, const struct cli_review_run *r,
			   const struct ms_review *rv,
			   const struct ms_rv_entry *e,
			   const struct ms_act_entry *ae);

/* With --by: entry `e`'s series as a table, one row per interval. */
void cli_review_print_series(FILE *fp, const struct cli_review_run *r,
			     const struct ms_rv_entry *e);

/* The whole `review --json` document. */
void cli_review_print_document(struct ms_out *o,
			       const struct cli_review_run *r);

/* The archive's URL of message `msgid` under `list_url` (NULL when that
 * is NULL); g_free it. */
char *cli_review_msg_url(const char *list_url, const char *msgid);

#endif
