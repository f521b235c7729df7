/*
 * verdict.c - what maintstat says of a listed person and of an entry
 * (verdict.h).
 */
#include "verdict.h"
#include "maintainers.h"
#include "when.h"

#include <glib.h>
#include <string.h>

int ms_verdict_window(const struct ms_activity *a, bool since_set,
		      int64_t since, bool until_set, int64_t until, int years,
		      const char *inactive_after,
		      struct ms_activity_query *q)
{
	int64_t newest = ms_activity_newest(a);
	int moved = 0;

	q->until = until_set ? until : newest;
	if (ms_activity_nr_commits(a) && q->until > newest + 86400) {
		q->until = newest;
		moved = 1;
	}
	q->since = since_set ? since : ms_act_date_shift(q->until, -years);
	q->active_since = 0;
	if (inactive_after && ms_when_parse(inactive_after, q->until, false,
					    &q->active_since) < 0)
		return -1;
	return moved;
}

const struct ms_rv_person *ms_verdict_listed(const struct ms_rv_entry *e,
					     const char *email)
{
	for (guint i = 0; e && email && i < e->listed->len; i++) {
		const struct ms_rv_person *p = e->listed->pdata[i];

		if (!g_ascii_strcasecmp(p->email, email))
			return p;
	}
	return NULL;
}

/* The facts looked at, before any decision. */
static void evidence(const struct ms_act_entry *e,
		     const struct ms_act_person *p, const char *email,
		     const struct ms_rv_entry *le, bool list_read,
		     int64_t cutoff, struct ms_verdict *v)
{
	const struct ms_rv_person *lp;

	memset(v, 0, sizeof(*v));
	v->email = p ? p->email : email;
	v->cutoff = cutoff;
	v->git_read = e && p;
	v->list_read = list_read;
	if (v->git_read) {
		v->role = p->role_address ? p->role_why : MS_ACT_ROLE_NONE;
		v->seen_anywhere = p->seen_anywhere;
		v->has_last_git = p->has_last;
		v->last_git = p->last_time;
		v->last_git_offset = p->last_offset;
		v->entry_commits = e->commits;
		v->cutoff_commits = e->cutoff_commits;
	}
	lp = list_read ? ms_verdict_listed(le, v->email) : NULL;
	if (lp && lp->has_last_list) {
		v->has_last_list = true;
		v->last_list = lp->last_list;
	}
	v->entry_patches = le ? le->patches->len : 0;
}

void ms_verdict_person(const struct ms_act_entry *e,
		       const struct ms_act_person *p, const char *email,
		       const struct ms_rv_entry *le, bool list_read,
		       int64_t cutoff, struct ms_verdict *v)
{
	evidence(e, p, email, le, list_read, cutoff, v);
	if (v->role != MS_ACT_ROLE_NONE)
		v->kind = MS_VERDICT_ROLE_ADDRESS;
	else if (v->has_last_git && v->last_git >= cutoff)
		v->kind = MS_VERDICT_ACTIVE;
	else if (ms_verdict_list_active(v))
		v->kind = MS_VERDICT_ACTIVE_ON_LIST;
	else if (!v->git_read)
		v->why = MS_VERDICT_WHY_NO_HISTORY;
	else if (e->no_files)
		v->why = MS_VERDICT_WHY_NO_FILES;
	else if (!v->entry_commits && !v->cutoff_commits &&
		 !v->entry_patches)
		v->why = MS_VERDICT_WHY_EMPTY_WINDOW;
	else if (p->listed_late)
		v->why = MS_VERDICT_WHY_LISTED_LATE;
	else if (!p->inactive)
		/* the model found it too short to judge */
		v->why = MS_VERDICT_WHY_SHORT_HISTORY;
	else
		v->kind = v->seen_anywhere ? MS_VERDICT_INACTIVE :
			MS_VERDICT_NEVER_ACTIVE;
	if (v->why != MS_VERDICT_WHY_NONE)
		v->kind = MS_VERDICT_NO_EVIDENCE;
}

bool ms_verdict_entry_active(const struct ms_act_entry *e,
			     const struct ms_rv_entry *le, int64_t cutoff)
{
	struct ms_verdict v;

	for (size_t i = 0; i < e->nr_people; i++) {
		if (e->people[i].role != 'M')
			continue;
		ms_verdict_person(e, &e->people[i], NULL, le, true, cutoff,
				  &v);
		if (v.kind == MS_VERDICT_ACTIVE ||
		    v.kind == MS_VERDICT_ACTIVE_ON_LIST)
			return true;
	}
	return false;
}

bool ms_verdict_list_active(const struct ms_verdict *v)
{
	return v->has_last_list && v->last_list >= v->cutoff;
}

bool ms_verdict_list_evidence(const struct ms_rv_person *p)
{
	return p->replied || p->has_last_list;
}

bool ms_verdict_inactive(const struct ms_verdict *v)
{
	return v->kind == MS_VERDICT_INACTIVE ||
	       v->kind == MS_VERDICT_NEVER_ACTIVE;
}

bool ms_verdict_judged(const struct ms_verdict *v)
{
	return v->git_read;
}

bool ms_verdict_role_address(const struct ms_verdict *v)
{
	return v->kind == MS_VERDICT_ROLE_ADDRESS;
}

const char *ms_verdict_mark(const struct ms_verdict *v)
{
	return ms_verdict_inactive(v) ? "INACTIVE" : NULL;
}

const char *ms_verdict_word(const struct ms_verdict *v)
{
	if (ms_verdict_mark(v))
		return ms_verdict_mark(v);
	return v->kind == MS_VERDICT_NO_EVIDENCE ? "no evidence" : "active";
}

char *ms_verdict_text(const struct ms_verdict *v)
{
	char d[32];

	switch (v->kind) {
	case MS_VERDICT_ACTIVE:
		return g_strdup("active");
	case MS_VERDICT_ACTIVE_ON_LIST:
		return g_strdup("active on the list");
	case MS_VERDICT_ROLE_ADDRESS:
		return g_strdup("not a person (a role or list address)");
	case MS_VERDICT_NO_EVIDENCE:
		if (v->why == MS_VERDICT_WHY_NO_HISTORY)
			return g_strdup("not judged (no git history read)");
		return g_strdup_printf("no evidence (%s)",
				       ms_verdict_why_text(v->why));
	case MS_VERDICT_INACTIVE:
	case MS_VERDICT_NEVER_ACTIVE:
		break;
	}
	if (!v->has_last_git)
		return g_strdup("inactive: nothing in the entry");
	ms_act_format(v->last_git, v->last_git_offset, false, true, d);
	d[7] = '\0';                       /* the month */
	return g_strdup_printf("inactive since %s", d);
}

const char *ms_verdict_never_text(const struct ms_verdict *v)
{
	return v->seen_anywhere ? "never active here" :
				  "never seen in the history";
}

const char *ms_verdict_name(const struct ms_verdict *v)
{
	static const char *const names[] = {
		"active", "active_on_list", "inactive", "never_active",
		"role_address", "no_evidence",
	};

	return (size_t)v->kind < G_N_ELEMENTS(names) ? names[v->kind] : "";
}

const char *ms_verdict_why_text(enum ms_verdict_why w)
{
	static const char *const text[] = {
		"",
		"no git history was read",
		"no file of the tree is the entry's",
		"no commit and no patch of the entry in the window or since "
		"the cutoff",
		"the history read starts after the cutoff",
		"not listed in the entry at the cutoff",
	};

	return (size_t)w < G_N_ELEMENTS(text) ? text[w] : "";
}

bool ms_verdict_elsewhere(const struct ms_activity *a,
			  const struct ms_activity_query *q,
			  const struct ms_act_person *p, int64_t *when)
{
	return p->inactive && p->seen_anywhere &&
		ms_activity_last_seen(a, p->person, q->until, when) &&
		*when >= q->active_since &&
		(!p->has_last || *when > p->last_time);
}

const char *ms_verdict_flag(const struct ms_activity *a,
			    const struct ms_activity_query *q,
			    const struct ms_act_person *p,
			    const struct ms_verdict *v,
			    char why[MS_VERDICT_WHY_SIZE])
{
	char d[32];
	int64_t when;

	ms_act_format(v->cutoff, 0, false, true, d);
	*why = 0;
	if (v->kind == MS_VERDICT_ROLE_ADDRESS) {
		g_strlcpy(why, ": not a person (never in the history; a list, "
			  "or a role's name or address)", MS_VERDICT_WHY_SIZE);
		return "ROLE ADDRESS";
	}
	/* the entry's own lines say no files; no history, no report */
	if (v->kind == MS_VERDICT_NO_EVIDENCE &&
	    v->why != MS_VERDICT_WHY_NO_FILES &&
	    v->why != MS_VERDICT_WHY_NO_HISTORY) {
		g_snprintf(why, MS_VERDICT_WHY_SIZE, ": %s (%s), so not "
			   "judged", ms_verdict_why_text(v->why), d);
		return v->why == MS_VERDICT_WHY_LISTED_LATE ? "NEWLY LISTED" :
			"NO EVIDENCE";
	}
	if (!ms_verdict_inactive(v))
		return NULL;
	if (ms_verdict_elsewhere(a, q, p, &when)) {
		ms_act_format(when, 0, false, true, d);
		g_snprintf(why, MS_VERDICT_WHY_SIZE, " (active elsewhere in "
			   "the history until %s)", d);
	} else if (!p->has_last) {
		/* no line of its own says what was looked at */
		if (!p->seen_anywhere) {
			g_strlcpy(why, " (never seen in the history)",
				  MS_VERDICT_WHY_SIZE);
		} else if (ms_activity_last_seen(a, p->person, q->until,
						 &when)) {
			ms_act_format(when, 0, false, true, d);
			g_snprintf(why, MS_VERDICT_WHY_SIZE, " (never in its "
				   "files; last in the history %s)", d);
		}
	}
	return "INACTIVE";
}

bool ms_verdict_busy(const struct ms_act_entry *e, long min_commits)
{
	return e->commits >= (size_t)(min_commits > 0 ? min_commits : 0);
}

const char *ms_verdict_urgent_reason(const struct ms_act_entry *e)
{
	if (!e->nr_maintainers)
		return "no_maintainer";
	for (size_t i = 0; i < e->nr_people; i++)
		if (e->people[i].role == 'M' && e->people[i].seen_anywhere)
			return "inactive";
	return "never";
}

bool ms_verdict_entry_judged(const struct ms_act_entry *e)
{
	return !e->no_files;
}

bool ms_verdict_never(const struct ms_act_entry *e)
{
	return ms_verdict_entry_judged(e) &&
	       !strcmp(ms_verdict_urgent_reason(e), "never");
}

int ms_verdict_category_rank(const char *category)
{
	static const char *const order[] = {
		"overlap", "corporate_alias", "defacto_maintainer",
		"unmaintained", "not urgent",
	};

	for (size_t i = 0; category && i < G_N_ELEMENTS(order); i++)
		if (!strcmp(category, order[i]))
			return (int)i;
	return (int)G_N_ELEMENTS(order);
}

bool ms_verdict_retire(const struct ms_act_entry *e,
		       const struct ms_verdict *v, long min_commits)
{
	return ms_verdict_busy(e, min_commits) && ms_verdict_inactive(v);
}

/*
 * "not authored, committed or tagged a change to its files since
 * 2019-06-01 (last seen there on ...; active elsewhere in the history
 * until ...)": the last part when the person is, so that whoever reads
 * the patch knows they can be asked, not only removed.
 */
char *ms_verdict_retire_reason(const struct ms_activity *a,
				const struct ms_activity_query *q,
				const struct ms_act_person *p)
{
	char since[32], last[32], elsewhere[96] = "";
	int64_t when;

	ms_act_format(q->active_since, 0, false, true, since);
	if (!p->seen_anywhere)
		return g_strdup_printf("not authored, committed or tagged any "
				       "change anywhere in the history");
	if (ms_verdict_elsewhere(a, q, p, &when)) {
		ms_act_format(when, 0, false, true, last);
		g_snprintf(elsewhere, sizeof(elsewhere), "%sactive elsewhere "
			   "in the history until %s", p->has_last ? "; " : " (",
			   last);
	}
	if (!p->has_last)
		return g_strdup_printf("not authored, committed or tagged a "
				       "change to its files in the history%s%s",
				       elsewhere, *elsewhere ? ")" : "");
	ms_act_format(p->last_time, p->last_offset, false, true, last);
	return g_strdup_printf("not authored, committed or tagged a change "
			       "to its files since %s (last seen there on "
			       "%s%s)", since, last, elsewhere);
}

char *ms_verdict_person_text(const struct ms_activity *a,
			     const struct ms_activity_query *q,
			     const struct ms_act_person *p,
			     const struct ms_verdict *v)
{
	GString *s = g_string_new(NULL);
	char date[32];
	int64_t when;

	if (ms_verdict_role_address(v)) {
		g_string_append(s, "a role or list address, not a person");
		return g_string_free(s, FALSE);
	}
	if (p->has_last) {
		ms_act_format(p->last_time, p->last_offset, false, true, date);
		g_string_append_printf(s, "last active here %s", date);
	} else {
		g_string_append(s, ms_verdict_never_text(v));
	}
	if (ms_verdict_elsewhere(a, q, p, &when)) {
		ms_act_format(when, 0, false, true, date);
		g_string_append_printf(s, "; active elsewhere in the history "
				       "until %s", date);
	}
	if (p->listed_late) {
		ms_act_format(q->active_since, 0, false, true, date);
		g_string_append_printf(s, "; newly listed (not in this entry "
				       "on %s), not judged", date);
	}
	if (p->role == 'R')
		g_string_append_printf(s, "; %s", ms_verdict_word(v));
	return g_string_free(s, FALSE);
}

unsigned ms_rv_defacto(const struct ms_rv_entry *e,
		       const struct ms_rv_person *p)
{
	size_t tags = p->reviewed_by + p->acked_by;
	/* answers in one thread are one piece of evidence, however many
	 * patches the series had */
	bool threads = p->threads >= 2;
	unsigned r = 0;

	if (p->role || p->via_list)
		return 0;
	if (p->applied >= 2 && 2 * p->applied > e->merged)
		r |= MS_RV_DEFACTO_APPLIED;
	if (threads && tags >= 2 && 2 * tags > e->tags_total)
		r |= MS_RV_DEFACTO_TAGS;
	/* and a quarter of all its patches: on a list an entry reaches by
	 * a few cross-posts (linux-leds' COMMON CLK FRAMEWORK, Rob
	 * Herring's 3 of its 36) no applier is its maintainer */
	if (p->accepted_by_notice >= 2 &&
	    2 * p->accepted_by_notice > e->accepted_by_notice &&
	    4 * p->accepted_by_notice >= e->patches->len)
		r |= MS_RV_DEFACTO_NOTICES;
	if (threads && p->first_responses >= 2 &&
	    2 * p->first_responses > e->first_replied_total)
		r |= MS_RV_DEFACTO_FIRST;
	return r;
}

size_t ms_verdict_defacto_reviewers(const struct ms_act_entry *e,
				    const struct ms_act_count **top)
{
	*top = e->top_reviewers;
	return maint_entry_catch_all(e->entry) ? 0 : e->nr_top_reviewers;
}
