/*
 * activity-listing.c - who was listed in which entry when a window began
 * (act_listed_then()), and that listing kept in the store between runs
 * (ms_activity_keep_listing()).
 *
 * A query reads the MAINTAINERS file of each entry it asks about at the
 * newest commit dated before the window's start (a->then_rev), and every
 * MAINTAINERS file of that commit's tree when the file did not exist
 * then.  On U-Boot that is the top-level file and 512 board files: 0.1 s
 * and 0.28 s of CPU, which a run after a few new commits paid again for
 * the same old commit.  What a query needs of a file is only, per entry
 * name, the M: and R: values of the first entry of that name: that is
 * what is kept, per file read (or known absent) and for "every file", in
 * one row per commit and build, whichever command read it.
 * Git content under a commit id never changes, so such a row holds for
 * as long as the build (its parser) is the same.
 *
 * The row (store `models`, kind LISTING_KIND; key: SHA-256 of
 * LISTING_FORMAT, the build and a->then_rev; the store keeps the
 * LISTING_ROWS used last, and checks their bytes):
 *
 *   the number of sets, then per set:
 *              type  1 byte: 'F' a file then, 'A' a file absent then,
 *                    '*' every MAINTAINERS file then
 *              path  (empty for '*')
 *              for 'F' and '*': the number of entries, then per entry
 *              its name and its M:/R: values, each value followed by
 *              '\n' (values hold no newline: MAINTAINERS is read by
 *              lines)
 *
 * Numbers are LEB128 varints, strings a varint length and the bytes.  A
 * row whose lengths or contents do not hold (a NUL in a string, a
 * path twice, values not ended by '\n', bytes after the last set) is
 * ignored whole, and what the query needs is read from git again; a file
 * that could not be read (not: absent) is never kept.  What a run reads
 * from git is saved (the sets of the row with it) when the model is
 * freed, or when a query asks about another commit.
 */
#include "activity.h"
#include "bytes.h"
#include "activity-internal.h"
#include "history.h"
#include "ident.h"
#include "maintainers.h"
#include "person.h"
#include "store.h"
#include "tree.h"

#include <glib.h>
#include <string.h>

#define LISTING_KIND "activity-listing"
#define LISTING_FORMAT "maintstat listing 2"
#define LISTING_ROWS 4            /* windows of as many commands */

/* Where the listing is kept (ms_activity_keep_listing()). */
struct act_listing_keep {
	struct ms_store *store;   /* owned, or NULL */
	char *build;
	void (*note)(const struct ms_act_listing_note *n, void *data);
	void *data;
	char *warning;            /* the first failure of the store */
	bool off;                 /* the store is not used any more */
	bool asked;               /* some query needed the listing */
	bool dirty;               /* sets read from git since the last save */
	bool saved;
	size_t from_store, from_git;
};

/* A file of then_files that could not be read (not: absent then). */
static char unknown_file_marker;
#define UNKNOWN_FILE ((gpointer)&unknown_file_marker)

static void then_set_free(gpointer p)
{
	if (p && p != UNKNOWN_FILE)
		g_hash_table_destroy(p);
}

static GHashTable *then_set_new(void)
{
	return g_hash_table_new_full(g_str_hash, g_str_equal, g_free, g_free);
}

/*
 * A set of `mf`: entry name -> the M: and R: values of the first entry
 * of that name (maint_file_find()'s), each followed by '\n'.
 */
static GHashTable *then_set_of(const struct maint_file *mf)
{
	GHashTable *h = then_set_new();

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

/* ---- the row ---- */

/* The keys of `h`, sorted (the row's bytes do not depend on the order
 * in which a run came to know them). */
static GPtrArray *sorted_keys(GHashTable *h)
{
	GPtrArray *k = g_ptr_array_sized_new(g_hash_table_size(h));
	GHashTableIter it;
	gpointer key;

	g_hash_table_iter_init(&it, h);
	while (g_hash_table_iter_next(&it, &key, NULL))
		g_ptr_array_add(k, key);
	g_ptr_array_sort(k, ms_cmp_str);
	return k;
}

static void put_set(GByteArray *b, char type, const char *path,
		    GHashTable *set)
{
	GPtrArray *names;

	g_byte_array_append(b, (const guint8 *)&type, 1);
	ms_put_str(b, path);
	if (!set)
		return;
	names = sorted_keys(set);
	ms_put_var(b, names->len);
	for (guint i = 0; i < names->len; i++) {
		ms_put_str(b, names->pdata[i]);
		ms_put_str(b, g_hash_table_lookup(set, names->pdata[i]));
	}
	g_ptr_array_free(names, TRUE);
}

/* The row of what a->then_files and a->then_all know, under `key`. */
static GByteArray *row_encode(const struct ms_activity *a)
{
	GByteArray *b = g_byte_array_sized_new(1 << 16);
	GPtrArray *paths = sorted_keys(a->then_files);
	size_t nr = 0;

	for (guint i = 0; i < paths->len; i++)
		nr += g_hash_table_lookup(a->then_files, paths->pdata[i]) !=
		      UNKNOWN_FILE;
	ms_put_var(b, nr + (a->then_all != NULL));
	for (guint i = 0; i < paths->len; i++) {
		gpointer v = g_hash_table_lookup(a->then_files,
						 paths->pdata[i]);

		if (v != UNKNOWN_FILE)
			put_set(b, v ? 'F' : 'A', paths->pdata[i], v);
	}
	if (a->then_all)
		put_set(b, '*', "", a->then_all);
	g_ptr_array_free(paths, TRUE);
	return b;
}

/* The entries of a set at `r`, or NULL (damage). */
static GHashTable *get_set(struct ms_rd *r)
{
	uint64_t n = ms_get_var(r);
	GHashTable *set = then_set_new();

	/* each entry takes two bytes at least */
	if (n > (uint64_t)(r->end - r->p) / 2)
		r->ok = false;
	for (uint64_t i = 0; i < n && r->ok; i++) {
		char *name = ms_get_str(r);
		char *values = ms_get_str(r);
		size_t len = values ? strlen(values) : 0;

		/* values each ended by a newline; a name once */
		if (!r->ok || (len && values[len - 1] != '\n') ||
		    g_hash_table_contains(set, name)) {
			r->ok = false;
			g_free(name);
			g_free(values);
			break;
		}
		g_hash_table_insert(set, name, values);
	}
	if (!r->ok)
		g_clear_pointer(&set, g_hash_table_destroy);
	return set;
}

/*
 * The sets of a saved row into `files` (path -> set, NULL for a file
 * absent) and *all; false, with nothing taken, when the row does not
 * hold whole.  *nr: the sets read.
 */
static bool row_decode(const guint8 *p, size_t n, GHashTable *files,
		       GHashTable **all, size_t *nr)
{
	GHashTable *got = g_hash_table_new_full(g_str_hash, g_str_equal,
						g_free, then_set_free);
	GHashTable *every = NULL;
	struct ms_rd r = MS_RD_INIT(p, n);
	uint64_t sets;
	GHashTableIter it;
	gpointer kp, vp;

	sets = ms_get_var(&r);
	for (uint64_t i = 0; i < sets && r.ok; i++) {
		char type = r.p < r.end ? (char)*r.p++ : 0;
		char *path = ms_get_str(&r);
		GHashTable *set = NULL;

		if (r.ok && (type == 'F' || type == '*'))
			set = get_set(&r);
		/* a file by its path, once; every file with none, once */
		if (!r.ok || (type != 'F' && type != 'A' && type != '*') ||
		    (type == '*') != !*path || (type == '*' && every) ||
		    g_hash_table_contains(got, path)) {
			r.ok = false;
			g_clear_pointer(&set, g_hash_table_destroy);
			g_free(path);
			break;
		}
		if (type == '*') {
			every = set;
			g_free(path);
		} else {
			g_hash_table_insert(got, path, set);
		}
	}
	if (!r.ok || r.p != r.end) {
		g_hash_table_destroy(got);
		g_clear_pointer(&every, g_hash_table_destroy);
		return false;
	}
	*nr = (size_t)sets;
	g_hash_table_iter_init(&it, got);
	while (g_hash_table_iter_next(&it, &kp, &vp)) {
		g_hash_table_iter_steal(&it);
		g_hash_table_replace(files, kp, vp);
	}
	g_hash_table_destroy(got);
	*all = every;
	return true;
}

/* The row's key: this format, the caller's build, the commit. */
static char *row_key(const struct act_listing_keep *k, const char *rev)
{
	char *text = g_strdup_printf("%s\n%s\n%s\n", LISTING_FORMAT,
				     k->build ? k->build : "", rev);
	char *key = g_compute_checksum_for_string(G_CHECKSUM_SHA256, text,
						  -1);

	g_free(text);
	return key;
}

/* The store failed: say why once, and use it no more. */
static void keep_failed(struct act_listing_keep *k, const char *what)
{
	if (!k->warning)
		k->warning = g_strdup_printf("who was listed in each entry "
					     "when the window began was not "
					     "%s the store: %s", what,
					     ms_error_last());
	ms_error_clear();
	k->off = true;
}

/* The saved row of a->then_rev into the (empty) sets of `a`. */
static void listing_read(struct ms_activity *a)
{
	struct act_listing_keep *k = a->listing;
	GBytes *saved = NULL;
	char *key;
	gsize n = 0;
	const guint8 *p;
	size_t nr = 0;

	if (!k || !k->store || k->off)
		return;
	key = row_key(k, a->then_rev);
	if (ms_store_model_get(k->store, LISTING_KIND, key, &saved) < 0) {
		keep_failed(k, "read from");
		saved = NULL;
	}
	p = saved ? g_bytes_get_data(saved, &n) : NULL;
	if (p && row_decode(p, n, a->then_files, &a->then_all, &nr)) {
		a->then_all_done = a->then_all != NULL;
		k->from_store += nr;
	}
	g_bytes_unref(saved);
	g_free(key);
}

/* Save what was read from git (with what the row had) for a->then_rev. */
static void listing_save(struct ms_activity *a)
{
	struct act_listing_keep *k = a->listing;
	GByteArray *b;
	char *key;

	if (!k || !k->dirty || !a->then_done || !a->then_rev[0])
		return;
	k->dirty = false;
	if (!k->store || k->off)
		return;
	key = row_key(k, a->then_rev);
	b = row_encode(a);
	if (ms_store_model_put(k->store, LISTING_KIND, key, LISTING_ROWS,
			       b->data, b->len) < 0)
		keep_failed(k, "kept in");
	else
		k->saved = true;
	g_byte_array_free(b, TRUE);
	g_free(key);
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
	if (a->listing) {
		a->listing->from_git++;
		a->listing->dirty |= v != UNKNOWN_FILE;
	}
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
	if (a->listing) {
		a->listing->from_git++;
		a->listing->dirty |= a->then_all != NULL;
	}
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

/* The listing as of `since`: its commit, and what the store has of it
 * (then_lock held).  The sets known stay when the commit is the same. */
static void then_start(struct ms_activity *a, int64_t since)
{
	char rev[41] = "";

	commit_before(a, since, rev);
	if (a->listing)
		a->listing->asked = true;
	if (a->then_done && !strcmp(rev, a->then_rev)) {
		a->then_since = since;
		return;
	}
	listing_save(a);
	g_clear_pointer(&a->then_files, g_hash_table_destroy);
	a->then_files = g_hash_table_new_full(g_str_hash, g_str_equal, g_free,
					      then_set_free);
	g_clear_pointer(&a->then_all, g_hash_table_destroy);
	a->then_all_done = false;
	a->then_done = true;
	a->then_since = since;
	g_strlcpy(a->then_rev, rev, sizeof(a->then_rev));
	if (a->then_rev[0])
		listing_read(a);
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

/* ---- the model's side ---- */

static void act_listing_free(struct act_listing_keep *k)
{
	if (!k)
		return;
	ms_store_free(k->store);
	g_free(k->build);
	g_free(k->warning);
	g_free(k);
}

void ms_activity_keep_listing(struct ms_activity *a, struct ms_store *store,
			      const char *build,
			      void (*note)(const struct ms_act_listing_note *n,
					   void *data),
			      void *data)
{
	struct act_listing_keep *k;

	g_mutex_lock(&a->then_lock);
	listing_save(a);
	act_listing_free(a->listing);
	k = g_new0(struct act_listing_keep, 1);
	k->store = store;
	k->build = g_strdup(build);
	k->note = note;
	k->data = data;
	a->listing = k;
	g_mutex_unlock(&a->then_lock);
}

void act_listing_release(struct ms_activity *a)
{
	struct act_listing_keep *k = a->listing;

	listing_save(a);
	if (k && k->note && (k->asked || k->warning)) {
		struct ms_act_listing_note n = {
			.rev = a->then_rev,
			.from_store = k->from_store,
			.from_git = k->from_git,
			.saved = k->saved,
			.warning = k->warning,
		};

		k->note(&n, k->data);
	}
	act_listing_free(k);
	a->listing = NULL;
	g_clear_pointer(&a->then_files, g_hash_table_destroy);
	g_clear_pointer(&a->then_all, g_hash_table_destroy);
}
