/*
 * review-versions.c - which patch postings are versions of one patch
 * (review-internal.h, docs/review.md "Versions"): the same sender and
 * subject, the same diff (patch-id), or the same place in the next
 * version of a series, whoever sends it and however it is renamed, or a
 * renamed lone patch's next version.
 */
#include "review-internal.h"
#include "link.h"
#include "bytes.h"
#include "uf.h"

#include <string.h>

struct vctx {
	const struct ms_mail_index *idx;
	const struct ms_link_mail *lm;
	const struct ms_review_map *map;
	uint32_t *up;                /* union-find parents, per record */
	char **skey, **fkey;         /* per record, made once when asked */
	const GHashTable *applied;   /* records applied as commits, or NULL */
};


static const struct ms_mail_rec *rec_at(const struct vctx *v, uint32_t i)
{
	return ms_mail_index_get(v->idx, i);
}

/* The subject key of record `i` (borrowed). */
static const char *skey_of(struct vctx *v, uint32_t i)
{
	if (!v->skey[i])
		v->skey[i] = ms_mail_subject_key(rec_at(v, i)->subject);
	return v->skey[i];
}

/* The key of `i`'s changed files, sorted, or "" without any (borrowed). */
static const char *fkey_of(struct vctx *v, uint32_t i)
{
	const GPtrArray *f = ms_link_mail_files(v->lm, i);
	GPtrArray *s;

	if (v->fkey[i])
		return v->fkey[i];
	s = g_ptr_array_sized_new(f ? f->len + 1 : 1);
	for (guint k = 0; f && k < f->len; k++)
		g_ptr_array_add(s, f->pdata[k]);
	g_ptr_array_sort(s, ms_cmp_str);
	g_ptr_array_add(s, NULL);
	v->fkey[i] = g_strjoinv("\n", (char **)s->pdata);
	g_ptr_array_free(s, TRUE);
	return v->fkey[i];
}

/* The words of subject key `s` (three letters or more), as a set. */
static GHashTable *words(const char *s)
{
	GHashTable *w = g_hash_table_new_full(g_str_hash, g_str_equal,
					      g_free, NULL);
	char **tok = g_regex_split_simple("[^[:alnum:]_]+", s, 0, 0);

	for (char **t = tok; *t; t++)
		if (strlen(*t) >= 3)
			g_hash_table_add(w, g_strdup(*t));
	g_strfreev(tok);
	return w;
}

/* Whether two subject keys share at least half their words (Jaccard):
 * "update erofs symlink stuffs" and "better erofs symlink stuffs" do,
 * "add 'uuid' mount option" and "use meta buffers for ..." do not. */
static bool similar(const char *a, const char *b)
{
	GHashTable *wa = words(a), *wb = words(b);
	GHashTableIter it;
	gpointer k;
	guint common = 0, all;

	g_hash_table_iter_init(&it, wa);
	while (g_hash_table_iter_next(&it, &k, NULL))
		common += g_hash_table_contains(wb, k);
	all = g_hash_table_size(wa) + g_hash_table_size(wb) - common;
	g_hash_table_unref(wa);
	g_hash_table_unref(wb);
	return all && 2 * common >= all;
}

/*
 * Patch `p` of the newer posting against the older posting `old`: the
 * patch of `old` with its subject (whoever sent it: a maintainer
 * reposting a contributor's patch), else the one patch of `old` whose
 * files are exactly p's, when no other patch of either posting has them
 * and the subjects share half their words (a renamed patch: "update
 * erofs symlink stuffs" became "better erofs symlink stuffs").  Returns
 * the record, or -1.
 */
static int64_t counterpart(struct vctx *v, uint32_t p,
			   const struct ms_mail_series *old,
			   const struct ms_mail_series *new)
{
	const char *skey = skey_of(v, p), *fk = fkey_of(v, p);
	int64_t found = -1;
	guint same = 0;

	for (guint k = 0; k < old->patches->len; k++) {
		uint32_t q = g_array_index(old->patches, uint32_t, k);

		if (!strcmp(skey_of(v, q), skey))
			return q;
	}
	for (guint k = 0; *fk && k < old->patches->len; k++) {
		uint32_t q = g_array_index(old->patches, uint32_t, k);

		if (!strcmp(fkey_of(v, q), fk)) {
			found = q;
			same++;
		}
	}
	if (same == 1 && !similar(skey, skey_of(v, (uint32_t)found)))
		same = 0;
	for (guint k = 0; same == 1 && k < new->patches->len; k++) {
		uint32_t o = g_array_index(new->patches, uint32_t, k);

		if (o != p && !strcmp(fkey_of(v, o), fk))
			same++;
	}
	return same == 1 ? found : -1;
}

/* Whether posting `b` follows posting `a` as its next version: one
 * series family (b4's change-id, or subject and sender), or b's cover
 * letter sent in reply to a's; and a higher version. */
static bool next_version(const struct vctx *v, const struct ms_mail_series *a,
			 const struct ms_mail_series *b)
{
	const struct ms_mail_rec *rb = rec_at(v, b->root);
	const struct ms_mail_rec *parent;

	if (b->version <= a->version)
		return false;
	if (a->family >= 0 && a->family == b->family)
		return true;
	parent = b->has_cover && a->has_cover && rb->parent_id ?
		ms_mail_index_find(v->idx, rb->parent_id) : NULL;
	return parent && parent == rec_at(v, a->root);
}

/* Whether record `i` was applied as a commit. */
static bool applied_rec(const struct vctx *v, uint32_t i)
{
	return v->applied && g_hash_table_contains((GHashTable *)v->applied,
						   GUINT_TO_POINTER(i));
}

/* Join each patch of posting `b` to its counterpart in posting `a`, an
 * applied one too unless `unapplied`. */
static void join_postings(struct vctx *v, const struct ms_mail_series *a,
			  const struct ms_mail_series *b, bool unapplied)
{
	for (guint k = 0; k < b->patches->len; k++) {
		uint32_t p = g_array_index(b->patches, uint32_t, k);
		int64_t q = counterpart(v, p, a, b);

		if (q >= 0 && !(unapplied && applied_rec(v, (uint32_t)q)))
			ms_uf_union(v->up, p, (uint32_t)q);
	}
}

/* The earlier postings series `s` (number `k`) links to by URL ("Link to
 * v1: https://lore.kernel.org/r/ID" in its cover letter or a patch's
 * changelog): each is followed by it, a lone patch by a lone patch
 * whatever its subject and files. */
static void join_linked(struct vctx *v, const struct ms_mail_series *s,
			size_t k)
{
	for (guint j = 0; j <= s->patches->len; j++) {
		uint32_t rec = j ? g_array_index(s->patches, uint32_t, j - 1) :
				   s->root;
		char *const *ids = ms_review_map_earlier(v->map, rec);

		for (size_t x = 0; ids && ids[x]; x++) {
			const struct ms_mail_rec *e =
				ms_mail_index_find(v->idx, ids[x]);
			const struct ms_mail_series *o;

			if (!e || e->series < 0 || e->series == (int32_t)k)
				continue;
			o = ms_mail_index_series(v->idx, (uint32_t)e->series);
			if (rec_at(v, o->root)->date >= rec_at(v, s->root)->date)
				continue;
			/* one patch each: the link says it all */
			if (o->patches->len == 1 && s->patches->len == 1)
				ms_uf_union(v->up,
					    g_array_index(o->patches,
							  uint32_t, 0),
					    g_array_index(s->patches,
							  uint32_t, 0));
			else
				join_postings(v, o, s, false);
		}
	}
}

/*
 * A series posted without a cover letter has no family once its first
 * patch is renamed: a later posting of such a series by its sender, of a
 * higher version and within 90 days, takes the earlier one's patches
 * as counterpart() finds them (the subject, else exactly the files and
 * half the words), an applied one never (LTP's "lib: add
 * .needs_hugepages ..." v2 1/2 and its v3 1/2 ".request_hugepages",
 * Dec 2019, each a thread of its own).
 */
static void join_coverless(struct vctx *v, const char *const *sender)
{
	size_t ns = ms_mail_index_series_count(v->idx);
	GHashTable *seen = g_hash_table_new_full(ms_str_hash, g_str_equal, NULL,
		(GDestroyNotify)g_array_unref);     /* sender -> series */

	for (size_t k = 0; k < ns; k++) {
		const struct ms_mail_series *s = ms_mail_index_series(
			v->idx, (uint32_t)k);
		const struct ms_mail_rec *r = rec_at(v, s->root);
		const char *who = sender[s->root];
		GArray *mine;

		if (s->has_cover || s->patches->len < 2 || !who ||
		    !r->date_valid)
			continue;
		mine = g_hash_table_lookup(seen, who);
		for (guint j = mine ? mine->len : 0; j-- > 0;) {
			const struct ms_mail_series *o = ms_mail_index_series(
				v->idx, g_array_index(mine, uint32_t, j));
			const struct ms_mail_rec *ro = rec_at(v, o->root);

			if (r->date - ro->date > 90 * 86400)
				break;
			if (o->version < s->version && ro->date < r->date &&
			    o->family != s->family)
				join_postings(v, o, s, true);
		}
		if (!mine) {
			mine = g_array_new(FALSE, FALSE, sizeof(uint32_t));
			g_hash_table_insert(seen, (gpointer)who, mine);
		}
		g_array_append_val(mine, k);
	}
	g_hash_table_unref(seen);
}

/* Postings by family, each family's in version order, next to next. */
static void join_series(struct vctx *v)
{
	size_t ns = ms_mail_index_series_count(v->idx);
	GHashTable *last = g_hash_table_new(NULL, NULL);  /* family -> s+1 */

	for (size_t k = 0; k < ns; k++) {
		const struct ms_mail_series *s = ms_mail_index_series(
			v->idx, (uint32_t)k);
		const struct ms_mail_rec *root = rec_at(v, s->root);
		const struct ms_mail_rec *pr = root->parent_id ?
			ms_mail_index_find(v->idx, root->parent_id) : NULL;
		gpointer prev;

		if (v->map)
			join_linked(v, s, k);
		/* a cover letter in reply to an older one */
		if (pr && pr->series >= 0 && pr->series != (int32_t)k) {
			const struct ms_mail_series *o = ms_mail_index_series(
				v->idx, (uint32_t)pr->series);

			if (o->root == (uint32_t)(pr - rec_at(v, 0)) &&
			    next_version(v, o, s))
				join_postings(v, o, s, false);
		}
		if (s->family < 0)
			continue;
		prev = g_hash_table_lookup(last, GINT_TO_POINTER(s->family));
		if (prev) {
			const struct ms_mail_series *o = ms_mail_index_series(
				v->idx, GPOINTER_TO_UINT(prev) - 1);

			if (next_version(v, o, s))
				join_postings(v, o, s, false);
		}
		g_hash_table_insert(last, GINT_TO_POINTER(s->family),
				    GUINT_TO_POINTER(k + 1));
	}
	g_hash_table_unref(last);
}

/* Whether subject keys `a` and `b` name one component: the same text
 * before a first ": " ("ioctl_pidfd06: expect EREMOTE ..." and
 * "ioctl_pidfd06: select expected errno ..."). */
static bool same_component(const char *a, const char *b)
{
	const char *ca = strstr(a, ": "), *cb = strstr(b, ": ");

	return ca && cb && ca - a == cb - b && !memcmp(a, b, (size_t)(ca - a));
}

/* Whether few postings name the component of subject key `a` (`count`:
 * postings per component, of `patches` in all): "erofs: " on the
 * linux-erofs list names a subsystem, not one patch. */
static bool few_name(GHashTable *count, guint patches, const char *a)
{
	const char *c = strstr(a, ": ");
	char *key = g_strndup(a, c ? (size_t)(c - a) : 0);
	guint n = GPOINTER_TO_UINT(g_hash_table_lookup(count, key));

	g_free(key);
	return n <= MAX(8u, patches / 100);
}

/* Postings per component (the text before a subject key's first ": "),
 * and in `patches` all of them. */
static GHashTable *component_counts(struct vctx *v, guint *patches)
{
	GHashTable *count = g_hash_table_new_full(ms_str_hash, g_str_equal,
						  g_free, NULL);

	for (size_t i = 0; i < ms_mail_index_count(v->idx); i++) {
		const char *k, *c;

		if (rec_at(v, (uint32_t)i)->kind != MS_MAIL_PATCH)
			continue;
		(*patches)++;
		k = skey_of(v, (uint32_t)i);
		c = strstr(k, ": ");
		if (c) {
			char *key = g_strndup(k, (size_t)(c - k));
			guint n = GPOINTER_TO_UINT(g_hash_table_lookup(count,
								      key));

			g_hash_table_replace(count, key,
					     GUINT_TO_POINTER(n + 1));
		}
	}
	return count;
}

/*
 * A lone patch marked version 2 or later that no rule above joined to an
 * earlier version follows its sender's latest lone patch on exactly its
 * files, of a lower version and posted within 90 days before, when the
 * subjects share half their words or their component (when later
 * versions follow the renamed posting already, a component few postings
 * name: few_name()), and none of the
 * earlier postings was applied as a commit (then the later one is a new
 * patch: LTP's "waitid10: Fix when coredumps are piped" and "waitid10:
 * raise SIGFPE directly", both applied): LTP's
 * "ioctl_pidfd06: expect EREMOTE for PIDFD_GET_INFO across pidns", its v2
 * "accept EREMOTE/ESRCH ..." and v3 "Select expected errno ..." (Jan
 * Polensky, Feb 2026), each renamed and sent in a thread of its own.
 */
static void join_renamed(struct vctx *v, const char *const *sender)
{
	size_t n = ms_mail_index_count(v->idx), ns;
	bool *applied = g_new0(bool, n ? n : 1);      /* per root */
	uint32_t *first = g_new0(uint32_t, n ? n : 1);  /* per root, + 1 */
	guint *size = g_new0(guint, n ? n : 1);         /* per root */
	GHashTable *last = g_hash_table_new_full(ms_str_hash, g_str_equal,
						 g_free, NULL);
	guint patches = 0;
	GHashTable *count = component_counts(v, &patches);

	for (size_t i = 0; i < n; i++) {
		uint32_t root = ms_uf_find(v->up, (uint32_t)i);
		const struct ms_mail_rec *r = rec_at(v, (uint32_t)i);

		if (r->kind == MS_MAIL_PATCH)
			size[root]++;
		if (r->kind == MS_MAIL_PATCH && (!first[root] ||
		    r->date < rec_at(v, first[root] - 1)->date))
			first[root] = (uint32_t)i + 1;
		if (applied_rec(v, (uint32_t)i))
			applied[root] = true;
	}
	ns = ms_mail_index_series_count(v->idx);
	for (size_t k = 0; k < ns; k++) {
		const struct ms_mail_series *s = ms_mail_index_series(
			v->idx, (uint32_t)k);
		uint32_t p;
		const struct ms_mail_rec *r;
		char *key;
		gpointer prev;

		if (s->patches->len != 1)
			continue;
		p = g_array_index(s->patches, uint32_t, 0);
		r = rec_at(v, p);
		if (!sender[p] || !*fkey_of(v, p) || !r->date_valid ||
		    r->duplicate)
			continue;
		key = g_strconcat(sender[p], "\x1f", fkey_of(v, p), NULL);
		prev = g_hash_table_lookup(last, key);
		/* p starts its patch: its later versions may be joined to
		 * it already, an earlier one not */
		if (prev && s->version >= 2 &&
		    first[ms_uf_find(v->up, p)] == p + 1) {
			uint32_t q = GPOINTER_TO_UINT(prev) - 1;
			const struct ms_mail_rec *o = rec_at(v, q);
			const char *a = skey_of(v, p), *b = skey_of(v, q);

			uint32_t rp = ms_uf_find(v->up, p), rq;

			rq = ms_uf_find(v->up, q);
			if (!applied[rq] && o->version < s->version &&
			    o->date < r->date &&
			    r->date - o->date <= 90 * 86400 &&
			    (similar(a, b) || (same_component(a, b) &&
			     (size[rp] == 1 || few_name(count, patches, a))))) {
				guint sz = size[rp] + size[rq];

				ms_uf_union(v->up, p, q);
				applied[ms_uf_find(v->up, p)] = applied[rp];
				first[ms_uf_find(v->up, p)] = first[rq];
				size[ms_uf_find(v->up, p)] = sz;
			}
		}
		g_hash_table_insert(last, key, GUINT_TO_POINTER(p + 1));
	}
	g_hash_table_unref(last);
	g_hash_table_unref(count);
	g_free(size);
	g_free(first);
	g_free(applied);
}

/* Whether `a` and `b` are patches of one series posting, never versions
 * of one patch ("silence INTEGER_OVERFLOW" seven times); not when their
 * versions differ: LTP's v2 1/3 "lib: move struct tst_sys_conf to
 * internal" was sent in reply to v1's cover letter, into its thread
 * (20220309030440.4166954-1-liwang@redhat.com). */
static bool one_posting(const struct ms_mail_rec *a,
			const struct ms_mail_rec *b)
{
	return a->series == b->series && a->series >= 0 &&
	       a->version == b->version;
}

/* Join patch `i` to the first of `seen` with its subject and files,
 * posted within a year of it ("erofs: update documentation" by two
 * people three years apart are two patches). */
static void join_same(struct vctx *v, GHashTable *seen, uint32_t i)
{
	const struct ms_mail_rec *r = rec_at(v, i);
	const char *fk = fkey_of(v, i);
	char *key;
	gpointer j;

	if (!*fk)
		return;
	key = g_strconcat(skey_of(v, i), "\x1f", fk, NULL);
	if (g_hash_table_lookup_extended(seen, key, NULL, &j)) {
		const struct ms_mail_rec *f = rec_at(v, GPOINTER_TO_UINT(j));

		if (!one_posting(f, r) && f->date_valid && r->date_valid &&
		    r->date - f->date <= 365 * 86400 &&
		    f->date - r->date <= 365 * 86400)
			ms_uf_union(v->up, i, GPOINTER_TO_UINT(j));
		g_free(key);
	} else {
		g_hash_table_insert(seen, key, GUINT_TO_POINTER(i));
	}
}

uint32_t *ms_review_versions(const struct ms_link_mail *lm,
			     const struct ms_review_map *map,
			     const char *const *sender,
			     const GHashTable *applied)
{
	struct vctx v = { ms_link_mail_index(lm), lm, map, NULL, NULL, NULL,
			  applied };
	size_t n = ms_mail_index_count(v.idx);
	GHashTable *by_subject = g_hash_table_new_full(ms_str_hash, g_str_equal,
						       g_free, NULL);
	GHashTable *by_diff = g_hash_table_new(ms_str_hash, g_str_equal);
	GHashTable *by_change = g_hash_table_new_full(ms_str_hash, g_str_equal,
						      g_free, NULL);

	v.up = g_new(uint32_t, n ? n : 1);
	v.skey = g_new0(char *, n + 1);
	v.fkey = g_new0(char *, n + 1);
	for (size_t i = 0; i < n; i++)
		v.up[i] = (uint32_t)i;
	for (size_t i = 0; i < n; i++) {
		const struct ms_mail_rec *r = rec_at(&v, (uint32_t)i);
		char *key;
		gpointer j;

		if (r->duplicate || r->kind != MS_MAIL_PATCH)
			continue;
		key = g_strdup_printf("%s\x1f%s", sender[i] ? sender[i] : "",
				      skey_of(&v, (uint32_t)i));
		if (g_hash_table_lookup_extended(by_subject, key, NULL, &j)) {
			if (!one_posting(rec_at(&v, GPOINTER_TO_UINT(j)), r))
				ms_uf_union(v.up, (uint32_t)i,
					    GPOINTER_TO_UINT(j));
			g_free(key);
		} else {
			g_hash_table_insert(by_subject, key,
					    GUINT_TO_POINTER(i));
		}
		/* the same subject on the same files, whoever sends it: a
		 * maintainer reworking a contributor's patch under their
		 * own name */
		join_same(&v, by_change, (uint32_t)i);
		/* the same diff again, not in the same posting: a resend, a
		 * new version changing only the message, a takeover */
		if (!r->patch_id || !*r->patch_id)
			continue;
		if (g_hash_table_lookup_extended(by_diff, r->patch_id, NULL,
						 &j)) {
			if (!one_posting(rec_at(&v, GPOINTER_TO_UINT(j)), r))
				ms_uf_union(v.up, (uint32_t)i,
					    GPOINTER_TO_UINT(j));
		} else {
			g_hash_table_insert(by_diff, (gpointer)r->patch_id,
					    GUINT_TO_POINTER(i));
		}
	}
	join_series(&v);
	join_coverless(&v, sender);
	join_renamed(&v, sender);
	for (size_t i = 0; i < n; i++)
		ms_uf_find(v.up, (uint32_t)i);
	for (size_t i = 0; i < n; i++) {
		g_free(v.skey[i]);
		g_free(v.fkey[i]);
	}
	g_free(v.skey);
	g_free(v.fkey);
	g_hash_table_unref(by_change);
	g_hash_table_unref(by_diff);
	g_hash_table_unref(by_subject);
	return v.up;
}

GPtrArray *ms_rv_subject_keys(const struct ms_mail_index *idx,
			      const GArray *postings)
{
	GPtrArray *keys = g_ptr_array_new_with_free_func(g_free);

	for (guint q = 0; q < postings->len; q++) {
		const char *s = ms_mail_index_get(idx, g_array_index(postings,
						  uint32_t, q))->subject;
		char *k = ms_mail_subject_key(s ? s : "");

		if (g_ptr_array_find_with_equal_func(keys, k, g_str_equal,
						     NULL))
			g_free(k);
		else
			g_ptr_array_add(keys, k);
	}
	return keys;
}

int64_t ms_rv_newest_posting(const struct ms_mail_index *idx,
			     const GArray *postings)
{
	int64_t newest = INT64_MIN;

	for (guint q = 0; q < postings->len; q++) {
		const struct ms_mail_rec *pr = ms_mail_index_get(idx,
			g_array_index(postings, uint32_t, q));

		if (pr->date > newest)
			newest = pr->date;
	}
	return newest;
}

gint ms_rv_patch_cmp(gconstpointer a, gconstpointer b)
{
	const struct ms_rv_patch *x = a, *y = b;
	uint32_t rx = g_array_index(x->postings, uint32_t, 0);
	uint32_t ry = g_array_index(y->postings, uint32_t, 0);

	if (x->posted != y->posted)
		return x->posted < y->posted ? -1 : 1;
	return rx < ry ? -1 : rx > ry;
}
