/*
 * activity-series.c - the time series (`--by`) kept in the store between
 * runs (activity.h, ms_activity_query_series_kept()).
 *
 * The one pass (activity-query.c) reads the records oldest first and
 * keeps the "last" facts running; a window's result is those facts at its
 * end and the counts of its own records.  The facts at a window's end
 * depend only on the records read up to it, so each window is saved with
 * the digest of exactly those (SHA-256 of the key and of every record up
 * to the window's end, in the pass's order: record_bytes()), and with the
 * changes of the running facts since the window before.  A run finds, for
 * each of its windows, the saved window with the same records digest and
 * applies the saved changes up to it: the facts are those of the last
 * run, however the windows are cut (a month later, the first month of
 * five years is dropped and the others are the same).  The counts are
 * taken as saved when the bounds are the same too (the window's key:
 * records digest, since, until, active since), else counted from the
 * records; windows after the last that matches are made by the pass.
 *
 * Hashing the records (20 MB for U-Boot) was most of what telling the
 * windows apart cost; a row saved from the same records gives them as
 * saved.  The records are known to be the same without reading them
 * when the model is of the same walked commit and options (its model
 * key: the same records in the same order) and every person id has the
 * same label (records_id()); a window's records digest is then the one
 * of the saved window that had read as many records.  A window taken
 * whole from the row is not encoded again either: its body is the
 * saved one.
 *
 * One row of the store's `models` (kind: the caller's, e.g.
 * "activity-series:month"; key: key_of(), everything but the records)
 * holds a 4-byte magic, the number of windows (4 bytes, little-endian),
 * the records identity (32 bytes, records_id()), then per window,
 * oldest first:
 *
 *   records  32 bytes: the records digest
 *   window   32 bytes: the window's key
 *   check    32 bytes: SHA-256 of the two, the records identity, the
 *                      count and the body
 *   count    4 bytes: the records read up to the window's end
 *   length   4 bytes, then the body:
 *     the running facts of the listed people that changed in the window
 *     (each: its position among the listed people of all entries, what
 *     it authored, committed and was named in last, its last activity,
 *     whether it was seen at all), then the window's counts of each entry
 *     with a commit in it (commits, reviewed, each listed person's
 *     counts, the top reviewers and committers by their group's label).
 *
 * Every saved window is checked whole (its check, every field in range,
 * every label and token known) before any is used, and only the windows
 * before the first that fails are used: damage is computed again, never
 * shown.
 */
#include "activity.h"
#include "activity-internal.h"
#include "ident.h"
#include "maintainers.h"
#include "store.h"

#include <glib.h>
#include <string.h>

#define SERIES_FORMAT "maintstat activity series 2"
#define SERIES_MAGIC "MSA2"
#define LABEL 16                  /* bytes of a group's label */
#define DIGEST 32                 /* SHA-256 */
#define ROW_HEAD (8 + DIGEST)
#define WIN_HEAD (3 * DIGEST + 8)

void act_series_base(struct ms_activity *a,
		     const struct ms_activity_load_opts *opts,
		     const char id[41])
{
	char *walked = act_model_key(opts, id);
	static const char no_commit[41] = "";
	char *model = act_model_key(opts, no_commit);
	/* a->state holds the .mailmap's digest here; the model key has
	 * the options, --mailmap, --aliases and --maintainers files */
	char *text = g_strdup_printf("%s\n%s\n%s\nnames %d plus %d merges "
				     "%d find %d\n", SERIES_FORMAT, model,
				     a->state, opts->no_name_join,
				     opts->no_plus_fold, opts->merges,
				     opts->find_maintainer_files);
	char *sum = g_compute_checksum_for_string(G_CHECKSUM_SHA256, text,
						  -1);

	g_strlcpy(a->series_base, sum, sizeof(a->series_base));
	g_strlcpy(a->series_model, walked, sizeof(a->series_model));
	g_free(sum);
	g_free(text);
	g_free(model);
	g_free(walked);
}

/* The running facts of one listed person at a window's end. */
struct pstate {
	struct ms_act_last author, committer, tags;   /* counts unused */
	bool has_last;
	int64_t last_time;
	int last_offset;
	bool seen;
};

struct label { unsigned char b[LABEL]; };
struct digest { unsigned char b[DIGEST]; };
struct whead { guint8 b[WIN_HEAD]; };

struct keep {
	const struct ms_activity *a;
	struct act_series s;
	struct label *label;      /* per person id: its group's */
	GHashTable *by_label;     /* label -> root + 1 */
	struct digest *rec;       /* per window: its records digest */
	struct digest *win;       /* per window: its key */
	guint *ci_end;            /* per window: s.ci after its records */
	uint32_t *count;          /* per window: the records up to its end */
	/* which records the model holds and who each id is (records_id()):
	 * a saved row of the same gives the records digests as saved */
	struct digest ident;
	size_t prev_at;           /* windows whose changes k->prev holds */
	size_t nr_slots;          /* listed people of all entries */
	size_t *first_slot;       /* per entry: its first listed person */
	struct pstate *prev;      /* per slot, at the last window's end */
	char key[65];
};

/* ---- the key ---- */

static void add_bytes(GChecksum *ck, const void *p, size_t n)
{
	g_checksum_update(ck, p, (gssize)n);
}

/* A string with its length first, so that no two run together. */
static void add_str(GChecksum *ck, const char *s)
{
	uint64_t n = s ? strlen(s) : UINT64_MAX;

	add_bytes(ck, &n, sizeof(n));
	if (s)
		add_bytes(ck, s, strlen(s));
}

static guint label_hash(gconstpointer p)
{
	guint h;

	memcpy(&h, p, sizeof(h));
	return h;
}

static gboolean label_equal(gconstpointer x, gconstpointer y)
{
	return !memcmp(x, y, LABEL);
}

/*
 * Label every person id with its group's canonical name and address
 * (SHA-256, 16 bytes): what a run of other ids (new commits resolved
 * first) names alike.  False when two groups share a label (two people
 * who print the same): then nothing is kept.
 */
static bool make_labels(struct keep *k)
{
	struct ms_ident *id = k->a->ident;
	size_t n = ms_ident_count(id);
	GChecksum *ck = g_checksum_new(G_CHECKSUM_SHA256);
	bool *done = g_new0(bool, n ? n : 1);
	bool ok = true;

	k->label = g_new0(struct label, n ? n : 1);
	k->by_label = g_hash_table_new(label_hash, label_equal);
	for (size_t p = 0; p < n && ok; p++) {
		unsigned r = ms_ident_root(id, (unsigned)p);
		guchar d[DIGEST];
		gsize dl = sizeof(d);

		if (!done[r]) {
			gpointer old;

			g_checksum_reset(ck);
			add_str(ck, ms_ident_name(id, r));
			add_str(ck, ms_ident_email(id, r));
			g_checksum_get_digest(ck, d, &dl);
			memcpy(k->label[r].b, d, LABEL);
			done[r] = true;
			old = g_hash_table_lookup(k->by_label, k->label[r].b);
			if (old && GPOINTER_TO_UINT(old) != r + 1)
				ok = false;
			g_hash_table_insert(k->by_label, k->label[r].b,
					    GUINT_TO_POINTER(r + 1));
		}
		memcpy(k->label[p].b, k->label[r].b, LABEL);
	}
	g_free(done);
	g_checksum_free(ck);
	return ok;
}

/*
 * The joins: every address of a person in a group of more than one, with
 * its group's label, in a sum of digests (the ids' order is no fact).
 */
static void add_joins(struct keep *k, GChecksum *key)
{
	struct ms_ident *id = k->a->ident;
	size_t n = ms_ident_count(id);
	GChecksum *ck = g_checksum_new(G_CHECKSUM_SHA256);
	uint64_t sum[4] = { 0, 0, 0, 0 }, nr = 0;

	for (size_t p = 0; p < n; p++) {
		unsigned r = ms_ident_root(id, (unsigned)p);
		size_t members = 0;
		guchar d[DIGEST];
		gsize dl = sizeof(d);

		ms_ident_members(id, r, &members);
		if (members < 2)
			continue;
		g_checksum_reset(ck);
		add_bytes(ck, k->label[p].b, LABEL);
		add_str(ck, ms_ident_name(id, (unsigned)p));
		add_str(ck, ms_ident_email(id, (unsigned)p));
		for (size_t i = 0; i < ms_ident_nr_addresses(id, (unsigned)p);
		     i++) {
			enum ms_ident_source src;
			const char *ev;

			add_str(ck, ms_ident_address(id, (unsigned)p, i, &src,
						     &ev));
		}
		g_checksum_get_digest(ck, d, &dl);
		for (int w = 0; w < 4; w++) {
			uint64_t v;

			memcpy(&v, d + 8 * w, sizeof(v));
			sum[w] += v;
		}
		nr++;
	}
	add_bytes(key, &nr, sizeof(nr));
	add_bytes(key, sum, sizeof(sum));
	g_checksum_free(ck);
}

/*
 * The key: this format and build, the load's options and identity
 * inputs, every MAINTAINERS entry as parsed, the entries asked for and
 * the groups of their listed people, the joins.
 */
static void key_of(struct keep *k, const char *build)
{
	const struct ms_activity *a = k->a;
	GChecksum *ck = g_checksum_new(G_CHECKSUM_SHA256);
	uint64_t v;

	add_str(ck, SERIES_FORMAT);
	add_str(ck, build);
	add_str(ck, a->series_base);
	v = k->s.nr_all;
	add_bytes(ck, &v, sizeof(v));
	for (size_t i = 0; i < k->s.nr_all; i++) {
		const struct maint_entry *me = maint_file_entry(a->mf, i);

		add_str(ck, me->name);
		v = me->nr_fields;
		add_bytes(ck, &v, sizeof(v));
		for (size_t f = 0; f < me->nr_fields; f++) {
			char key[2] = { me->fields[f].key, 0 };

			add_str(ck, key);
			add_str(ck, me->fields[f].value);
		}
	}
	v = k->s.n;
	add_bytes(ck, &v, sizeof(v));
	for (size_t i = 0; i < k->s.n; i++) {
		const struct ms_act_entry *e = &k->s.run[i];
		static const unsigned char nobody[LABEL];

		v = e->entry->index;
		add_bytes(ck, &v, sizeof(v));
		for (size_t p = 0; p < e->nr_people; p++) {
			unsigned id = e->people[p].person;

			add_bytes(ck, id == MS_IDENT_NONE ? nobody :
				  k->label[id].b, LABEL);
		}
	}
	add_joins(k, ck);
	g_strlcpy(k->key, g_checksum_get_string(ck), sizeof(k->key));
	g_checksum_free(ck);
}

/* ---- the chain ---- */

static void put_le(GByteArray *b, uint64_t v, int n)
{
	guint8 x[8];

	for (int i = 0; i < n; i++)
		x[i] = (guint8)(v >> (8 * i));
	g_byte_array_append(b, x, (guint)n);
}

static void put_label(const struct keep *k, GByteArray *b, unsigned id)
{
	static const guint8 nobody[LABEL];

	g_byte_array_append(b, id == MS_IDENT_NONE ? nobody : k->label[id].b,
			    LABEL);
}

/* What a record is to the windows, without the ids of this run. */
static void record_bytes(const struct keep *k, const struct crec *r,
			 GByteArray *b)
{
	const struct ms_activity *a = k->a;
	const struct ctag *tags = &g_array_index(a->tags, struct ctag,
						 r->tag_off);
	const uint32_t *ents = &g_array_index(a->ents, uint32_t, r->ent_off);

	g_byte_array_append(b, r->raw, 20);
	put_le(b, (uint64_t)r->atime, 8);
	put_le(b, (uint64_t)r->ctime, 8);
	put_le(b, (uint16_t)r->aoff, 2);
	put_le(b, (uint16_t)r->coff, 2);
	put_label(k, b, r->author);
	put_label(k, b, r->committer);
	put_label(k, b, r->applier);
	put_le(b, r->reviewed, 1);
	put_le(b, r->nr_ent, 2);
	for (unsigned i = 0; i < r->nr_ent; i++)
		put_le(b, ents[i], 4);
	put_le(b, r->nr_tag, 2);
	for (unsigned i = 0; i < r->nr_tag; i++) {
		size_t n = strlen(tags[i].token);

		put_label(k, b, tags[i].person);
		put_le(b, tags[i].review, 1);
		put_le(b, n, 2);
		g_byte_array_append(b, (const guint8 *)tags[i].token,
				    (guint)n);
	}
}

/* Where each window's records end in the pass's order, and how many
 * records it has read by then. */
static void make_ends(struct keep *k)
{
	const struct ms_activity *a = k->a;
	guint ci = a->commits->len;

	k->ci_end = g_new(guint, k->s.nq);
	k->count = g_new(uint32_t, k->s.nq);
	for (size_t w = 0; w < k->s.nq; w++) {
		while (ci > 0 && g_array_index(a->commits, struct crec,
					       ci - 1).ctime <=
		       k->s.qs[w].until)
			ci--;
		k->ci_end[w] = ci;
		k->count[w] = (uint32_t)(a->commits->len - ci);
	}
}

/*
 * What the records are, without reading them: the model key of the
 * walked commit (the history, the options, the extraction version: the
 * same records in the same order) and each person id's label (who the
 * ids of the records are, joined as they are).
 */
static void records_id(struct keep *k)
{
	const struct ms_activity *a = k->a;
	GChecksum *ck = g_checksum_new(G_CHECKSUM_SHA256);
	uint64_t v = a->commits->len;
	size_t n = ms_ident_count(a->ident);
	gsize dl = DIGEST;

	add_str(ck, "records");
	add_str(ck, a->series_model);
	add_bytes(ck, &v, sizeof(v));
	v = n;
	add_bytes(ck, &v, sizeof(v));
	add_bytes(ck, k->label, n * sizeof(*k->label));
	g_checksum_get_digest(ck, k->ident.b, &dl);
	g_checksum_free(ck);
}

/* Every window's records digest, from the records. */
static void make_recs(struct keep *k)
{
	const struct ms_activity *a = k->a;
	GChecksum *ck = g_checksum_new(G_CHECKSUM_SHA256);
	GByteArray *b = g_byte_array_sized_new(1 << 16);
	guint ci = a->commits->len;

	add_str(ck, k->key);
	for (size_t w = 0; w < k->s.nq; w++) {
		GChecksum *at;
		gsize dl = DIGEST;

		/* the records the pass reads for it, in its order */
		while (ci > k->ci_end[w]) {
			ci--;
			record_bytes(k, &g_array_index(a->commits, struct crec,
						       ci), b);
			if (b->len >= (1 << 16)) {
				add_bytes(ck, b->data, b->len);
				g_byte_array_set_size(b, 0);
			}
		}
		add_bytes(ck, b->data, b->len);
		g_byte_array_set_size(b, 0);
		at = g_checksum_copy(ck);
		g_checksum_get_digest(at, k->rec[w].b, &dl);
		g_checksum_free(at);
	}
	g_byte_array_free(b, TRUE);
	g_checksum_free(ck);
}

/* Every window's key, from its records digest and its bounds. */
static void make_wins(struct keep *k)
{
	GChecksum *wk = g_checksum_new(G_CHECKSUM_SHA256);
	GByteArray *b = g_byte_array_sized_new(24);

	for (size_t w = 0; w < k->s.nq; w++) {
		const struct ms_activity_query *q = &k->s.qs[w];
		gsize dl = DIGEST;

		g_checksum_reset(wk);
		add_bytes(wk, k->rec[w].b, DIGEST);
		g_byte_array_set_size(b, 0);
		put_le(b, (uint64_t)q->since, 8);
		put_le(b, (uint64_t)q->until, 8);
		put_le(b, (uint64_t)q->active_since, 8);
		add_bytes(wk, b->data, b->len);
		g_checksum_get_digest(wk, k->win[w].b, &dl);
	}
	g_byte_array_free(b, TRUE);
	g_checksum_free(wk);
}

/* ---- a window's body ---- */

void act_put_var(GByteArray *b, uint64_t v)
{
	guint8 x;

	do {
		x = (guint8)(v & 0x7f);
		v >>= 7;
		if (v)
			x |= 0x80;
		g_byte_array_append(b, &x, 1);
	} while (v);
}

static void put_svar(GByteArray *b, int64_t v)
{
	act_put_var(b, v < 0 ? ((uint64_t)(-(v + 1)) << 1) | 1 :
		(uint64_t)v << 1);
}

static void put_last(GByteArray *b, const struct ms_act_last *l, bool tag)
{
	act_put_var(b, l->set);
	if (!l->set)
		return;
	g_byte_array_append(b, (const guint8 *)l->id, 40);
	put_svar(b, l->time);
	put_svar(b, l->offset);
	if (tag) {
		size_t n = l->tag ? strlen(l->tag) : 0;

		act_put_var(b, n);
		g_byte_array_append(b, (const guint8 *)(l->tag ? l->tag : ""),
				    (guint)n);
	}
}

static bool last_equal(const struct ms_act_last *x,
		       const struct ms_act_last *y)
{
	return x->set == y->set && (!x->set ||
		(x->time == y->time && x->offset == y->offset &&
		 !memcmp(x->id, y->id, 40) && x->tag == y->tag));
}

static bool pstate_equal(const struct pstate *x, const struct pstate *y)
{
	return last_equal(&x->author, &y->author) &&
		last_equal(&x->committer, &y->committer) &&
		last_equal(&x->tags, &y->tags) &&
		x->has_last == y->has_last && x->seen == y->seen &&
		(!x->has_last || (x->last_time == y->last_time &&
				  x->last_offset == y->last_offset));
}

static void pstate_of(const struct act_series *s,
		      const struct ms_act_person *p, struct pstate *st)
{
	memset(st, 0, sizeof(*st));
	st->author = p->author;
	st->committer = p->committer;
	st->tags = p->tags;
	st->author.count = st->committer.count = st->tags.count = 0;
	st->has_last = p->has_last;
	st->last_time = p->has_last ? p->last_time : 0;
	st->last_offset = p->has_last ? p->last_offset : 0;
	st->seen = p->person != MS_IDENT_NONE && s->seen[p->person];
}

static void put_counts(const struct keep *k, GByteArray *b,
		       const struct ms_act_count *c, size_t n)
{
	act_put_var(b, n);
	for (size_t i = 0; i < n; i++) {
		put_label(k, b, c[i].person);
		act_put_var(b, c[i].count);
	}
}

/* Window w's body: the changes of the running facts since k->prev (which
 * it updates), then the counts of `res`, the window's entries. */
static GByteArray *encode(struct keep *k, const struct ms_act_entry *res)
{
	GByteArray *b = g_byte_array_new();
	GByteArray *changed = g_byte_array_new();
	size_t nr_changed = 0, nr_active = 0;

	for (size_t i = 0; i < k->s.n; i++) {
		const struct ms_act_entry *e = &k->s.run[i];

		for (size_t p = 0; p < e->nr_people; p++) {
			size_t slot = k->first_slot[i] + p;
			struct pstate st;

			pstate_of(&k->s, &e->people[p], &st);
			if (pstate_equal(&st, &k->prev[slot]))
				continue;
			k->prev[slot] = st;
			nr_changed++;
			act_put_var(changed, slot);
			put_last(changed, &st.author, false);
			put_last(changed, &st.committer, false);
			put_last(changed, &st.tags, true);
			act_put_var(changed, st.has_last);
			if (st.has_last) {
				put_svar(changed, st.last_time);
				put_svar(changed, st.last_offset);
			}
			act_put_var(changed, st.seen);
		}
	}
	act_put_var(b, nr_changed);
	g_byte_array_append(b, changed->data, changed->len);
	g_byte_array_free(changed, TRUE);
	for (size_t i = 0; i < k->s.n; i++)
		nr_active += res[i].commits > 0;
	act_put_var(b, nr_active);
	for (size_t i = 0; i < k->s.n; i++) {
		const struct ms_act_entry *e = &res[i];

		if (!e->commits)
			continue;
		act_put_var(b, i);
		act_put_var(b, e->commits);
		act_put_var(b, e->reviewed);
		for (size_t p = 0; p < e->nr_people; p++) {
			act_put_var(b, e->people[p].author.count);
			act_put_var(b, e->people[p].committer.count);
			act_put_var(b, e->people[p].tags.count);
		}
		put_counts(k, b, e->top_reviewers, e->nr_top_reviewers);
		put_counts(k, b, e->top_committers, e->nr_top_committers);
	}
	return b;
}

uint64_t act_get_var(struct act_rd *r)
{
	uint64_t v = 0;

	for (int shift = 0; r->ok; shift += 7) {
		guint8 x;

		if (r->p == r->end || shift > 63) {
			r->ok = false;
			break;
		}
		x = *r->p++;
		v |= (uint64_t)(x & 0x7f) << shift;
		if (!(x & 0x80))
			return v;
	}
	return 0;
}

static int64_t get_svar(struct act_rd *r)
{
	uint64_t v = act_get_var(r);

	return v & 1 ? -(int64_t)(v >> 1) - 1 : (int64_t)(v >> 1);
}

static const guint8 *get_bytes(struct act_rd *r, size_t n)
{
	const guint8 *at = r->p;

	if (!r->ok || (size_t)(r->end - r->p) < n) {
		r->ok = false;
		return NULL;
	}
	r->p += n;
	return at;
}

static bool hex40(const guint8 *p)
{
	for (int i = 0; i < 40; i++)
		if (!g_ascii_isxdigit(p[i]) || g_ascii_isupper(p[i]))
			return false;
	return true;
}

static void get_last(const struct keep *k, struct act_rd *r,
		     struct ms_act_last *l, bool tag)
{
	const guint8 *id;

	memset(l, 0, sizeof(*l));
	l->set = act_get_var(r) != 0;
	if (!l->set || !r->ok)
		return;
	id = get_bytes(r, 40);
	if (!id || !hex40(id)) {
		r->ok = false;
		return;
	}
	memcpy(l->id, id, 40);
	l->time = get_svar(r);
	l->offset = (int)get_svar(r);
	if (tag) {
		size_t n = (size_t)act_get_var(r);
		const guint8 *t = r->ok && n < 4096 ? get_bytes(r, n) : NULL;
		char *s;
		gpointer orig = NULL;

		if (!t) {
			r->ok = false;
			return;
		}
		/* the interned token of the model, or damage */
		s = g_strndup((const char *)t, n);
		if (!g_hash_table_lookup_extended(k->a->tokens, s, &orig,
						  NULL))
			r->ok = false;
		l->tag = orig;
		g_free(s);
	}
}

/* The root of a saved label, or MS_IDENT_NONE (r->ok false). */
static unsigned get_person(const struct keep *k, struct act_rd *r)
{
	const guint8 *l = get_bytes(r, LABEL);
	gpointer v = l ? g_hash_table_lookup(k->by_label, l) : NULL;

	if (!v) {
		r->ok = false;
		return MS_IDENT_NONE;
	}
	return GPOINTER_TO_UINT(v) - 1;
}

static void get_counts(const struct keep *k, struct act_rd *r,
		       struct ms_act_count *c, size_t *n)
{
	size_t nr = (size_t)act_get_var(r);

	if (nr > MS_ACT_TOP) {
		r->ok = false;
		return;
	}
	for (size_t i = 0; i < nr && r->ok; i++) {
		c[i].person = get_person(k, r);
		c[i].count = (size_t)act_get_var(r);
		if (r->ok) {
			c[i].name = ms_ident_name(k->a->ident, c[i].person);
			c[i].email = ms_ident_email(k->a->ident, c[i].person);
		}
	}
	if (n)
		*n = nr;
}

/* The slot -> (entry, person) of a slot number. */
static bool slot_at(const struct keep *k, size_t slot, size_t *ei,
		    size_t *pi)
{
	size_t lo = 0, hi = k->s.n;

	if (slot >= k->nr_slots)
		return false;
	/* the last entry whose first slot is at or before it */
	while (hi - lo > 1) {
		size_t mid = (lo + hi) / 2;

		if (k->first_slot[mid] <= slot)
			lo = mid;
		else
			hi = mid;
	}
	*ei = lo;
	*pi = slot - k->first_slot[lo];
	return *pi < k->s.run[lo].nr_people;
}

/*
 * The changes of the running facts of a body at `r`: with `apply`, made
 * to the running facts (only once the body is known whole); with `prev`,
 * made to those (encode()'s k->prev) instead.
 */
static void read_changes(struct keep *k, struct act_rd *r, bool apply,
			 struct pstate *prev)
{
	size_t nr = (size_t)act_get_var(r), last = SIZE_MAX;

	for (size_t i = 0; i < nr && r->ok; i++) {
		size_t slot = (size_t)act_get_var(r), ei = 0, pi = 0;
		struct pstate st = { 0 };
		struct ms_act_person *pp;

		/* each slot once, in order */
		if (!r->ok || (last != SIZE_MAX && slot <= last) ||
		    !slot_at(k, slot, &ei, &pi)) {
			r->ok = false;
			return;
		}
		last = slot;
		get_last(k, r, &st.author, false);
		get_last(k, r, &st.committer, false);
		get_last(k, r, &st.tags, true);
		st.has_last = act_get_var(r) != 0;
		if (st.has_last) {
			st.last_time = get_svar(r);
			st.last_offset = (int)get_svar(r);
		}
		st.seen = act_get_var(r) != 0;
		if (r->ok && prev)
			prev[slot] = st;
		if (!r->ok || !apply)
			continue;
		pp = &k->s.run[ei].people[pi];
		pp->author = st.author;
		pp->committer = st.committer;
		pp->tags = st.tags;
		pp->has_last = st.has_last;
		pp->last_time = st.last_time;
		pp->last_offset = st.last_offset;
		if (st.seen && pp->person != MS_IDENT_NONE)
			k->s.seen[pp->person] = true;
	}
}

/* The counts of a body at `r` (after its changes) into the window's
 * entries `e`; with `e` NULL only read. */
static void read_counts(const struct keep *k, struct act_rd *r,
			struct ms_act_entry *e)
{
	size_t nr = (size_t)act_get_var(r), last = SIZE_MAX;

	for (size_t i = 0; i < nr && r->ok; i++) {
		size_t at = (size_t)act_get_var(r);
		struct ms_act_entry tmp = { 0 }, *x = &tmp;

		if (!r->ok || at >= k->s.n ||
		    (last != SIZE_MAX && at <= last)) {
			r->ok = false;
			return;
		}
		last = at;
		if (e)
			x = &e[at];
		x->commits = (size_t)act_get_var(r);
		x->reviewed = (size_t)act_get_var(r);
		for (size_t pi = 0; pi < k->s.run[at].nr_people; pi++) {
			size_t au = (size_t)act_get_var(r);
			size_t co = (size_t)act_get_var(r);
			size_t tg = (size_t)act_get_var(r);

			if (e) {
				x->people[pi].author.count = au;
				x->people[pi].committer.count = co;
				x->people[pi].tags.count = tg;
			}
		}
		get_counts(k, r, x->top_reviewers, &x->nr_top_reviewers);
		get_counts(k, r, x->top_committers, &x->nr_top_committers);
		if (r->ok && (!x->commits || x->reviewed > x->commits))
			r->ok = false;
	}
}

/* ---- reading and saving ---- */

/* A saved window, checked whole. */
struct saved_win {
	const guint8 *head;       /* its records digest, key and check */
	uint32_t count;           /* the records up to its end */
	const guint8 *body;
	size_t len;
};

static uint32_t get_u32(const guint8 *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
		(uint32_t)p[3] << 24;
}

/* The check of a window: SHA-256 of its two digests, the records of the
 * row `ident`, its records count (4 bytes) and its body. */
static void window_check(const guint8 *head, const guint8 *ident,
			 const guint8 *count, const guint8 *body, size_t len,
			 guint8 out[DIGEST])
{
	GChecksum *ck = g_checksum_new(G_CHECKSUM_SHA256);
	gsize dl = DIGEST;

	add_bytes(ck, head, 2 * DIGEST);
	add_bytes(ck, ident, DIGEST);
	add_bytes(ck, count, 4);
	add_bytes(ck, body, len);
	g_checksum_get_digest(ck, out, &dl);
	g_checksum_free(ck);
}

/* Whether a body reads whole: its changes, its counts, nothing after. */
static bool body_whole(struct keep *k, const guint8 *p, size_t len)
{
	struct act_rd r = { p, p + len, true };

	read_changes(k, &r, false, NULL);
	read_counts(k, &r, NULL);
	return r.ok && r.p == r.end;
}

/* The saved windows of `saved` that hold, from the first, into `wins`;
 * whether the row was saved from the same records (k->ident). */
static bool saved_windows(struct keep *k, GBytes *saved, GArray *wins)
{
	gsize n = 0;
	const guint8 *p = saved ? g_bytes_get_data(saved, &n) : NULL;
	size_t at = ROW_HEAD, nr;

	if (!p || n < ROW_HEAD || memcmp(p, SERIES_MAGIC, 4))
		return false;
	nr = get_u32(p + 4);
	for (size_t w = 0; w < nr; w++) {
		struct saved_win sw;
		guint8 check[DIGEST];

		if (n - at < WIN_HEAD)
			break;
		sw.head = p + at;
		sw.count = get_u32(p + at + 3 * DIGEST);
		sw.len = get_u32(p + at + 3 * DIGEST + 4);
		sw.body = p + at + WIN_HEAD;
		if (n - at - WIN_HEAD < sw.len)
			break;
		window_check(sw.head, p + 8, p + at + 3 * DIGEST, sw.body,
			     sw.len, check);
		if (memcmp(check, sw.head + 2 * DIGEST, DIGEST) ||
		    !body_whole(k, sw.body, sw.len))
			break;
		g_array_append_val(wins, sw);
		at += WIN_HEAD + sw.len;
	}
	return wins->len && !memcmp(p + 8, k->ident.b, DIGEST);
}

/*
 * The records digests of the windows from the saved ones, when the row
 * was saved from the same records: each window's is that of the saved
 * window that had read as many records.  False when some window has no
 * such saved window (then they are computed from the records).
 */
static bool recs_from_saved(struct keep *k, const GArray *wins)
{
	const struct saved_win *sw = (const struct saved_win *)wins->data;
	size_t j = 0;

	for (size_t w = 0; w < k->s.nq; w++) {
		while (j < wins->len && sw[j].count < k->count[w])
			j++;
		if (j == wins->len || sw[j].count != k->count[w])
			return false;
		memcpy(k->rec[w].b, sw[j].head, DIGEST);
	}
	return true;
}

/*
 * Window k from the saved windows `wins`, the running facts being those
 * at the end of saved window *next - 1: the first saved window from
 * *next with window k's records digest (one with its key too, among
 * those of the same records), its changes and those before it applied.
 * Its counts as saved when the key matches (*served set), else counted.
 * NULL when no saved window has its records.
 */
static struct ms_act_entry *from_saved(struct keep *k, size_t w,
				       const GArray *wins, size_t *next,
				       bool *served)
{
	const struct saved_win *sw = (const struct saved_win *)wins->data;
	size_t j = *next, pick;
	struct ms_act_entry *res;
	struct act_rd r;

	while (j < wins->len && memcmp(sw[j].head, k->rec[w].b, DIGEST))
		j++;
	if (j == wins->len)
		return NULL;
	/* an interval without records has the digest of the one before */
	for (pick = j; pick < wins->len &&
	     !memcmp(sw[pick].head, k->rec[w].b, DIGEST); pick++)
		if (!memcmp(sw[pick].head + DIGEST, k->win[w].b, DIGEST))
			break;
	if (pick == wins->len || memcmp(sw[pick].head, k->rec[w].b, DIGEST))
		pick = j;
	for (size_t i = *next; i <= pick; i++) {
		r = (struct act_rd){ sw[i].body, sw[i].body + sw[i].len, true };
		read_changes(k, &r, true, NULL);
	}
	*next = pick + 1;
	k->s.ci = k->ci_end[w];
	*served = !memcmp(sw[pick].head + DIGEST, k->win[w].b, DIGEST);
	if (!*served)
		return act_series_count(&k->s, w);
	res = act_series_copy(&k->s);
	r = (struct act_rd){ sw[pick].body, sw[pick].body + sw[pick].len, true };
	read_changes(k, &r, false, NULL);
	read_counts(k, &r, res);
	act_series_finish(&k->s, w, res);
	return res;
}

/* The head of window w with body `body` (`len` bytes), into `head`. */
static void window_head(const struct keep *k, size_t w, const guint8 *body,
			size_t len, struct whead *head)
{
	memcpy(head->b, k->rec[w].b, DIGEST);
	memcpy(head->b + DIGEST, k->win[w].b, DIGEST);
	for (int i = 0; i < 4; i++) {
		head->b[3 * DIGEST + i] = (guint8)(k->count[w] >> (8 * i));
		head->b[3 * DIGEST + 4 + i] = (guint8)(len >> (8 * i));
	}
	window_check(head->b, k->ident.b, head->b + 3 * DIGEST, body, len,
		     head->b + 2 * DIGEST);
}

/* Save the windows: bodies->pdata[w] is window w's body, or NULL when it
 * is saved window w's (`wins`) as it is. */
static int save(struct keep *k, struct ms_store *store, const char *kind,
		GPtrArray *bodies, const GArray *wins)
{
	const struct saved_win *sw = (const struct saved_win *)wins->data;
	size_t nq = k->s.nq, np = 0;
	struct ms_store_piece *pieces = g_new(struct ms_store_piece,
					      1 + 2 * nq);
	struct whead *heads = g_new(struct whead, nq ? nq : 1);
	guint8 top[ROW_HEAD];
	int rc;

	memcpy(top, SERIES_MAGIC, 4);
	for (int i = 0; i < 4; i++)
		top[4 + i] = (guint8)(nq >> (8 * i));
	memcpy(top + 8, k->ident.b, DIGEST);
	pieces[np++] = (struct ms_store_piece){ top, ROW_HEAD };
	for (size_t w = 0; w < nq; w++) {
		const GByteArray *b = bodies->pdata[w];
		const guint8 *body = b ? b->data : sw[w].body;
		size_t len = b ? b->len : sw[w].len;

		window_head(k, w, body, len, &heads[w]);
		pieces[np++] = (struct ms_store_piece){ heads[w].b, WIN_HEAD };
		pieces[np++] = (struct ms_store_piece){ body, len };
	}
	rc = ms_store_model_putv(store, kind, k->key, pieces, np);
	g_free(heads);
	g_free(pieces);
	return rc;
}

/*
 * Window w's body (encode()) onto `bodies`.  The windows before it that
 * were taken as saved (a NULL body) were not encoded: their changes,
 * read from the saved windows, bring k->prev to where encode() would
 * have left it.
 */
static void add_body(struct keep *k, const GArray *wins, GPtrArray *bodies,
		     size_t w, const struct ms_act_entry *res)
{
	const struct saved_win *sw = (const struct saved_win *)wins->data;

	for (; k->prev_at < w; k->prev_at++) {
		const struct saved_win *x = &sw[k->prev_at];
		struct act_rd r = { x->body, x->body + x->len, true };

		read_changes(k, &r, false, k->prev);
	}
	g_ptr_array_add(bodies, encode(k, res));
	k->prev_at = w + 1;
}

static void keep_release(struct keep *k)
{
	act_series_release(&k->s);
	g_free(k->label);
	if (k->by_label)
		g_hash_table_destroy(k->by_label);
	g_free(k->rec);
	g_free(k->win);
	g_free(k->ci_end);
	g_free(k->count);
	g_free(k->first_slot);
	g_free(k->prev);
}

/* A body of `bodies`: NULL for a window taken whole from the row. */
static void free_bytes(gpointer p)
{
	if (p)
		g_byte_array_free(p, TRUE);
}

/* The keys, labels and slots of `k` for the windows `qs`; false when
 * nothing can be kept (two groups print alike). */
static bool keep_init(struct keep *k, const struct ms_activity *a,
		      const struct ms_activity_query *qs, size_t nq,
		      const char *build)
{
	k->a = a;
	act_series_init(&k->s, a, qs, nq);
	if (!make_labels(k))
		return false;
	k->first_slot = g_new(size_t, k->s.n + 1);
	for (size_t i = 0; i < k->s.n; i++) {
		k->first_slot[i] = k->nr_slots;
		k->nr_slots += k->s.run[i].nr_people;
	}
	k->first_slot[k->s.n] = k->nr_slots;
	k->prev = g_new0(struct pstate, k->nr_slots ? k->nr_slots : 1);
	key_of(k, build);
	make_ends(k);
	records_id(k);
	k->rec = g_new(struct digest, nq ? nq : 1);
	k->win = g_new(struct digest, nq ? nq : 1);
	return true;
}

int ms_activity_query_series_kept(const struct ms_activity *a,
				  const struct ms_activity_query *qs,
				  size_t nq, struct ms_act_keep *keep,
				  struct ms_diags *diags,
				  struct ms_act_entry **out, size_t *nr)
{
	struct keep k = { 0 };
	GBytes *saved = NULL;
	GArray *wins;
	GPtrArray *bodies;
	size_t next = 0, w;
	bool same = true, same_records;

	keep->served = 0;
	keep->computed = nq;
	keep->digests_saved = false;
	if (!keep->store || !nq || !act_series_fits(a, qs, nq))
		return ms_activity_query_series(a, qs, nq, out, nr);
	if (!keep_init(&k, a, qs, nq, keep->build)) {
		keep_release(&k);
		return ms_activity_query_series(a, qs, nq, out, nr);
	}
	if (ms_store_model_get(keep->store, keep->kind, k.key, &saved) < 0) {
		ms_diags_add(diags, NULL, 0, "the saved time series was not "
			     "read from the store: %s", ms_error_last());
		ms_error_clear();
		saved = NULL;
	}
	wins = g_array_new(FALSE, FALSE, sizeof(struct saved_win));
	/* the records digests: those saved, when the row was saved from
	 * the same records (SHA-256 of 20 MB of U-Boot's records, 50 ms,
	 * for a run with nothing new), else from the records */
	same_records = saved_windows(&k, saved, wins);
	keep->digests_saved = same_records && recs_from_saved(&k, wins);
	if (!keep->digests_saved)
		make_recs(&k);
	make_wins(&k);
	bodies = g_ptr_array_new_with_free_func(free_bytes);
	keep->computed = 0;
	for (w = 0; w < nq; w++) {
		bool served = false;

		out[w] = from_saved(&k, w, wins, &next, &served);
		if (!out[w])
			break;
		keep->served += served;
		keep->computed += !served;
		/* the row is kept as it is only when it is this run's */
		same = same && served && next == w + 1;
		if (same) {
			/* its body is the saved one's: encode() would write
			 * the same bytes */
			g_ptr_array_add(bodies, NULL);
			continue;
		}
		add_body(&k, wins, bodies, w, out[w]);
	}
	for (; w < nq; w++) {
		out[w] = act_series_window(&k.s, w);
		keep->computed++;
		same = false;
		add_body(&k, wins, bodies, w, out[w]);
	}
	if ((!same || wins->len != nq || !same_records) &&
	    save(&k, keep->store, keep->kind, bodies, wins) < 0) {
		ms_diags_add(diags, NULL, 0, "the time series was not kept "
			     "in the store: %s", ms_error_last());
		ms_error_clear();
	}
	g_ptr_array_unref(bodies);
	g_array_free(wins, TRUE);
	if (saved)
		g_bytes_unref(saved);
	*nr = k.s.n;
	keep_release(&k);
	return 0;
}
