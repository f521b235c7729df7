/*
 * verdict-urgent.c - the one definition of urgent (verdict.h): whether an
 * entry is urgent, from its maintainers' verdicts (verdict.c), and then
 * its LWN category (urgent.c, which asks verdict.c which entries are
 * active: so this file comes after both).
 */
#include "verdict.h"
#include "urgent.h"

#include <glib.h>

static bool has_files(const struct maint_entry *e)
{
	for (size_t i = 0; i < e->nr_fields; i++)
		if (e->fields[i].key == 'F' || e->fields[i].key == 'N')
			return true;
	return false;
}

/* Why an entry is urgent or not (urgency()), in that order. */
enum urgency {
	URGENT,
	NO_PATTERN,     /* no F: or N: */
	NO_FILES,       /* no file of the tree is its own */
	DEFAULT_ROUTE,  /* a catch-all listing no maintainer */
	QUIET,          /* no commit and no patch in the window */
	ACTIVE,         /* a maintainer active since the cutoff */
	NOT_JUDGED,     /* a maintainer with no evidence: `v` says why */
};

static enum urgency urgency(const struct ms_act_entry *e,
			    const struct ms_rv_entry *le, bool list_read,
			    int64_t cutoff, struct ms_verdict *v)
{
	if (!has_files(e->entry))
		return NO_PATTERN;
	if (e->no_files)
		return NO_FILES;
	/* kvm-unit-tests' "Default mailing list" (an L: line and F: *):
	 * where a patch goes when no entry names it, no subsystem */
	if (!e->nr_maintainers && maint_entry_catch_all(e->entry))
		return DEFAULT_ROUTE;
	/* nothing happened in the window: no one to miss */
	if (!e->commits && !(le && le->patches->len))
		return QUIET;
	for (size_t i = 0; i < e->nr_people; i++) {
		if (e->people[i].role != 'M')
			continue;
		ms_verdict_person(e, &e->people[i], NULL, le, list_read,
				  cutoff, v);
		/* a role address is no active maintainer, but no inactive
		 * one either */
		if (!ms_verdict_inactive(v) &&
		    v->kind != MS_VERDICT_ROLE_ADDRESS)
			return v->kind == MS_VERDICT_NO_EVIDENCE ?
				NOT_JUDGED : ACTIVE;
	}
	return URGENT;
}

const char *ms_verdict_urgency(struct ms_urgent *u,
			       const struct ms_act_entry *e,
			       const struct ms_act_entry *all, size_t nr_all,
			       int64_t cutoff, char **why)
{
	static const char *const text[] = {
		NULL, "no file pattern (F:, N:)",
		"no file of the tree is its own",
		"a catch-all (F: *) listing no maintainer: the project's "
		"default route",
		"no commit and no patch in the window",
		"a maintainer active in git or on the list since %s",
		"a maintainer not judged: %s (%s)",
	};
	struct ms_verdict v;
	enum urgency r = urgency(e, ms_urgent_entry(u, e->entry->name),
				 u != NULL, cutoff, &v);
	char d[32];

	if (r == URGENT && u)
		return ms_urgent_category(u, e, all, nr_all, why);
	if (why)
		*why = NULL;
	if (r == URGENT)
		return "urgent";
	ms_act_format(cutoff, 0, false, true, d);
	if (why)
		*why = r == NOT_JUDGED ? g_strdup_printf(text[r],
			ms_verdict_why_text(v.why), d) :
			g_strdup_printf(text[r], d);
	return "not urgent";
}

bool ms_verdict_selected(enum ms_verdict_selection s,
			 const struct ms_act_entry *e,
			 const struct ms_urgent *u, int64_t cutoff,
			 long min_commits)
{
	struct ms_verdict v;

	if (!ms_verdict_busy(e, min_commits))
		return false;
	switch (s) {
	case MS_VERDICT_SELECT_NEVER:
		return ms_verdict_never(e);
	case MS_VERDICT_SELECT_NOMAINT:
		return !e->nr_maintainers;
	case MS_VERDICT_SELECT_URGENT:
		break;
	}
	return urgency(e, ms_urgent_entry(u, e->entry->name), u != NULL,
		       cutoff, &v) == URGENT;
}

