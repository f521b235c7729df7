/*
 * activity-listing.c - who was listed in which entry when a window began
 * (act_listed_then()), or at any time in it (ms_activity_listed_during()).
 *
 * A query reads the MAINTAINERS file of each entry it asks about at the
 * newest commit dated before the window's start (a->then_rev), and every
 * MAINTAINERS file of that commit's tree when the file did not exist
 * then: per entry name, the M: and R: values of the first entry of
 * that name.  The files read (or known absent) stay for as long as
 * queries ask about the same commit.  (What a query needed of them was
 * kept in the store between runs until Dec 7; that saved 0.08-0.24 s of
 * CPU after new commits on U-Boot, docs/performance.md.)
 */
#include "activity.h"
#include "activity-internal.h"
#include "bytes.h"
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

static void then_file_free(gpointer p)
{
	if (p != UNKNOWN_FILE)
		maint_file_free(p);
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

/* MAINTAINERS file `path` at a->then_rev, NULL when it did not exist
 * then, UNKNOWN_FILE when it cannot be read (then_lock held). */
static gpointer then_file(struct ms_activity *a, const char *path)
{
	struct ms_diags diags = MS_DIAGS_INIT;
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
		v = maint_file_new();
		if (maint_file_parse(v, path, buf, len, &diags) < 0) {
			maint_file_free(v);
			v = UNKNOWN_FILE;
		}
	}
	ms_error_clear();
	ms_diags_release(&diags);
	g_free(buf);
	g_hash_table_insert(a->then_files, g_strdup(path), v);
	return v;
}

/* Every MAINTAINERS file of the tree at a->then_rev, as
 * --find-maintainer-files reads them, or NULL (then_lock held). */
static struct maint_file *then_all(struct ms_activity *a)
{
	struct maint_load_opts lo = { .find_maintainer_files = true };
	struct ms_diags diags = MS_DIAGS_INIT;
	struct ms_tree *tree = NULL;

	if (a->then_all_done)
		return a->then_all;
	a->then_all_done = true;
	if (ms_tree_from_git(a->gitdir, a->then_rev, &tree) < 0 ||
	    maint_file_load(tree, &lo, &a->then_all, &diags) < 0)
		g_clear_pointer(&a->then_all, maint_file_free);
	ms_error_clear();
	ms_diags_release(&diags);
	ms_tree_free(tree);
	return a->then_all;
}

/* Whether entry `me` lists `p` as M: or R: under an address of theirs,
 * or under their listed name (an address changed without a join). */
static bool entry_lists(const struct ms_activity *a,
			const struct maint_entry *me,
			const struct ms_act_person *p)
{
	int fold = !a->no_plus_fold;
	char *key = ms_name_key(p->name);
	bool found = false;

	for (size_t k = 0; k < me->nr_fields && !found; k++) {
		char *name = NULL, *email = NULL, *ne;
		char *nk;

		if (me->fields[k].key != 'M' && me->fields[k].key != 'R')
			continue;
		maint_parse_person(me->fields[k].value, &name, &email);
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
	}
	g_free(key);
	return found;
}

/* The listing as of `since`: its commit (then_lock held).  The files
 * read stay when the commit is the same. */
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
					      then_file_free);
	g_clear_pointer(&a->then_all, maint_file_free);
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
	const struct maint_entry *then;
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
	then = maint_file_find(file, me->name);
	listed = then && entry_lists(a, then, p);
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

/* Whether MAINTAINERS text `buf` of commit `hex` lists `p` in entry
 * `name`: the entry's lines (its name's line to the next empty one) are
 * parsed only when they hold an address or the name of `p`. */
static bool text_lists(const struct ms_activity *a, const char *hex,
		       const char *buf, size_t len, const char *name,
		       const struct ms_act_person *p)
{
	struct ms_diags diags = MS_DIAGS_INIT;
	struct maint_file *mf;
	const struct maint_entry *e;
	const char *end = buf + len, *at = buf, *stop;
	size_t nl = strlen(name);
	char *lines;
	bool hit, r;

	/* the line that is the name, at the start of the text or a line */
	while ((at = g_strstr_len(at, end - at, name)) &&
	       ((at > buf && at[-1] != '\n') ||
		(at + nl < end && at[nl] != '\n' && at[nl] != '\r')))
		at += nl;
	if (!at)
		return false;
	stop = g_strstr_len(at, end - at, "\n\n");
	lines = g_strndup(at, (size_t)((stop ? stop + 1 : end) - at));
	/* in any case: the addresses are normalized, the file's are not */
	hit = p->name && *p->name && strcasestr(lines, p->name);
	for (size_t i = 0; !hit && (i == 0 || (p->also && p->also[i - 1]));
	     i++) {
		const char *addr = i == 0 ? p->email : p->also[i - 1];

		hit = addr && strcasestr(lines, addr);
	}
	mf = hit ? maint_file_new() : NULL;
	r = mf && maint_file_parse(mf, hex, lines, strlen(lines),
				   &diags) == 0 &&
		(e = maint_file_find(mf, name)) && entry_lists(a, e, p);
	g_free(lines);
	ms_error_clear();
	ms_diags_release(&diags);
	maint_file_free(mf);
	return r;
}

/* Whether '\n'-separated `lines` holds `line`. */
static bool has_line(const char *lines, const char *line)
{
	size_t n = strlen(line);

	for (const char *at = lines; (at = strstr(at, line)); at += n)
		if ((at == lines || at[-1] == '\n') &&
		    (!at[n] || at[n] == '\n'))
			return true;
	return false;
}

/* What ms_activity_listed_during() asks of each version of the file. */
struct during {
	const struct ms_activity *a;
	const char *name;
	const struct ms_act_person *p;
	bool listed;
};

static bool version_lists(const char *rev, const char *buf, size_t len,
			  void *data)
{
	struct during *d = data;

	d->listed = text_lists(d->a, rev, buf, len, d->name, d->p);
	return d->listed;
}

int ms_activity_listed_during(const struct ms_activity *a,
			      const struct maint_entry *me, unsigned person,
			      int64_t since, int64_t until)
{
	const char *colon = me->file ? strchr(me->file, ':') : NULL;
	struct ms_act_person p = { 0 };
	struct during d = { a, me->name, &p, false };
	GHashTable *changes;
	GPtrArray *revs;
	int r = ms_activity_listed_then(a, me, person, since);

	if (r == 1 || !a->maint_from_rev || !a->gitdir || !colon ||
	    !colon[1] || person == MS_IDENT_NONE)
		return r;
	/* the commits of the window changing the file */
	changes = g_hash_table_new(ms_id_hash, ms_id_equal);
	for (guint i = 0; i < a->maint_changes->len; i++)
		if (i >= a->maint_paths->len ||
		    has_line(a->maint_paths->pdata[i], colon + 1))
			g_hash_table_add(changes, &g_array_index(
				a->maint_changes, unsigned char, i * 20));
	revs = g_ptr_array_new_with_free_func(g_free);
	for (guint ci = 0; ci < a->commits->len; ci++) {
		const struct crec *c = &g_array_index(a->commits, struct crec,
						      ci);
		char hex[41];

		if (c->ctime < since || c->ctime > until ||
		    !g_hash_table_contains(changes, c->raw))
			continue;
		act_set_id(hex, c->raw);
		g_ptr_array_add(revs, g_strdup(hex));
	}
	p.name = (char *)ms_ident_name(a->ident, person);
	p.email = (char *)ms_ident_email(a->ident, person);
	p.also = ms_ident_group_addresses(a->ident, person);
	if (revs->len)
		ms_history_read_files(a->gitdir, (char *const *)revs->pdata,
				      revs->len, colon + 1, version_lists, &d);
	ms_error_clear();
	g_hash_table_destroy(changes);
	g_ptr_array_free(revs, TRUE);
	g_strfreev(p.also);
	return d.listed ? 1 : r;
}

void act_listing_release(struct ms_activity *a)
{
	g_clear_pointer(&a->then_files, g_hash_table_destroy);
	g_clear_pointer(&a->then_all, maint_file_free);
}
