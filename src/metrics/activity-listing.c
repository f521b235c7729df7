/*
 * activity-listing.c - who was listed in which entry when a window began
 * (act_listed_then()).
 *
 * A query reads the MAINTAINERS file of each entry it asks about at the
 * newest commit dated before the window's start (a->then_rev), and every
 * MAINTAINERS file of that commit's tree when the file did not exist
 * then.  What a query needs of a file is only, per entry name, the M:
 * and R: values of the first entry of that name: that is what is held,
 * per file read (or known absent) and for "every file", for as long as
 * queries ask about the same commit.  (Those sets were kept in the store
 * between runs until Dec 7; that saved 0.08-0.24 s of CPU after new
 * commits on U-Boot, docs/performance.md.)
 */
#include "activity.h"
#include "activity-internal.h"
#include "history.h"
#include "ident.h"
#include "maintainers.h"
#include "person.h"
#include "tree.h"

#include <glib.h>
#include <string.h>

/* A file of then_files that could not be read (not: absent then). */
static char unknown_file_marker;
#define UNKNOWN_FILE ((gpointer)&unknown_file_marker)

static void then_set_free(gpointer p)
{
	if (p && p != UNKNOWN_FILE)
		g_hash_table_destroy(p);
}

/*
 * A set of `mf`: entry name -> the M: and R: values of the first entry
 * of that name (maint_file_find()'s), each followed by '\n'.
 */
static GHashTable *then_set_of(const struct maint_file *mf)
{
	GHashTable *h = g_hash_table_new_full(g_str_hash, g_str_equal, g_free,
					      g_free);

	for (size_t i = 0; i < maint_file_nr_entries(mf); i++) {
		const struct maint_entry *me = maint_file_entry(mf, i);
		GString *v;

		if (g_hash_table_contains(h, me->name))
			continue;
		v = g_string_new(NULL);
		for (size_t k = 0; k < me->nr_fields; k++) {
			if (me->fields[k].key != 'M' &&
			    me->fields[k].key != 'R')
				continue;
			g_string_append(v, me->fields[k].value);
			g_string_append_c(v, '\n');
		}
		g_hash_table_insert(h, g_strdup(me->name),
				    g_string_free(v, FALSE));
	}
	return h;
}

/* The newest commit dated before `since`, into `hex`; false if none. */
static bool commit_before(const struct ms_activity *a, int64_t since,
			  char hex[41])
{
	const struct crec *best = NULL;

	for (guint ci = 0; ci < a->commits->len; ci++) {
		const struct crec *r = &g_array_index(a->commits, struct crec,
						      ci);

		if (r->ctime < since && (!best || r->ctime > best->ctime))
			best = r;
	}
	if (best)
		act_set_id(hex, best->raw);
	return best != NULL;
}

/* ---- reading MAINTAINERS at a->then_rev ---- */

/* MAINTAINERS file `path` at a->then_rev: its set, NULL when it did not
 * exist then, UNKNOWN_FILE when it cannot be read (then_lock held). */
static gpointer then_file(struct ms_activity *a, const char *path)
{
	struct ms_diags diags = MS_DIAGS_INIT;
	struct maint_file *mf;
	gpointer v;
	char *buf = NULL;
	size_t len = 0;
	int rc;

	if (g_hash_table_lookup_extended(a->then_files, path, NULL, &v))
		return v;
	rc = ms_history_read_file(a->gitdir, a->then_rev, path, &buf, &len);
	if (rc == MS_ENOTFOUND) {
		v = NULL;
	} else if (rc < 0) {
		v = UNKNOWN_FILE;
	} else {
		mf = maint_file_new();
		v = maint_file_parse(mf, path, buf, len, &diags) < 0 ?
			UNKNOWN_FILE : (gpointer)then_set_of(mf);
		maint_file_free(mf);
	}
	ms_error_clear();
	ms_diags_release(&diags);
	g_free(buf);
	g_hash_table_insert(a->then_files, g_strdup(path), v);
	return v;
}

/* Every MAINTAINERS file of the tree at a->then_rev, as
 * --find-maintainer-files reads them, or NULL (then_lock held). */
static GHashTable *then_all(struct ms_activity *a)
{
	struct maint_load_opts lo = { .find_maintainer_files = true };
	struct ms_diags diags = MS_DIAGS_INIT;
	struct ms_tree *tree = NULL;
	struct maint_file *mf = NULL;

	if (a->then_all_done)
		return a->then_all;
	a->then_all_done = true;
	if (ms_tree_from_git(a->gitdir, a->then_rev, &tree) == 0 &&
	    maint_file_load(tree, &lo, &mf, &diags) == 0)
		a->then_all = then_set_of(mf);
	maint_file_free(mf);
	ms_error_clear();
	ms_diags_release(&diags);
	ms_tree_free(tree);
	return a->then_all;
}

/* Whether an entry whose M: and R: values were `values` (each followed
 * by '\n') lists `p` under an address of theirs, or under their listed
 * name (an address changed without a join). */
static bool entry_lists(const struct ms_activity *a, const char *values,
			const struct ms_act_person *p)
{
	int fold = !a->no_plus_fold;
	char *key = ms_name_key(p->name);
	bool found = false;

	for (const char *v = values; *v && !found;) {
		const char *nl = strchr(v, '\n');
		size_t n = nl ? (size_t)(nl - v) : strlen(v);
		char *value = g_strndup(v, n);
		char *name = NULL, *email = NULL, *ne;
		char *nk;

		v += n + (nl ? 1 : 0);
		maint_parse_person(value, &name, &email);
		ne = email ? ms_email_normalize(email, fold) : NULL;
		for (size_t i = 0; ne && !found && (i == 0 || (p->also &&
						      p->also[i - 1])); i++) {
			const char *mine = i == 0 ? p->email : p->also[i - 1];
			char *nm = ms_email_normalize(mine, fold);

			found = nm && !strcmp(nm, ne);
			g_free(nm);
		}
		nk = name && key && *key ? ms_name_key(name) : NULL;
		found = found || (nk && !strcmp(nk, key));
		g_free(nk);
		g_free(ne);
		g_free(name);
		g_free(email);
		g_free(value);
	}
	g_free(key);
	return found;
}

/* The listing as of `since`: its commit (then_lock held).  The sets
 * known stay when the commit is the same. */
static void then_start(struct ms_activity *a, int64_t since)
{
	char rev[41] = "";

	commit_before(a, since, rev);
	if (a->then_done && !strcmp(rev, a->then_rev)) {
		a->then_since = since;
		return;
	}
	g_clear_pointer(&a->then_files, g_hash_table_destroy);
	a->then_files = g_hash_table_new_full(g_str_hash, g_str_equal, g_free,
					      then_set_free);
	g_clear_pointer(&a->then_all, g_hash_table_destroy);
	a->then_all_done = false;
	a->then_done = true;
	a->then_since = since;
	g_strlcpy(a->then_rev, rev, sizeof(a->then_rev));
}

int act_listed_then(const struct ms_activity *a,
		    const struct maint_entry *me,
		    const struct ms_act_person *p, int64_t since)
{
	struct ms_activity *m = (struct ms_activity *)a;
	const char *colon = me->file ? strchr(me->file, ':') : NULL;
	const char *values;
	gpointer file;
	int listed = -1;

	/* only for MAINTAINERS read from the revision ("REV:PATH") */
	if (!a->maint_from_rev || !a->gitdir || !colon || !colon[1])
		return -1;
	g_mutex_lock(&m->then_lock);
	if (!m->then_done || m->then_since != since)
		then_start(m, since);
	if (!m->then_rev[0])
		goto out;       /* no commit that old: unknown */
	file = then_file(m, colon + 1);
	if (file == UNKNOWN_FILE)
		goto out;
	if (!file) {
		/* moved (board/freescale/x/MAINTAINERS became
		 * board/nxp/x/...) or new: the entry in any file then */
		file = then_all(m);
		if (!file)
			goto out;
	}
	values = g_hash_table_lookup(file, me->name);
	listed = values && entry_lists(a, values, p);
out:
	g_mutex_unlock(&m->then_lock);
	return listed;
}

int ms_activity_listed_then(const struct ms_activity *a,
			    const struct maint_entry *me, unsigned person,
			    int64_t since)
{
	struct ms_act_person p = { 0 };
	int r;

	if (person == MS_IDENT_NONE)
		return -1;
	p.name = (char *)ms_ident_name(a->ident, person);
	p.email = (char *)ms_ident_email(a->ident, person);
	p.also = ms_ident_group_addresses(a->ident, person);
	r = act_listed_then(a, me, &p, since);
	g_strfreev(p.also);
	return r;
}

void act_listing_release(struct ms_activity *a)
{
	g_clear_pointer(&a->then_files, g_hash_table_destroy);
	g_clear_pointer(&a->then_all, g_hash_table_destroy);
}
