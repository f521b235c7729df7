/*
 * cli-review-out.h - the text and JSON of a review (cli-review-out.c),
 * for `maintstat review` and the commands built on its loading (report,
 * pending, people), all from one struct cli_review_view (cli-review.h).
 */
#ifndef MS_CLI_REVIEW_OUT_H
#define MS_CLI_REVIEW_OUT_H

#include "cli-review.h"

#include <glib.h>
#include <stdint.h>
#include <stdio.h>

struct ms_act_entry;
struct ms_out;
struct ms_review;
struct ms_rv_entry;

/*
 * The printers read a review and how it was asked for
 * (struct cli_review_view, cli-review.h; all borrowed).
 *
 * What a text report starts with: the archives and the dates they span,
 * the window, where MAINTAINERS and the history come from, how people
 * are joined, and the thresholds.
 */
void cli_review_print_context(FILE *fp, const struct cli_review_view *r);

/* Entry `e` of the text report, `ae` its git facts (NULL without). */
void cli_review_print_text(FILE *fp, const struct cli_review_view *r,
			   const struct ms_review *rv,
			   const struct ms_rv_entry *e,
			   const struct ms_act_entry *ae);

/* With --by: entry `e`'s series as a table, one row per interval. */
void cli_review_print_series(FILE *fp, const struct cli_review_view *r,
			     const struct ms_rv_entry *e);

/* After the entries: the patch postings set aside over the archive, by
 * rule, and with `list` (--set-aside) each, with its evidence, at most
 * --limit of a rule. */
void cli_review_print_aside(FILE *fp, const struct cli_review_view *r,
			    bool list);

/* The whole `review --json` document. */
void cli_review_print_document(struct ms_out *o,
			       const struct cli_review_view *r);

/* The archive's URL of message `msgid` under `list_url` (NULL when that
 * is NULL); g_free it. */
char *cli_review_msg_url(const char *list_url, const char *msgid);

#endif
