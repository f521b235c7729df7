/*
 * activity-records.c - the model's commit records one by one
 * (activity.h), for the metrics that count them by something other than
 * the entries (areas.h: by directory).
 */
#include "activity.h"
#include "activity-internal.h"

#include <glib.h>

void ms_activity_record(const struct ms_activity *a, size_t i,
			struct ms_act_record *out)
{
	const struct crec *r = &g_array_index(a->commits, struct crec, i);

	act_set_id(out->id, r->raw);
	out->atime = r->atime;
	out->ctime = r->ctime;
	out->author = r->author;
	out->committer = r->committer;
	out->applier = r->applier;
	out->reviewed = r->reviewed;
	out->entries = &g_array_index(a->ents, uint32_t, r->ent_off);
	out->nr_entries = r->nr_ent;
	out->nr_tags = r->nr_tag;
}

void ms_activity_record_tag(const struct ms_activity *a, size_t i, size_t t,
			    unsigned *person, const char **token, bool *review)
{
	const struct crec *r = &g_array_index(a->commits, struct crec, i);
	const struct ctag *tag = &g_array_index(a->tags, struct ctag,
						r->tag_off + t);

	*person = tag->person;
	*token = tag->token;
	*review = tag->review;
}

int ms_activity_record_window(const struct ms_activity *a, size_t i,
			      int64_t since, int64_t until)
{
	const struct crec *r = &g_array_index(a->commits, struct crec, i);
	bool inwin;

	if (r->ctime > until)
		return -1;
	inwin = r->ctime >= since;
	if (a->in_range)
		inwin = a->in_range[i] && (since <= a->range_since || inwin);
	return inwin;
}

const char *const *ms_activity_walked_paths(const struct ms_activity *a,
					    size_t i, size_t *n)
{
	guint32 from, to;

	*n = 0;
	if (!a->walked_off || i + 1 >= a->walked_off->len)
		return NULL;
	from = g_array_index(a->walked_off, guint32, i);
	to = g_array_index(a->walked_off, guint32, i + 1);
	*n = to - from;
	return (const char *const *)a->walked_paths->pdata + from;
}

const struct ms_tree *ms_activity_tree(const struct ms_activity *a)
{
	return a->tree;
}

const char *ms_activity_gitdir(const struct ms_activity *a)
{
	return a->gitdir;
}
