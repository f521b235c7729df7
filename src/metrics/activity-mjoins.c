/*
 * activity-mjoins.c - MAINTAINERS history for the identity model: the
 * changes of address that commits make in the M: and R: lines of any
 * file named MAINTAINERS (docs/identities.md, source 3).
 */
#include "activity-internal.h"
#include "history.h"
#include "ident.h"
#include "maintainers.h"
#include "person.h"
#include "store.h"

#include <glib.h>
#include <string.h>

struct mline {
	char *name, *email, *key;     /* key: comparable address */
};

static void mline_free(gpointer p)
{
	struct mline *m = p;

	g_free(m->name);
	g_free(m->email);
	g_free(m->key);
	g_free(m);
}

/* The people of the M: and R: lines of MAINTAINERS text, by address. */
static GHashTable *listed_people(const char *buf, size_t len)
{
	GHashTable *h = g_hash_table_new_full(g_str_hash, g_str_equal, NULL,
					      mline_free);
	const char *p = buf, *end = buf + len;

	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		const char *le = nl ? nl : end;

		if (le - p > 2 && (p[0] == 'M' || p[0] == 'R') &&
		    p[1] == ':') {
			struct mline *m = g_new0(struct mline, 1);
			char *v = g_strndup(p + 2, (size_t)(le - p - 2));

			maint_parse_person(g_strstrip(v), &m->name, &m->email);
			g_free(v);
			if (m->email && *m->email) {
				m->key = ms_email_normalize(m->email, 1);
				if (!g_hash_table_contains(h, m->key))
					g_hash_table_insert(h, m->key, m);
				else
					mline_free(m);
			} else {
				mline_free(m);
			}
		}
		p = nl ? nl + 1 : end;
	}
	return h;
}

static bool same_local_part(const char *a, const char *b)
{
	const char *at_a = strchr(a, '@'), *at_b = strchr(b, '@');

	return at_a && at_b && at_a - a >= 4 && at_a - a == at_b - b &&
		!g_ascii_strncasecmp(a, b, (size_t)(at_a - a));
}

static bool same_name(const char *a, const char *b)
{
	char *ka = ms_name_key(a), *kb = ms_name_key(b);
	bool r = ka && kb && !strcmp(ka, kb);

	g_free(ka);
	g_free(kb);
	return r;
}

static struct act_mjoin *act_mjoin_dup(const struct act_mjoin *j)
{
	struct act_mjoin *d = g_new0(struct act_mjoin, 1);

	memcpy(d->id, j->id, sizeof(d->id));
	d->oname = g_strdup(j->oname);
	d->oemail = g_strdup(j->oemail);
	d->nname = g_strdup(j->nname);
	d->nemail = g_strdup(j->nemail);
	return d;
}

void act_mjoin_free(gpointer p)
{
	struct act_mjoin *j = p;

	g_free(j->oname);
	g_free(j->oemail);
	g_free(j->nname);
	g_free(j->nemail);
	g_free(j);
}

/* The changes of address of one MAINTAINERS commit, onto a->maint_joins. */
static void commit_joins(struct ms_activity *a, const char id[41],
			 GHashTable *nh, GHashTable *oh)
{
	GHashTableIter it;
	gpointer k, v;

	g_hash_table_iter_init(&it, oh);
	while (g_hash_table_iter_next(&it, &k, &v)) {
		const struct mline *old = v;
		GHashTableIter jt;
		gpointer k2, v2;

		if (g_hash_table_contains(nh, k))
			continue;
		g_hash_table_iter_init(&jt, nh);
		while (g_hash_table_iter_next(&jt, &k2, &v2)) {
			const struct mline *new = v2;
			struct act_mjoin *j;

			if (g_hash_table_contains(oh, k2))
				continue;
			if (!same_name(old->name, new->name) &&
			    !same_local_part(old->key, new->key))
				continue;
			j = g_new0(struct act_mjoin, 1);
			memcpy(j->id, id, sizeof(j->id));
			j->oname = g_strdup(old->name);
			j->oemail = g_strdup(old->email);
			j->nname = g_strdup(new->name);
			j->nemail = g_strdup(new->email);
			g_ptr_array_add(a->maint_joins, j);
		}
	}
}

/* The changes of address of the MAINTAINERS commits kept in the store:
 * they never change, so the key is the format alone (maint-joins-3 and
 * older: other byte formats, or looser name comparisons; none is
 * reused). */
#define MJOINS_KIND "activity-maint-joins"
#define MJOINS_KEY "maint-joins-4"

void act_mjoin_put(GByteArray *b, const struct act_mjoin *j)
{
	ms_put_opt(b, j->oname);
	ms_put_opt(b, j->oemail);
	ms_put_opt(b, j->nname);
	ms_put_opt(b, j->nemail);
}

struct act_mjoin *act_mjoin_get(struct ms_rd *r, const char *id)
{
	struct act_mjoin *j = g_new0(struct act_mjoin, 1);

	if (!id || strlen(id) != 40)
		r->ok = false;
	else
		memcpy(j->id, id, 41);
	j->oname = ms_get_opt(r);
	j->oemail = ms_get_opt(r);
	j->nname = ms_get_opt(r);
	j->nemail = ms_get_opt(r);
	return j;
}

static int mjoins_write(struct ms_store *store, GHashTable *known)
{
	GByteArray *b = g_byte_array_new();
	GHashTableIter it;
	gpointer k, v;
	int rc;

	g_hash_table_iter_init(&it, known);
	while (g_hash_table_iter_next(&it, &k, &v)) {
		GPtrArray *js = v;

		ms_put_str(b, k);
		ms_put_var(b, js->len);
		for (guint i = 0; i < js->len; i++)
			act_mjoin_put(b, js->pdata[i]);
	}
	rc = ms_store_model_put(store, MJOINS_KIND, MJOINS_KEY, 1, b->data,
				b->len);
	g_byte_array_free(b, TRUE);
	return rc;
}

/*
 * The changes of address found so far, per MAINTAINERS commit, as kept in
 * the store: a new table of commit id -> GPtrArray of struct act_mjoin
 * (empty when none), empty when nothing is kept (never NULL).  Store
 * errors are not reported: the caller finds the changes again.
 */
static GHashTable *mjoins_read(struct ms_store *store)
{
	GHashTable *known = g_hash_table_new_full(
		g_str_hash, g_str_equal, g_free,
		(GDestroyNotify)g_ptr_array_unref);
	GBytes *saved = NULL;
	gsize len;
	const void *p;

	if (ms_store_model_get(store, MJOINS_KIND, MJOINS_KEY, &saved) < 0) {
		ms_error_clear();
		return known;
	}
	if (!saved)
		return known;
	p = g_bytes_get_data(saved, &len);
	{
		struct ms_rd r = MS_RD_INIT(p, len);

		while (r.ok && r.p < r.end) {
			char *id = ms_get_str(&r);
			uint64_t n = ms_get_var(&r);
			GPtrArray *js = g_ptr_array_new_with_free_func(
				act_mjoin_free);

			for (uint64_t i = 0; i < n && r.ok; i++)
				g_ptr_array_add(js, act_mjoin_get(&r, id));
			if (id)
				g_hash_table_replace(known, id, js);
			else
				g_ptr_array_free(js, TRUE);
		}
		if (!r.ok)        /* not whole: find them all again */
			g_hash_table_remove_all(known);
	}
	g_bytes_unref(saved);
	return known;
}

/*
 * MAINTAINERS history: a commit that takes "Name <old>" out of the M:
 * and R: lines of a MAINTAINERS file (the top-level one or any other
 * named so: board/x/MAINTAINERS) and puts "Name <new>" in (same name, or
 * same local part) records one person's change of address.  Reading both versions of the
 * file for every such commit is the slow part, so the changes found are
 * kept with the saved model (activity-model.c).
 */
void act_find_maint_joins(struct ms_activity *a, struct ms_diags *diags)
{
	GHashTable *known = NULL;
	bool grew = false;

	/* a commit's changes of address are those of its MAINTAINERS and its
	 * parent's: found once, kept in the store for every later run */
	if (a->opts->store)
		known = mjoins_read(a->opts->store);
	a->maint_joins = g_ptr_array_new_with_free_func(act_mjoin_free);
	for (guint i = 0; i < a->maint_changes->len; i++) {
		const unsigned char *raw = &g_array_index(a->maint_changes,
							  unsigned char,
							  i * 20);
		char id[41], parent[43], **paths;
		char *nbuf = NULL, *obuf = NULL;
		size_t nlen = 0, olen = 0;
		GHashTable *nh, *oh;
		GPtrArray *had;
		guint from = a->maint_joins->len;

		act_set_id(id, raw);
		had = known ? g_hash_table_lookup(known, id) : NULL;
		if (had) {
			for (guint k = 0; k < had->len; k++)
				g_ptr_array_add(a->maint_joins,
						act_mjoin_dup(had->pdata[k]));
			continue;
		}
		g_snprintf(parent, sizeof(parent), "%s^", id);
		paths = g_strsplit(i < a->maint_paths->len ?
				   a->maint_paths->pdata[i] : "MAINTAINERS",
				   "\n", -1);
		for (char **p = paths; *p; p++) {
			/* a file added or removed changes no address */
			if (ms_history_read_file(a->opts->gitdir, id, *p,
						 &nbuf, &nlen) < 0 ||
			    ms_history_read_file(a->opts->gitdir, parent, *p,
						 &obuf, &olen) < 0) {
				ms_error_clear();
				g_free(nbuf);
				g_free(obuf);
				nbuf = obuf = NULL;
				continue;
			}
			nh = listed_people(nbuf, nlen);
			oh = listed_people(obuf, olen);
			commit_joins(a, id, nh, oh);
			g_hash_table_destroy(nh);
			g_hash_table_destroy(oh);
			g_free(nbuf);
			g_free(obuf);
			nbuf = obuf = NULL;
		}
		g_strfreev(paths);
		if (known) {
			had = g_ptr_array_new_with_free_func(act_mjoin_free);
			for (guint k = from; k < a->maint_joins->len; k++)
				g_ptr_array_add(had, act_mjoin_dup(
					a->maint_joins->pdata[k]));
			g_hash_table_insert(known, g_strdup(id), had);
			grew = true;
		}
	}
	/* only a later run's time is lost, but it is said */
	if (known && grew && mjoins_write(a->opts->store, known) < 0) {
		if (diags)
			ms_diags_add(diags, NULL, 0, "the changes of address "
				     "of MAINTAINERS were not kept in the "
				     "store: %s", ms_error_last());
		ms_error_clear();
	}
	g_clear_pointer(&known, g_hash_table_destroy);
}

/* Join the people of each change of address, under its commit. */
void act_join_history(struct ms_activity *a)
{
	for (guint i = 0; i < a->maint_joins->len; i++) {
		const struct act_mjoin *j = a->maint_joins->pdata[i];

		ms_ident_set_evidence(a->ident, j->id, false);
		ms_ident_join(a->ident,
			      ms_ident_resolve(a->ident, j->oname, j->oemail),
			      ms_ident_resolve(a->ident, j->nname, j->nemail),
			      MS_IDENT_MAINTAINERS, j->id);
	}
	ms_ident_set_evidence(a->ident, NULL, false);
}
