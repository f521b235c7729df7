/*
 * urgent.c - LWN's categories of the urgent entries (urgent.h).
 */
#include "urgent.h"
#include "verdict.h"

#include <glib.h>

/* A committer among the top ones of this many entries merges as a
 * maintainer of last resort, not as the entry's own. */
#define LAST_RESORT_ENTRIES 10
#define MAX_MATCHES 64

struct ms_urgent {
	const struct maint_file *mf;
	const struct maint_index *idx;
	const struct ms_tree *tree;
	GHashTable *by_name;         /* entry name -> struct ms_rv_entry * */
	int64_t active_since;
	/* overlap by files, per entry index (computed on first use) */
	size_t *files;               /* tree files the entry matches */
	size_t *claimed;             /* ... also matched by an active entry */
	size_t *claimer;             /* the entry index claiming most */
	size_t *claimer_files;       /* ... and how many files it claims */
	size_t nr_entries;
};

struct ms_urgent *ms_urgent_new(const struct maint_file *mf,
				const struct maint_index *idx,
				const struct ms_tree *tree,
				const struct ms_review *rv,
				int64_t active_since)
{
	struct ms_urgent *u = g_new0(struct ms_urgent, 1);

	u->mf = mf;
	u->idx = idx;
	u->tree = tree;
	u->active_since = active_since;
	u->by_name = g_hash_table_new(g_str_hash, g_str_equal);
	for (guint i = 0; rv && i < rv->entries->len; i++) {
		struct ms_rv_entry *e = rv->entries->pdata[i];

		g_hash_table_insert(u->by_name, e->entry->name, e);
	}
	return u;
}

void ms_urgent_free(struct ms_urgent *u)
{
	if (!u)
		return;
	g_hash_table_unref(u->by_name);
	g_free(u->files);
	g_free(u->claimed);
	g_free(u->claimer);
	g_free(u->claimer_files);
	g_free(u);
}

const struct ms_rv_entry *ms_urgent_entry(const struct ms_urgent *u,
					  const char *name)
{
	return u ? g_hash_table_lookup(u->by_name, name) : NULL;
}

/* Whether entry `e` counts as active for overlap: a maintainer (M:) of
 * it is active in git or on the list, as the verdict engine says. */
static bool entry_active(const struct ms_urgent *u,
			 const struct ms_act_entry *e)
{
	return ms_verdict_entry_active(e, ms_urgent_entry(u, e->entry->name),
				       u->active_since);
}

/* In how many entries' top committers `email` appears. */
static size_t committer_spread(const struct ms_act_entry *all, size_t nr,
			       const char *email)
{
	size_t n = 0;

	for (size_t i = 0; i < nr; i++)
		for (size_t k = 0; k < all[i].nr_top_committers; k++)
			if (!g_ascii_strcasecmp(all[i].top_committers[k].email,
						email))
				n++;
	return n;
}

/* Which entries count as active for overlap (per entry index, `n` of
 * them): one with an active maintainer, but not a catch-all (THE REST:
 * it matches half the tree or more), which covers every file by
 * construction.  Counts each entry's files of the tree on the way. */
static int8_t *claiming_entries(struct ms_urgent *u,
				const struct ms_act_entry *all, size_t nr_all)
{
	size_t n = u->nr_entries;
	const struct ms_act_entry **act_of = g_new0(const struct ms_act_entry *,
						    n ? n : 1);
	int8_t *active = g_new0(int8_t, n ? n : 1);
	struct maint_match m[MAX_MATCHES];
	size_t nr_files = ms_tree_nr_files(u->tree);

	for (size_t i = 0; i < nr_all; i++)
		if (all[i].entry->index < n)
			act_of[all[i].entry->index] = &all[i];
	for (size_t i = 0; i < n; i++)
		active[i] = act_of[i] && entry_active(u, act_of[i]);
	for (size_t fi = 0; fi < nr_files; fi++) {
		size_t k = maint_index_match_depth(u->idx,
			ms_tree_path(u->tree, fi), m, MAX_MATCHES);

		for (size_t a = 0; a < k && a < MAX_MATCHES; a++)
			if (m[a].entry->index < n)
				u->files[m[a].entry->index]++;
	}
	for (size_t i = 0; i < n; i++)
		if (2 * u->files[i] >= nr_files)
			active[i] = 0;
	g_free(act_of);
	return active;
}

/* The active entry that claims most of entry `i`'s files (`claims`:
 * entry index + 1 -> files), lowest index first among equals. */
static void pick_claimer(struct ms_urgent *u, size_t i, GHashTable *claims)
{
	GHashTableIter it;
	gpointer k, v;
	size_t best = 0;

	g_hash_table_iter_init(&it, claims);
	while (g_hash_table_iter_next(&it, &k, &v))
		if (GPOINTER_TO_SIZE(v) > best ||
		    (GPOINTER_TO_SIZE(v) == best &&
		     GPOINTER_TO_SIZE(k) - 1 < u->claimer[i])) {
			best = GPOINTER_TO_SIZE(v);
			u->claimer[i] = GPOINTER_TO_SIZE(k) - 1;
		}
	u->claimer_files[i] = best;
}

/*
 * For every entry: how many files of the tree (MAINTAINERS at --rev) it
 * matches, how many of those an active other entry also matches, and
 * which active entry claims most.  Two passes over the tree.
 */
static void files_overlap(struct ms_urgent *u,
			  const struct ms_act_entry *all, size_t nr_all)
{
	size_t n = maint_file_nr_entries(u->mf);
	GHashTable **claims = g_new0(GHashTable *, n ? n : 1);
	struct maint_match m[MAX_MATCHES];
	size_t nr_files = ms_tree_nr_files(u->tree);
	int8_t *active;

	u->nr_entries = n;
	u->files = g_new0(size_t, n ? n : 1);
	u->claimed = g_new0(size_t, n ? n : 1);
	u->claimer = g_new0(size_t, n ? n : 1);
	u->claimer_files = g_new0(size_t, n ? n : 1);
	active = claiming_entries(u, all, nr_all);
	for (size_t fi = 0; fi < nr_files; fi++) {
		size_t k = maint_index_match_depth(u->idx,
			ms_tree_path(u->tree, fi), m, MAX_MATCHES);

		if (k > MAX_MATCHES)
			k = MAX_MATCHES;
		for (size_t a = 0; a < k; a++) {
			size_t ea = m[a].entry->index;
			bool claimed = false;

			if (ea >= n)
				continue;
			for (size_t b = 0; b < k; b++) {
				size_t eb = m[b].entry->index;
				gpointer key = GSIZE_TO_POINTER(eb + 1);

				if (eb == ea || eb >= n || !active[eb])
					continue;
				if (!claims[ea])
					claims[ea] = g_hash_table_new(NULL,
								      NULL);
				g_hash_table_insert(claims[ea], key,
					GSIZE_TO_POINTER(GPOINTER_TO_SIZE(
						g_hash_table_lookup(claims[ea],
								    key)) + 1));
				claimed = true;
			}
			if (claimed)
				u->claimed[ea]++;
		}
	}
	for (size_t i = 0; i < n; i++) {
		if (!claims[i])
			continue;
		pick_claimer(u, i, claims[i]);
		g_hash_table_unref(claims[i]);
	}
	g_free(claims);
	g_free(active);
}

/* How many of the patches of `re` also map to `o` (by first posting). */
static size_t shared_patches(const struct ms_rv_entry *re,
			     const struct ms_rv_entry *o)
{
	size_t shared = 0;

	for (guint a = 0; a < re->patches->len; a++) {
		uint32_t ra = g_array_index(g_array_index(re->patches,
			struct ms_rv_patch, a).postings, uint32_t, 0);

		for (guint b = 0; b < o->patches->len; b++)
			if (g_array_index(g_array_index(o->patches,
				struct ms_rv_patch, b).postings, uint32_t,
				0) == ra) {
				shared++;
				break;
			}
	}
	return shared;
}

/*
 * Whether entry `e` (list review `re`, or NULL) overlaps an active one:
 * most of the files it matches in the tree are also matched by an
 * active entry, or with no file in the tree (K: only) most of its
 * patches also map to an active entry.
 */
static bool overlap(struct ms_urgent *u, const struct ms_act_entry *e,
		    const struct ms_rv_entry *re,
		    const struct ms_act_entry *all, size_t nr_all, char **why)
{
	size_t i = e->entry->index;

	if (!u->files)
		files_overlap(u, all, nr_all);
	if (i < u->nr_entries && u->files[i]) {
		if (2 * u->claimed[i] <= u->files[i])
			return false;
		/* several active entries may share the claim (U-Boot's
		 * CLOCK: its vendors' entries): the one claiming most is
		 * named with its own count */
		if (why && u->claimer_files[i] == u->claimed[i])
			*why = g_strdup_printf("%zu of %zu files also claimed "
					       "by active %s", u->claimed[i],
					       u->files[i], maint_file_entry(
						       u->mf,
						       u->claimer[i])->name);
		else if (why)
			*why = g_strdup_printf("%zu of %zu files also claimed "
					       "by active entries, most (%zu) "
					       "by %s", u->claimed[i],
					       u->files[i],
					       u->claimer_files[i],
					       maint_file_entry(u->mf,
						       u->claimer[i])->name);
		return true;
	}
	if (!re || !re->patches->len)
		return false;
	for (size_t k = 0; k < nr_all; k++) {
		const struct ms_rv_entry *o;
		size_t shared;

		if (all[k].entry == e->entry || !entry_active(u, &all[k]))
			continue;
		o = ms_urgent_entry(u, all[k].entry->name);
		if (!o)
			continue;
		shared = shared_patches(re, o);
		if (2 * shared > re->patches->len) {
			if (why)
				*why = g_strdup_printf("%zu of %u patches also "
						       "go to active %s",
						       shared,
						       re->patches->len,
						       all[k].entry->name);
			return true;
		}
	}
	return false;
}

/* By its committers: one who commits most of the entry's changes is its
 * de-facto maintainer, unless they are a top committer of so many
 * entries that they merge as a maintainer of last resort (so even the
 * one commit of a quiet board); one commit alone names no one. */
static const char *by_committers(const struct ms_act_entry *e,
				 const struct ms_act_entry *all,
				 size_t nr_all, char **why)
{
	const struct ms_act_count *c = &e->top_committers[0];
	size_t spread;

	if (2 * c->count <= e->commits)
		return NULL;
	spread = committer_spread(all, nr_all, c->email);
	if (spread >= LAST_RESORT_ENTRIES) {
		if (why)
			*why = g_strdup_printf("merged by a maintainer of last "
					       "resort: %s, a top committer of "
					       "%zu entries", c->email, spread);
		return "unmaintained";
	}
	if (c->count < 2) {
		if (why)
			*why = g_strdup_printf("one commit in the window, by "
					       "%s: too few to tell who merges "
					       "it", c->email);
		return "unmaintained";
	}
	if (why)
		*why = g_strdup_printf("%s committed %zu of %zu", c->email,
				       c->count, e->commits);
	return "defacto_maintainer";
}

const char *ms_urgent_category(struct ms_urgent *u,
			       const struct ms_act_entry *e,
			       const struct ms_act_entry *all, size_t nr_all,
			       char **why)
{
	const struct ms_rv_entry *re = ms_urgent_entry(u, e->entry->name);
	const char *c;

	if (why)
		*why = NULL;
	if (re && re->aliases->len) {
		const struct ms_rv_alias *al = re->aliases->pdata[0];

		if (why)
			*why = g_strdup_printf("%s is answered by %u "
					       "people of its domain",
					       al->email, al->people->len);
		return "corporate_alias";
	}
	if (overlap(u, e, re, all, nr_all, why))
		return "overlap";
	if (re && re->defacto->len) {
		const struct ms_rv_person *p = re->defacto->pdata[0];

		if (why)
			*why = g_strdup_printf("%s handles its patches",
					       p->email);
		return "defacto_maintainer";
	}
	if (e->nr_top_committers) {
		c = by_committers(e, all, nr_all, why);
		if (c)
			return c;
	}
	if (why)
		*why = g_strdup(e->commits ? "merged by many different "
				"committers" : "no commit in the window");
	return "unmaintained";
}

bool ms_urgent_speaks_for(const struct ms_act_entry *e,
			  const struct ms_act_person *p)
{
	return p->role == 'M' || (!e->nr_maintainers && p->role == 'R');
}
