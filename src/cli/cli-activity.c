/*
 * cli-activity.c - loading the activity model for a command.
 */
#include "cli-activity.h"
#include "activity.h"
#include "cli-review.h"
#include "history.h"
#include "maintainers.h"
#include "output.h"
#include "store.h"

#include <glib.h>

int cli_act_load(const char *cmd, const struct cli_act_opts *o,
		 int default_years, struct ms_activity **out,
		 int64_t *since, int64_t *until)
{
	struct ms_activity_load_opts lo = { 0 };
	struct ms_diags diags = MS_DIAGS_INIT;
	char *aliases = NULL;
	gsize aliases_len = 0;
	int64_t s = 0, u = 0;
	int rc;

	*out = NULL;
	if (!o->repo)
		return cli_usage_error(cmd, "--repo GITDIR is required");
	/* bad dates fail before the walk, not after it */
	if (o->until) {
		rc = cli_date_or_rev(cmd, "until", o->repo, o->until, true,
				     &u);
		if (rc != CLI_CONTINUE)
			return rc;
	}
	if (o->since) {
		rc = cli_date_or_rev(cmd, "since", o->repo, o->since, false,
				     &s);
		if (rc != CLI_CONTINUE)
			return rc;
	}
	if (o->aliases) {
		GError *err = NULL;

		if (!g_file_get_contents(o->aliases, &aliases, &aliases_len,
					 &err)) {
			rc = cli_error("cannot read '%s': %s", o->aliases,
				       err->message);
			g_error_free(err);
			return rc;
		}
	}
	lo.gitdir = o->repo;
	lo.rev = o->rev;
	lo.merges = o->merges;
	lo.no_plus_fold = o->no_plus_fold;
	lo.aliases = aliases;
	lo.aliases_len = aliases_len;
	lo.aliases_name = o->aliases;
	rc = cli_store_open(&o->store, o->repo, &lo.store);
	if (rc != CLI_CONTINUE) {
		g_free(aliases);
		return rc;
	}
	lo.progress = cli_progress_count;
	cli_progress_start("commits walked", 0);
	rc = ms_activity_load(&lo, out, &diags);
	cli_progress_done();
	ms_store_free(lo.store);
	cli_print_diags(&diags);
	ms_diags_release(&diags);
	g_free(aliases);
	if (rc < 0)
		return cli_error_last();

	*until = o->until ? u : ms_activity_newest(*out);
	*since = o->since ? s : ms_act_date_shift(*until, -default_years, 0,
						  0);
	if (*since > *until) {
		ms_activity_free(*out);
		*out = NULL;
		return cli_usage_error(cmd, "the window is empty: --since is "
				       "after --until");
	}
	return CLI_CONTINUE;
}

/* The activity report block of one entry (the netdev layout). */
static void person_label(FILE *fp, const struct ms_act_person *p)
{
	if (*p->name && *p->email)
		fprintf(fp, "%s <%s>", p->name, p->email);
	else
		fprintf(fp, "%s", *p->email ? p->email : p->name);
}

static void text_last(FILE *fp, const char *what,
		      const struct ms_act_last *l)
{
	char date[32];

	if (!l->set)
		return;
	ms_act_format(l->time, l->offset, false, false, date);
	fprintf(fp, "    %s %.12s %s %zu\n", what, l->id, date, l->count);
}

void cli_act_print_entry(FILE *fp, const struct ms_act_entry *e,
			 const struct cli_list_facts *list_facts)
{
	char date[32];

	fprintf(fp, "Subsystem %s\n", e->entry->name);
	fprintf(fp, "  Changes %zu / %zu (%zu%%)\n", e->reviewed, e->commits,
		e->commits ? e->reviewed * 100 / e->commits : 0);
	if (e->has_last_activity) {
		ms_act_format(e->last_activity, e->last_activity_offset,
			      false, true, date);
		fprintf(fp, "  Last activity: %s\n", date);
	} else {
		fprintf(fp, "  Last activity: never\n");
	}
	cli_list_facts_text(fp, list_facts, e->entry->name);
	for (size_t i = 0; i < e->nr_people; i++) {
		const struct ms_act_person *p = &e->people[i];

		fprintf(fp, "  ");
		person_label(fp, p);
		fprintf(fp, ":\n");
		text_last(fp, "Author", &p->author);
		text_last(fp, "Committer", &p->committer);
		text_last(fp, "Tags", &p->tags);
	}
	if (e->nr_top_reviewers) {
		fprintf(fp, "  Top reviewers:\n");
		for (size_t i = 0; i < e->nr_top_reviewers; i++)
			fprintf(fp, "    [%zu]: %s\n",
				e->top_reviewers[i].count,
				*e->top_reviewers[i].email ?
				e->top_reviewers[i].email :
				e->top_reviewers[i].name);
	}
	for (size_t i = 0; i < e->nr_people; i++) {
		const struct ms_act_person *p = &e->people[i];

		if (!p->inactive || cli_list_facts_active(list_facts,
							  e->entry->name,
							  p->email))
			continue;
		fprintf(fp, "  INACTIVE %s ",
			p->role == 'M' ? "MAINTAINER" : "REVIEWER");
		person_label(fp, p);
		fprintf(fp, "\n");
	}
}

int cli_act_select(const char *cmd, const struct ms_activity *a, int argc,
		   char **argv, struct ms_activity_query *q,
		   const struct maint_entry ***sel)
{
	const struct maint_file *mf = ms_activity_maintainers(a);

	*sel = NULL;
	if (!argc)
		return CLI_CONTINUE;
	*sel = g_new(const struct maint_entry *, (size_t)argc);
	for (int i = 0; i < argc; i++) {
		(*sel)[i] = maint_file_find(mf, argv[i]);
		if (!(*sel)[i])
			return cli_usage_error(cmd, "no entry '%s' in "
					       "MAINTAINERS", argv[i]);
	}
	q->entries = *sel;
	q->nr_entries = (size_t)argc;
	return CLI_CONTINUE;
}

void cli_act_json_counts(struct ms_out *o, const char *key,
			 const struct ms_act_count *c, size_t nr)
{
	ms_out_key(o, key);
	ms_out_begin_list(o);
	for (size_t i = 0; i < nr; i++) {
		ms_out_begin_object(o);
		ms_out_kv_string(o, "name", *c[i].name ? c[i].name : NULL);
		ms_out_kv_string(o, "email", *c[i].email ? c[i].email : NULL);
		ms_out_kv_int(o, "count", (int64_t)c[i].count);
		ms_out_end_object(o);
	}
	ms_out_end_list(o);
}
