/*
 * activity-model.c - the activity model saved in the store (table
 * `models`, store.h) and read back by a run over the same commit.
 *
 * What is saved is the model as the walk left it: the commit records with
 * the ids as first resolved (before any join), the trailer tokens, the
 * (name, address) pairs the resolver saw in order, each with the commit it
 * was first seen in, the commits changing MAINTAINERS and the changes of
 * address they record, and which entries own a file of the tree.  Reading
 * it back resolves the same pairs again under the same evidence, which
 * gives every person the same id and first evidence (ident.h), and then
 * activity.c joins people as after a walk.  The format is native (host
 * byte order and struct layout), which the key names.
 */
#include "activity-internal.h"
#include "ident.h"
#include "maintainers.h"
#include "store.h"
#include "tree.h"

#include <stdio.h>
#include <string.h>

#define MODEL_FORMAT "activity-model-8"

struct stag {                 /* struct ctag as saved */
	uint32_t person, token, review;
};

static void add_text(GChecksum *ck, const char *text, size_t len)
{
	char n[32];

	snprintf(n, sizeof(n), "%zu:", text ? len : (size_t)0);
	g_checksum_update(ck, (const guchar *)n, (gssize)strlen(n));
	if (text)
		g_checksum_update(ck, (const guchar *)text, (gssize)len);
}

char *act_model_key(const struct ms_activity_load_opts *opts,
		    const char id[41])
{
	GChecksum *ck = g_checksum_new(G_CHECKSUM_SHA256);
	char head[200];
	char *r;

	snprintf(head, sizeof(head), "%s %zu %zu %zu %d %s %d %d %zu\n",
		 MODEL_FORMAT, sizeof(struct crec), sizeof(struct stag),
		 sizeof(void *), MS_STORE_COMMIT_VERSION, id, opts->merges,
		 opts->no_plus_fold, opts->nr_mailmaps);
	g_checksum_update(ck, (const guchar *)head, (gssize)strlen(head));
	add_text(ck, opts->aliases, opts->aliases_len);
	/* the entries come from these files when they are given */
	add_text(ck, opts->find_maintainer_files ? "find" : "", 4);
	for (size_t i = 0; i < opts->nr_maintainers; i++) {
		char *text = NULL;
		gsize len = 0;

		add_text(ck, opts->maintainers[i], strlen(opts->maintainers[i]));
		if (g_file_get_contents(opts->maintainers[i], &text, &len,
					NULL))
			add_text(ck, text, len);
		g_free(text);
	}
	for (size_t i = 0; i < opts->nr_mailmaps; i++)
		add_text(ck, opts->mailmaps[i], opts->mailmap_lens[i]);
	r = g_strdup(g_checksum_get_string(ck));
	g_checksum_free(ck);
	return r;
}

/* ---- writing ---- */

static void encode_tags(const struct ms_activity *a, GByteArray *b,
			const struct act_span *n)
{
	GHashTable *token_ix = g_hash_table_new(NULL, NULL);

	for (guint i = 0; i < n->tokens; i++) {
		const char *t = a->token_order->pdata[i];

		g_hash_table_insert(token_ix, (gpointer)t,
				    GUINT_TO_POINTER(i));
		ms_put_str(b, t);
	}
	for (guint i = 0; i < n->tags; i++) {
		const struct ctag *t = &g_array_index(a->tags, struct ctag, i);
		struct stag st = {
			t->person,
			GPOINTER_TO_UINT(g_hash_table_lookup(token_ix,
							     t->token)),
			t->review,
		};

		g_byte_array_append(b, (const guint8 *)&st, sizeof(st));
	}
	g_hash_table_destroy(token_ix);
}

static void encode_seen(const struct ms_activity *a, GByteArray *b,
			size_t nr)
{
	for (size_t i = 0; i < nr; i++) {
		const char *name, *email, *ev;
		size_t name_len;
		bool usage;
		guint8 u;

		ms_ident_seen(a->ident, i, &name, &name_len, &email, &ev,
			      &usage);
		u = usage;
		ms_put_mem(b, name, name_len);
		ms_put_str(b, email);
		ms_put_opt(b, ev);
		g_byte_array_append(b, &u, 1);
	}
}

/* Every path the walk met (ms_activity_foreach_path()). */
static void add_path(const char *path, void *data)
{
	ms_put_str(data, path);
}

static void count_path(const char *path, void *data)
{
	(void)path;
	(*(uint64_t *)data)++;
}

static void encode_paths(const struct ms_activity *a, GByteArray *b,
			 bool part)
{
	GHashTableIter it;
	gpointer k;
	uint64_t n = 0;

	if (!part) {
		/* a model appended to a walk has paths in both tables: each
		 * once */
		ms_activity_foreach_path(a, count_path, &n);
		ms_put_var(b, n);
		ms_activity_foreach_path(a, add_path, b);
		return;
	}
	/* a part: the paths the tail (a->paths, from the model before it)
	 * does not have */
	g_hash_table_iter_init(&it, a->match_cache);
	while (g_hash_table_iter_next(&it, &k, NULL))
		n += !a->paths || !g_hash_table_contains(a->paths, k);
	ms_put_var(b, n);
	g_hash_table_iter_init(&it, a->match_cache);
	while (g_hash_table_iter_next(&it, &k, NULL))
		if (!a->paths || !g_hash_table_contains(a->paths, k))
			ms_put_str(b, k);
}

/*
 * The model as the walk left it (ids as resolved, before any join), with
 * the MAINTAINERS changes of address and the entries owning files: bytes
 * for ms_store_model_put(), after the `head_len` bytes of `head`.  With
 * `span`, only the records, pairs and changes it counts, and the paths
 * not in a->paths (a part: see act_model_save()).
 */
static GByteArray *act_model_encode(const struct ms_activity *a,
				    const void *head, size_t head_len,
				    const struct act_span *span)
{
	size_t nr_entries = maint_file_nr_entries(a->mf);
	struct act_span n = {
		a->commits->len, a->ents->len, a->tags->len,
		a->token_order->len, ms_ident_nr_seen(a->ident),
		a->maint_changes->len, a->hidden->len,
	};
	GByteArray *b;

	if (span)
		n = *span;
	/* sized for the fixed-size parts (most of it), so that a 10 MB
	 * model is not copied again at each doubling */
	b = g_byte_array_sized_new((guint)MIN(G_MAXUINT / 2,
		head_len + 128 + n.commits * sizeof(struct crec) +
		n.ents * sizeof(uint32_t) + n.tags * 12 +
		n.changes * 20 + nr_entries + n.hidden * 20));
	g_byte_array_append(b, head, (guint)head_len);

	ms_put_var(b, n.commits);
	ms_put_var(b, n.ents);
	ms_put_var(b, n.tags);
	ms_put_var(b, n.tokens);
	ms_put_var(b, n.seen);
	ms_put_var(b, n.changes);
	ms_put_var(b, a->maint_joins->len);
	ms_put_var(b, nr_entries);
	ms_put_svar(b, a->newest);
	g_byte_array_append(b, (const guint8 *)a->commits->data,
			    (guint)(n.commits * sizeof(struct crec)));
	g_byte_array_append(b, (const guint8 *)a->ents->data,
			    (guint)(n.ents * sizeof(uint32_t)));
	encode_tags(a, b, &n);
	encode_seen(a, b, n.seen);
	g_byte_array_append(b, (const guint8 *)a->maint_changes->data,
			    (guint)(n.changes * 20));
	for (guint i = 0; i < n.changes; i++)
		ms_put_str(b, i < a->maint_paths->len ? a->maint_paths->pdata[i]
			: "MAINTAINERS");
	for (guint i = 0; i < a->maint_joins->len; i++) {
		const struct act_mjoin *j = a->maint_joins->pdata[i];

		ms_put_str(b, j->id);
		act_mjoin_put(b, j);
	}
	for (size_t i = 0; i < nr_entries; i++) {
		guint8 h = a->has_files[i];

		g_byte_array_append(b, &h, 1);
	}
	encode_paths(a, b, span != NULL);
	ms_put_var(b, n.hidden);
	g_byte_array_append(b, (const guint8 *)a->hidden->data,
			    (guint)(n.hidden * 20));
	return b;
}

/* ---- reading ---- */

/* `n` bytes of `r` into `out` (which may be an empty array's NULL). */
static bool get_into(struct ms_rd *r, void *out, size_t n)
{
	const uint8_t *p = ms_get_bytes(r, n);

	if (p && n)
		memcpy(out, p, n);
	return p != NULL;
}

struct counts {
	uint64_t commits, ents, tags, tokens, seen, changes, joins, entries;
	int64_t newest;
};

static bool decode_tags(struct ms_activity *a, struct ms_rd *r,
			const struct counts *n)
{
	GPtrArray *toks = g_ptr_array_new();

	for (uint64_t i = 0; i < n->tokens && r->ok; i++) {
		char *t = ms_get_str(r);

		if (t)
			g_ptr_array_add(toks, (gpointer)act_intern(
				a, t, MS_TRAILER_OTHER));
		g_free(t);
	}
	for (uint64_t i = 0; i < n->tags && r->ok; i++) {
		struct stag st;
		struct ctag t;

		if (!get_into(r, &st, sizeof(st)) || st.token >= toks->len) {
			r->ok = false;
			break;
		}
		t.person = st.person;
		t.token = toks->pdata[st.token];
		t.review = st.review != 0;
		g_array_append_val(a->tags, t);
	}
	g_ptr_array_free(toks, TRUE);
	return r->ok;
}

static bool decode_seen(struct ms_activity *a, struct ms_rd *r,
			const struct counts *n)
{
	for (uint64_t i = 0; i < n->seen && r->ok; i++) {
		size_t nl;
		const char *np = ms_get_mem(r, &nl);
		char *name = np ? g_strndup(np, nl) : NULL;
		char *email = ms_get_str(r);
		char *ev = ms_get_opt(r);
		guint8 usage = 0;

		get_into(r, &usage, 1);
		if (r->ok) {
			ms_ident_set_evidence(a->ident, ev, usage != 0);
			ms_ident_resolve(a->ident, name, email);
		}
		g_free(name);
		g_free(email);
		g_free(ev);
	}
	ms_ident_set_evidence(a->ident, NULL, false);
	return r->ok;
}

static bool decode_maint(struct ms_activity *a, struct ms_rd *r,
			 const struct counts *n)
{
	size_t nr_entries = maint_file_nr_entries(a->mf);

	if (n->changes > (uint64_t)(r->end - r->p) / 20 ||
	    n->entries != nr_entries)
		return false;
	g_array_set_size(a->maint_changes, (guint)n->changes);
	if (!get_into(r, a->maint_changes->data, n->changes * 20))
		return false;
	g_ptr_array_set_size(a->maint_paths, 0);
	for (uint64_t i = 0; i < n->changes && r->ok; i++) {
		char *paths = ms_get_str(r);

		if (!paths || !*paths) {
			g_free(paths);
			return false;
		}
		g_ptr_array_add(a->maint_paths, paths);
	}
	a->maint_joins = g_ptr_array_new_with_free_func(act_mjoin_free);
	for (uint64_t i = 0; i < n->joins && r->ok; i++) {
		char *id = ms_get_str(r);

		g_ptr_array_add(a->maint_joins, act_mjoin_get(r, id));
		g_free(id);
	}
	a->has_files = g_new0(bool, nr_entries ? nr_entries : 1);
	for (size_t i = 0; i < nr_entries && r->ok; i++) {
		guint8 h = 0;

		get_into(r, &h, 1);
		a->has_files[i] = h != 0;
	}
	return r->ok;
}

static bool decode_paths(struct ms_activity *a, struct ms_rd *r)
{
	uint64_t nr = ms_get_var(r);

	if (!r->ok || nr > (uint64_t)(r->end - r->p))
		return false;
	if (!a->paths)
		a->paths = g_hash_table_new_full(g_str_hash, g_str_equal,
						 g_free, NULL);
	for (uint64_t i = 0; i < nr; i++) {
		char *s = ms_get_str(r);

		if (!s)
			return false;
		g_hash_table_add(a->paths, s);
	}
	return true;
}

static bool decode_hidden(struct ms_activity *a, struct ms_rd *r)
{
	uint64_t nr = ms_get_var(r);

	if (!r->ok || nr > (uint64_t)(r->end - r->p) / 20)
		return false;
	g_array_set_size(a->hidden, (guint)nr);
	return get_into(r, a->hidden->data, nr * 20);
}

/* Every id and offset the records name must exist. */
static bool check_ids(const struct ms_activity *a)
{
	size_t np = ms_ident_count(a->ident);

	for (guint i = 0; i < a->commits->len; i++) {
		const struct crec *c = &g_array_index(a->commits, struct crec,
						      i);

		if ((c->author != MS_IDENT_NONE && c->author >= np) ||
		    (c->committer != MS_IDENT_NONE && c->committer >= np) ||
		    (c->applier != MS_IDENT_NONE && c->applier >= np) ||
		    (uint64_t)c->ent_off + c->nr_ent > a->ents->len ||
		    (uint64_t)c->tag_off + c->nr_tag > a->tags->len)
			return false;
	}
	for (guint i = 0; i < a->tags->len; i++)
		if (g_array_index(a->tags, struct ctag, i).person >= np)
			return false;
	return true;
}

bool act_model_decode(struct ms_activity *a, const void *data, size_t len)
{
	struct ms_rd r = MS_RD_INIT(data, len);
	struct counts n;

	n.commits = ms_get_var(&r);
	n.ents = ms_get_var(&r);
	n.tags = ms_get_var(&r);
	n.tokens = ms_get_var(&r);
	n.seen = ms_get_var(&r);
	n.changes = ms_get_var(&r);
	n.joins = ms_get_var(&r);
	n.entries = ms_get_var(&r);
	n.newest = ms_get_svar(&r);
	if (!r.ok)
		return false;
	if (n.commits > len / sizeof(struct crec) ||
	    n.ents > len / sizeof(uint32_t) ||
	    n.tags > len / sizeof(struct stag) || n.tokens > len ||
	    n.seen > len || n.joins > len || n.entries > len)
		return false;
	g_array_set_size(a->commits, (guint)n.commits);
	g_array_set_size(a->ents, (guint)n.ents);
	if (!get_into(&r, a->commits->data, n.commits * sizeof(struct crec)) ||
	    !get_into(&r, a->ents->data, n.ents * sizeof(uint32_t)))
		return false;
	if (!decode_tags(a, &r, &n) || !decode_seen(a, &r, &n) ||
	    !decode_maint(a, &r, &n) || !decode_paths(a, &r) ||
	    !decode_hidden(a, &r))
		return false;
	a->newest = n.newest;
	/* not saved: the oldest commit date follows from the commits */
	for (guint i = 0; i < a->commits->len; i++) {
		int64_t t = g_array_index(a->commits, struct crec, i).ctime;

		if (!i || t < a->oldest)
			a->oldest = t;
	}
	return r.p == r.end && check_ids(a);
}

/* ---- a run after new commits: the saved model as the walk's tail ---- */

/*
 * The ids of `old`'s resolver as `a`'s: the pairs `old` saw, resolved
 * again in `a` in the order and under the evidence they were first seen
 * with, after the pairs of the new commits, as a cold walk resolves them
 * (no join happens during a walk, so an id is a person key's node).
 * NULL when the two do not correspond one to one.
 */
static unsigned *remap_ids(struct ms_activity *a, struct ms_activity *old)
{
	size_t nb = ms_ident_count(old->ident);
	unsigned *map = g_new(unsigned, nb ? nb : 1);
	GHashTable *taken = g_hash_table_new(NULL, NULL);
	bool ok = true;

	for (size_t i = 0; i < nb; i++)
		map[i] = MS_IDENT_NONE;
	for (size_t i = 0; ok && i < ms_ident_nr_seen(old->ident); i++) {
		const char *name, *email, *ev;
		size_t name_len;
		bool usage;
		unsigned o, n;
		char *nm;

		ms_ident_seen(old->ident, i, &name, &name_len, &email, &ev,
			      &usage);
		nm = g_strndup(name, name_len);
		o = ms_ident_lookup(old->ident, nm, email);
		ms_ident_set_evidence(a->ident, ev, usage);
		n = ms_ident_resolve(a->ident, nm, email);
		g_free(nm);
		if (o == MS_IDENT_NONE || n == MS_IDENT_NONE) {
			ok = o == n;
		} else if (o >= nb) {
			ok = false;
		} else if (map[o] == MS_IDENT_NONE) {
			ok = !g_hash_table_contains(taken, GUINT_TO_POINTER(n));
			map[o] = n;
			g_hash_table_add(taken, GUINT_TO_POINTER(n));
		} else {
			ok = map[o] == n;
		}
	}
	ms_ident_set_evidence(a->ident, NULL, false);
	g_hash_table_destroy(taken);
	if (!ok)
		g_clear_pointer(&map, g_free);
	return map;
}

/* Allocate room for `more` elements after a's, without adding them. */
static void array_reserve(GArray *a, size_t more)
{
	guint len = a->len;

	if (more > G_MAXUINT - len)
		return;
	g_array_set_size(a, len + (guint)more);
	g_array_set_size(a, len);
}

static bool remap(const unsigned *map, size_t nb, unsigned *id)
{
	if (*id == MS_IDENT_NONE)
		return true;
	if (*id >= nb || map[*id] == MS_IDENT_NONE)
		return false;
	*id = map[*id];
	return true;
}

bool act_model_append(struct ms_activity *a, struct ms_activity *old,
		      bool note)
{
	size_t nb = ms_ident_count(old->ident);
	unsigned *map;
	guint from = a->commits->len;
	GHashTable *end, *tokens;
	GHashTableIter it;
	gpointer k;
	bool ok, *changed;

	a->sv->head_span.commits = a->commits->len;
	a->sv->head_span.ents = a->ents->len;
	a->sv->head_span.tags = a->tags->len;
	a->sv->head_span.tokens = a->token_order->len;
	a->sv->head_span.seen = ms_ident_nr_seen(a->ident);
	a->sv->head_span.changes = a->maint_changes->len;
	a->sv->head_span.hidden = a->hidden->len;
	map = remap_ids(a, old);
	ok = map != NULL;
	/* the old MAINTAINERS changes (a few hundred) by id, each marked
	 * when its commit is of the old end: hashing the end's commits
	 * instead (100,000 on U-Boot) cost as much as the rest */
	end = g_hash_table_new(ms_id_hash, ms_id_equal);
	changed = g_new0(bool, old->maint_changes->len + 1);
	for (guint i = 0; i < old->maint_changes->len; i++)
		g_hash_table_insert(end, old->maint_changes->data + 20 *
				    (size_t)i, GUINT_TO_POINTER(i + 1));
	/* room for the old end at once: appending it record by record made
	 * the arrays grow (and be copied, their pages faulted in again) a
	 * dozen times, a seventh of a run after new commits on U-Boot */
	if (ok && a->sv->prev_from < old->commits->len) {
		const struct crec *first = &g_array_index(
			old->commits, struct crec, a->sv->prev_from);

		array_reserve(a->commits, old->commits->len - a->sv->prev_from);
		array_reserve(a->ents, old->ents->len - first->ent_off);
		array_reserve(a->tags, old->tags->len - first->tag_off);
	}

	/* tokens in the order a cold walk interns them: the walked commits',
	 * then the old end's not seen yet; each old one's new one */
	tokens = g_hash_table_new(NULL, NULL);
	for (guint i = 0; ok && i < old->token_order->len; i++)
		g_hash_table_insert(tokens, old->token_order->pdata[i],
				    (gpointer)act_intern(a,
					old->token_order->pdata[i],
					MS_TRAILER_OTHER));
	for (guint i = (guint)a->sv->prev_from; ok && i < old->commits->len;
	     i++) {
		struct crec r = g_array_index(old->commits, struct crec, i);
		const uint32_t *ents = &g_array_index(old->ents, uint32_t,
						      r.ent_off);

		ok = remap(map, nb, &r.author) &&
		     remap(map, nb, &r.committer) &&
		     remap(map, nb, &r.applier);
		k = g_hash_table_lookup(end, g_array_index(old->commits,
						struct crec, i).raw);
		if (k)
			changed[GPOINTER_TO_UINT(k) - 1] = true;
		r.ent_off = a->ents->len;
		g_array_append_vals(a->ents, ents, r.nr_ent);
		for (unsigned t = 0; ok && t < r.nr_tag; t++) {
			struct ctag tag = g_array_index(old->tags, struct ctag,
							r.tag_off + t);

			ok = remap(map, nb, &tag.person);
			k = g_hash_table_lookup(tokens, tag.token);
			tag.token = k ? k : act_intern(a, tag.token,
						       MS_TRAILER_OTHER);
			g_array_append_val(a->tags, tag);
		}
		r.tag_off = a->tags->len - r.nr_tag;
		g_array_append_val(a->commits, r);
	}
	g_free(map);
	g_hash_table_destroy(tokens);
	/* the old end's MAINTAINERS changes, after the walked ones */
	for (guint i = 0; ok && i < old->maint_changes->len; i++) {
		const unsigned char *raw = (const unsigned char *)
			old->maint_changes->data + 20 * (size_t)i;

		/* (a commit changing two MAINTAINERS files is two changes
		 * of one id: the table holds the last) */
		k = g_hash_table_lookup(end, raw);
		if (!changed[GPOINTER_TO_UINT(k) - 1])
			continue;
		g_array_append_vals(a->maint_changes, raw, 1);
		g_ptr_array_add(a->maint_paths, g_strdup(
			i < old->maint_paths->len ? old->maint_paths->pdata[i]
			: "MAINTAINERS"));
	}
	/* the old walk's merges left out, after the walked ones: each once */
	g_free(changed);
	g_hash_table_remove_all(end);
	for (guint i = 0; i < a->hidden->len; i++)
		g_hash_table_add(end, a->hidden->data + 20 * (size_t)i);
	for (guint i = 0; ok && i < old->hidden->len; i++) {
		const unsigned char *raw = (const unsigned char *)
			old->hidden->data + 20 * (size_t)i;

		if (!g_hash_table_contains(end, raw))
			g_array_append_vals(a->hidden, raw, 1);
	}
	g_hash_table_destroy(end);
	if (!ok)
		return false;
	if (old->paths) {
		if (!a->paths)
			a->paths = g_hash_table_new_full(g_str_hash,
							 g_str_equal, g_free,
							 NULL);
		g_hash_table_iter_init(&it, old->paths);
		while (g_hash_table_iter_next(&it, &k, NULL))
			if (!g_hash_table_contains(a->match_cache, k))
				g_hash_table_add(a->paths, g_strdup(k));
	}
	for (guint i = from; note && i < a->commits->len; i++) {
		const struct crec *r = &g_array_index(a->commits, struct crec,
						      i);

		act_note_commit(a, r, i);
	}
	a->sv->appended = true;
	return true;
}

/* a->state: the .mailmap's digest with the MAINTAINERS fingerprint. */
void act_state_finish(struct ms_activity *a, const char *pkey)
{
	char *both = g_strconcat(a->state, pkey, NULL);
	char *sum = g_compute_checksum_for_string(G_CHECKSUM_SHA256, both,
						  -1);

	g_strlcpy(a->state, sum, sizeof(a->state));
	g_free(sum);
	g_free(both);
}

void act_model_head(const struct ms_activity *a, const char *id,
		    char head[ACT_HEAD_LEN + 1])
{
	static const char no_commit[41] = "";
	char *base = act_model_key(a->opts, no_commit);

	snprintf(head, ACT_HEAD_LEN + 1, "%.64s%.40s%.64s", base, id, a->state);
	g_free(base);
}

/* ---- the model as a whole one and the parts appended to it ---- */

/*
 * A run after new commits saves only what it walked, the head of its
 * walk order, as a part (kind "activity-part", keyed by the key of the
 * row before it: the whole model's, or the part's before it) naming the
 * head of the model before it: rewriting the whole model (14 MB for
 * U-Boot) was a quarter of such a run.  A part is, at these offsets:
 * its head (ACT_HEAD_LEN), its model key (64), the head of the model
 * before it (ACT_HEAD_LEN), a->sv->prev_from (8 bytes, little-endian), then
 * act_model_encode() of the head (records, pairs, MAINTAINERS changes,
 * new paths) with the whole model's changes of address and entries
 * owning files.  Reading one is what the run did: the head decoded, the
 * model before it read, and act_model_append().  The store checks each
 * row's bytes (store.h).
 */
#define PART_KIND ACT_MODEL_KIND "-part"
#define PART_KEY ACT_HEAD_LEN
#define PART_PRED (PART_KEY + 64)
#define PART_FROM (PART_PRED + ACT_HEAD_LEN)
#define PART_BODY (PART_FROM + 8)

struct act_chain {
	GBytes *rows[1 + ACT_MAX_PARTS];
	char keys[1 + ACT_MAX_PARTS][65];   /* each row's key */
	size_t n;
};

void act_chain_free(struct act_chain *c)
{
	if (!c)
		return;
	for (size_t i = 0; i < c->n; i++)
		g_bytes_unref(c->rows[i]);
	g_free(c);
}

/* A part that follows `pred` (a row's head). */
static bool part_fits(GBytes *row, const unsigned char *pred)
{
	gsize len;
	const unsigned char *d = g_bytes_get_data(row, &len);

	return len >= PART_BODY && !memcmp(d + PART_PRED, pred, ACT_HEAD_LEN);
}

/*
 * The saved model of the last run (any commit) into a->chain: the whole
 * model and the parts appended to it that chain on (each names the head
 * of the one before) and are whole (their digest holds).  Nothing when
 * none is saved or it cannot be read.
 */
static void act_chain_read(struct ms_activity *a)
{
	struct act_chain *c;
	GBytes *saved = NULL;
	char *key = NULL;

	if (ms_store_model_get_any(a->opts->store, ACT_MODEL_KIND, NULL, &key,
				   &saved) < 0 || !saved) {
		ms_error_clear();
		return;
	}
	if (g_bytes_get_size(saved) < ACT_HEAD_LEN || strlen(key) != 64) {
		g_bytes_unref(saved);
		g_free(key);
		return;
	}
	c = g_new0(struct act_chain, 1);
	memcpy(c->keys[0], key, 65);
	g_free(key);
	c->rows[c->n++] = saved;
	while (c->n <= ACT_MAX_PARTS) {
		saved = NULL;
		if (ms_store_model_get(a->opts->store, PART_KIND,
				       c->keys[c->n - 1], &saved) < 0) {
			ms_error_clear();
			break;
		}
		/* a part of another chain ends it: the model before it is
		 * taken, and the walk goes on from there */
		if (!saved || !part_fits(saved, g_bytes_get_data(
				c->rows[c->n - 1], NULL))) {
			g_bytes_unref(saved);
			break;
		}
		memcpy(c->keys[c->n], (const char *)g_bytes_get_data(saved,
			NULL) + PART_KEY, 64);
		c->keys[c->n][64] = '\0';
		c->rows[c->n++] = saved;
	}
	act_chain_free(a->sv->chain);
	a->sv->chain = c;
}

/* A model to read an older one into, with a's tree, entries and mailmap
 * (model_unlike() gives them back before it is freed). */
static struct ms_activity *model_like(const struct ms_activity *a)
{
	struct ms_activity *b = g_new0(struct ms_activity, 1);
	struct ms_diags quiet = MS_DIAGS_INIT;

	act_model_init(b);
	b->opts = a->opts;
	b->tree = a->tree;
	b->mf = a->mf;
	b->ident = ms_ident_new(!a->opts->no_plus_fold);
	if (act_ident_setup(b, b->ident, &quiet) < 0) {
		ms_error_clear();
		b->tree = NULL;
		b->mf = NULL;
		b->opts = NULL;
		ms_activity_free(b);
		b = NULL;
	}
	ms_diags_release(&quiet);
	return b;
}

static void model_unlike(struct ms_activity *b)
{
	if (!b)
		return;
	b->tree = NULL;
	b->mf = NULL;
	b->opts = NULL;
}

/* The model of the chain's first n rows into x. */
static bool chain_load(struct ms_activity *x, const struct act_chain *c,
		       size_t n)
{
	gsize len;
	const char *d = g_bytes_get_data(c->rows[n - 1], &len);
	struct ms_activity *old;
	struct ms_rd r = MS_RD_INIT(d + PART_FROM, 8);
	uint64_t from;
	bool ok;

	if (n == 1)
		return act_model_decode(x, d + ACT_HEAD_LEN,
					len - ACT_HEAD_LEN);
	from = ms_get_le(&r, 8);
	if (!act_model_decode(x, d + PART_BODY, len - PART_BODY))
		return false;
	old = model_like(x);
	ok = old && chain_load(old, c, n - 1) && from < old->commits->len;
	if (ok) {
		x->sv->prev_from = (size_t)from;
		ok = act_model_append(x, old, false);
	}
	model_unlike(old);
	ms_activity_free(old);
	return ok;
}

int act_chain_load_key(struct ms_activity *a, const char *key)
{
	const char *tip;

	if (!a->sv->chain)
		act_chain_read(a);
	if (!a->sv->chain || a->sv->chain->n < 2)
		return 0;
	tip = g_bytes_get_data(a->sv->chain->rows[a->sv->chain->n - 1], NULL);
	if (memcmp(tip + PART_KEY, key, 64))
		return 0;
	return chain_load(a, a->sv->chain, a->sv->chain->n) ? 1 : 2;
}

int act_model_save(struct ms_activity *a, const char *key, const char *head)
{
	struct ms_store *store = a->opts->store;
	GByteArray *b, *body;
	int rc;

	if (!a->sv->appended || a->sv->prev_rows < 1 || a->sv->prev_rows > ACT_MAX_PARTS ||
	    a->sv->head_span.commits > a->commits->len / 4) {
		b = act_model_encode(a, head, ACT_HEAD_LEN, NULL);
		rc = ms_store_model_put(store, ACT_MODEL_KIND, key, 1, b->data,
					b->len);
		g_byte_array_free(b, TRUE);
		/* the parts of the whole model it replaces */
		return rc < 0 ? rc : ms_store_model_drop(store, PART_KIND);
	}
	body = act_model_encode(a, NULL, 0, &a->sv->head_span);
	b = g_byte_array_sized_new(PART_BODY + body->len);
	g_byte_array_append(b, (const guint8 *)head, ACT_HEAD_LEN);
	g_byte_array_append(b, (const guint8 *)key, 64);
	g_byte_array_append(b, (const guint8 *)a->sv->prev_head, ACT_HEAD_LEN);
	ms_put_le(b, a->sv->prev_from, 8);
	g_byte_array_append(b, body->data, body->len);
	g_byte_array_free(body, TRUE);
	rc = ms_store_model_put(store, PART_KIND, a->sv->prev_key, ACT_MAX_PARTS,
				b->data, b->len);
	g_byte_array_free(b, TRUE);
	return rc;
}

/*
 * After new commits: the model saved by the last run (any commit), if it
 * has the same head but the commit, read into a->sv->prev: the chain's whole
 * model with its parts appended.
 */
void act_prev_read(struct ms_activity *a, const char *head)
{
	struct ms_activity *b;
	const char *data;
	size_t n;

	if (!a->sv->chain)
		act_chain_read(a);
	if (!a->sv->chain)
		return;
	n = a->sv->chain->n;
	data = g_bytes_get_data(a->sv->chain->rows[n - 1], NULL);
	if (memcmp(data, head, 64) || !memcmp(data + 64, head + 64, 40) ||
	    memcmp(data + 104, head + 104, 64)) {
		g_clear_pointer(&a->sv->chain, act_chain_free);
		return;
	}
	b = model_like(a);
	if (b && chain_load(b, a->sv->chain, n)) {
		a->sv->prev = b;
		a->sv->prev_rows = n;
		memcpy(a->sv->prev_key, a->sv->chain->keys[n - 1], 65);
		memcpy(a->sv->prev_head, data, ACT_HEAD_LEN);
		a->sv->prev_head[ACT_HEAD_LEN] = '\0';
	} else {
		ms_error_clear();
		model_unlike(b);
		ms_activity_free(b);
	}
	model_unlike(a->sv->prev);
	g_clear_pointer(&a->sv->chain, act_chain_free);
}

/*
 * ms_walk_opts.head: the walk order's commits up to where its end equals
 * the end of the saved model's order.  A new commit may fall among the
 * model's (a commit time shared with one of them, a merged branch of old
 * dates), and a walk from another tip may order commits of equal time
 * otherwise, so only the longest common end is taken from the model
 * (a->sv->prev_from: its first record), and what comes before it is walked,
 * new commits and old ones alike.  The model's commits before that end
 * must all be walked again: then every (name, address) pair the model
 * first saw in its end is first seen there again, and every other one
 * before it, as a cold walk sees them.
 */
size_t act_walk_head(const unsigned char *ids, size_t n, void *data)
{
	struct ms_activity *a = data;
	const GArray *old = a->sv->prev->commits;
	GHashTable *set;
	size_t m = 0;
	bool fits = true;

	while (m < old->len && m < n &&
	       !memcmp(ids + 20 * (n - 1 - m),
		       g_array_index(old, struct crec, old->len - 1 - m).raw,
		       20))
		m++;
	if (!m)
		return n;
	set = g_hash_table_new(ms_id_hash, ms_id_equal);
	for (size_t i = 0; i < n - m; i++)
		g_hash_table_add(set, (gpointer)(ids + 20 * i));
	for (guint i = 0; fits && i < old->len - m; i++)
		fits = g_hash_table_contains(set, g_array_index(
			old, struct crec, i).raw);
	g_hash_table_destroy(set);
	if (!fits)
		return n;
	a->sv->prev_fits = true;
	a->sv->prev_from = old->len - m;
	return n - m;
}

/* ---- the path -> entries answers ---- */

/*
 * The path -> entries answers (act_match_path()) outlive the model: they hold
 * for every revision whose MAINTAINERS and directory answers are the
 * same (maint_index_fingerprint()), so a run after new commits matches
 * only the paths no run matched before.  Saved as records of a count,
 * that many entry indexes (varints), as many depths (signed varints) and
 * the path (bytes.h), under the fingerprint after PATHS_FORMAT (the
 * first format had no depths).
 */
#define PATHS_KIND "activity-paths"
#define PATHS_FORMAT "2:"

void act_paths_read(struct ms_activity *a, const char *key)
{
	GBytes *saved = NULL;
	size_t nr_entries = maint_file_nr_entries(a->mf);
	GHashTable *t;
	struct ms_rd r;
	const void *p;
	char *fkey = g_strconcat(PATHS_FORMAT, key, NULL);
	gsize len;
	int rc = ms_store_model_get(a->opts->store, PATHS_KIND, fkey, &saved);

	g_free(fkey);
	if (rc < 0 || !saved) {
		ms_error_clear();
		return;
	}
	p = g_bytes_get_data(saved, &len);
	r = (struct ms_rd)MS_RD_INIT(p, len);
	t = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, g_free);
	while (r.ok && r.p < r.end) {
		uint64_t n = ms_get_var(&r);
		uint32_t *e;
		char *path;

		if (n > (uint64_t)(r.end - r.p))
			break;
		e = g_new(uint32_t, 2 * n + 1);
		e[0] = (uint32_t)n;
		for (uint64_t k = 0; k < n; k++) {
			uint64_t x = ms_get_var(&r);

			r.ok = r.ok && x < nr_entries;
			e[1 + k] = (uint32_t)x;
		}
		for (uint64_t k = 0; k < n; k++)
			e[1 + n + k] = (uint32_t)(int32_t)ms_get_svar(&r);
		path = ms_get_str(&r);
		if (r.ok)
			g_hash_table_replace(t, path, e);
		else {
			g_free(path);
			g_free(e);
		}
	}
	/* all or nothing: a cut-short table is not taken */
	if (ms_rd_done(&r))
		a->sv->saved_paths = t;
	else
		g_hash_table_destroy(t);
	g_bytes_unref(saved);
}

static void put_answer(GByteArray *b, const char *path, const uint32_t *r)
{
	for (uint32_t i = 0; i <= r[0]; i++)
		ms_put_var(b, r[i]);
	for (uint32_t i = 0; i < r[0]; i++)
		ms_put_svar(b, (int32_t)r[1 + r[0] + i]);
	ms_put_str(b, path);
}

int act_paths_write(struct ms_activity *a, const char *key)
{
	GByteArray *b;
	GHashTableIter it;
	gpointer k, v;
	guint fresh = 0;
	char *fkey;
	int rc;

	g_hash_table_iter_init(&it, a->match_cache);
	while (g_hash_table_iter_next(&it, &k, NULL))
		fresh += !a->sv->saved_paths ||
			!g_hash_table_contains(a->sv->saved_paths, k);
	/* a match that hit the regex limits is reported by the run that
	 * makes it: not saved.  Nor are a few new answers beside a large
	 * table: rewriting it (3.8 MB for U-Boot) costs more than matching
	 * them again, a few paths, on the next runs (until there are
	 * ACT_PATHS_FEW and a 32nd of the table) */
	if (!fresh || maint_index_limit_hits(a->idx) ||
	    (a->sv->saved_paths && (fresh < ACT_PATHS_FEW ||
	     fresh < g_hash_table_size(a->sv->saved_paths) / 32)))
		return 0;
	b = g_byte_array_new();
	if (a->sv->saved_paths) {
		g_hash_table_iter_init(&it, a->sv->saved_paths);
		while (g_hash_table_iter_next(&it, &k, &v))
			put_answer(b, k, v);
	}
	g_hash_table_iter_init(&it, a->match_cache);
	while (g_hash_table_iter_next(&it, &k, &v))
		if (!a->sv->saved_paths ||
		    !g_hash_table_contains(a->sv->saved_paths, k))
			put_answer(b, k, v);
	fkey = g_strconcat(PATHS_FORMAT, key, NULL);
	rc = ms_store_model_put(a->opts->store, PATHS_KIND, fkey, 1, b->data,
				b->len);
	g_free(fkey);
	g_byte_array_free(b, TRUE);
	return rc;
}

/* ---- the walk, after the saved model's walk order ---- */

/* ms_store_prev_walk.hidden: a merge the walk left out, into a->hidden. */
static void act_note_hidden(const unsigned char *id, int64_t time,
			    void *data)
{
	struct ms_activity *a = data;

	(void)time;
	g_array_append_vals(a->hidden, id, 1);
}

int act_walk(struct ms_activity *a, const struct ms_walk_opts *wo,
	     struct ms_diags *diags)
{
	struct ms_store_prev_walk pw = { 0 };
	const GArray *old = a->sv->prev ? a->sv->prev->commits : NULL;
	unsigned char *ids = NULL;
	int64_t *times = NULL;
	char tip[41];
	int rc;

	pw.hidden = act_note_hidden;
	pw.data = a;
	if (old && old->len) {
		/* the saved model's order: its records and the merges it
		 * left out, from the commit its head names */
		memcpy(tip, a->sv->prev_head + 64, 40);
		tip[40] = '\0';
		ids = g_malloc((size_t)old->len * 20);
		times = g_new(int64_t, old->len);
		for (guint i = 0; i < old->len; i++) {
			const struct crec *r = &g_array_index(old, struct crec,
							      i);

			memcpy(ids + 20 * (size_t)i, r->raw, 20);
			times[i] = r->ctime;
		}
		pw.tip = tip;
		pw.nr = old->len;
		pw.ids = ids;
		pw.times = times;
		pw.nr_hidden = a->sv->prev->hidden->len;
		pw.hidden_ids = (const unsigned char *)a->sv->prev->hidden->data;
	}
	rc = ms_store_history_walk_prev(a->opts->store, a->opts->gitdir, wo,
					&pw, diags);
	g_free(ids);
	g_free(times);
	return rc;
}

void ms_activity_free(struct ms_activity *a)
{
	if (!a)
		return;
	maint_index_free(a->idx);
	maint_file_free(a->mf);
	ms_tree_free(a->tree);
	act_listing_release(a);
	g_free(a->gitdir);
	g_clear_pointer(&a->walked_chunk, g_string_chunk_free);
	if (a->walked_paths)
		g_ptr_array_free(a->walked_paths, TRUE);
	if (a->walked_off)
		g_array_free(a->walked_off, TRUE);
	g_mutex_clear(&a->then_lock);
	ms_ident_free(a->ident);
	g_array_free(a->commits, TRUE);
	g_array_free(a->hidden, TRUE);
	g_array_free(a->ents, TRUE);
	g_array_free(a->tags, TRUE);
	g_array_free(a->maint_changes, TRUE);
	g_ptr_array_free(a->maint_paths, TRUE);
	g_free(a->has_files);
	g_clear_pointer(&a->lists, g_hash_table_destroy);
	g_hash_table_destroy(a->tokens);
	g_clear_pointer(&a->reviews, g_hash_table_destroy);
	if (a->token_order)
		g_ptr_array_free(a->token_order, TRUE);
	if (a->maint_joins)
		g_ptr_array_free(a->maint_joins, TRUE);
	g_hash_table_destroy(a->match_cache);
	g_clear_pointer(&a->paths, g_hash_table_destroy);
	g_free(a->in_range);
	g_mutex_clear(&a->match_lock);
	g_mutex_clear(&a->seen_lock);
	g_free(a->first_seen);
	g_free(a->last_used);
	act_addresses_free(a->addresses);
	g_free(a->upto_seen);
	g_clear_pointer(&a->sv->saved_paths, g_hash_table_destroy);
	ms_activity_free(a->sv->prev);
	act_chain_free(a->sv->chain);
	g_free(a->sv);
	g_free(a);
}
