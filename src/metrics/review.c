/*
 * review.c - list responsiveness per MAINTAINERS entry (review.h).
 */
#include "review-internal.h"
#include "bytes.h"
#include "verdict.h"
#include "ident.h"
#include "maintainers.h"
#include "person.h"
#include "tree.h"
#include "uf.h"

#include <stdlib.h>
#include <string.h>

/* ---- computing ---- */

struct ctx {
	const struct ms_link_mail *lm;
	const struct ms_mail_index *idx;
	const struct ms_review_map *map;
	const struct maint_file *mf;
	const GPtrArray *commits;
	const struct ms_link_result *links;
	const struct ms_review_opts *opts;
	GHashTable *rec_of;          /* rec pointer -> number */
	GHashTable *children;        /* number -> GArray of uint32_t */
	GHashTable *last_msg;        /* canonical -> int64_t * newest date */
	GHashTable *senders;         /* canonical addresses that ever sent a
					message */
	GHashTable *reviewers;       /* ... that gave a Reviewed-by or
					Acked-by on the list */
	GHashTable *via_lists;       /* lowercase addresses of lists that
					rewrote a sender (rec->via_list) */
	GArray *commit_entries;      /* per commit: GArray * of entries */
	struct ms_ident *ident;      /* who is who */
	GHashTable *strings;         /* interned canonical addresses */
	const char **sender;         /* per record: canonical sender, or */
	unsigned *sender_id;         /* NULL, and its person (canon()) */
	uint32_t *version_of;        /* per record: ms_review_versions() */
	uint8_t *aside;              /* per record: enum aside */
	/* per entry index: its postings in the window (window_posting()),
	 * and the commits touching it, in ascending order (GArray of
	 * uint32_t, or NULL), so that each entry visits only its own */
	GPtrArray *entry_posts, *entry_commits;
	/* responses() by a patch's postings (GBytes of their uint32_t
	 * records -> GPtrArray of its events and responses, GArrays): a
	 * patch mapped to several entries (THE REST and a driver's)
	 * answers the same in each */
	GHashTable *responses;
};

static const struct ms_mail_rec *rec_at(const struct ctx *c, uint32_t i)
{
	return ms_mail_index_get(c->idx, i);
}

/* `s` interned in the report's strings. */
static const char *intern(const struct ctx *c, const char *s)
{
	char *k = g_hash_table_lookup(c->strings, s);

	if (!k) {
		k = g_strdup(s);
		g_hash_table_add(c->strings, k);
	}
	return k;
}

/*
 * The canonical address of a person, through the resolver (.mailmap,
 * aliases, case, plus-folding), interned so that one person is one
 * pointer; NULL when they have none.  Their id goes to *id when given.
 */
static const char *canon(const struct ctx *c, const char *name,
			 const char *email, unsigned *id)
{
	unsigned p = ms_ident_resolve(c->ident, name, email);
	const char *e;

	if (id)
		*id = p;
	if (p == MS_IDENT_NONE || !email || !*email)
		return NULL;
	e = ms_ident_email(c->ident, p);
	if (!*e)
		return NULL;
	/* a list's address under a name the model gave to no one: that
	 * name via the list (acc_via_list()), never the list itself */
	if (name && *name && ms_ident_shared(c->ident, p) &&
	    g_hash_table_contains(c->via_lists, e)) {
		char *k = g_strdup_printf("%s\n%s", name, e);
		const char *key = intern(c, k);

		g_free(k);
		return key;
	}
	return intern(c, e);
}


/* Whether record `ri` is a reply of a human other than the author of
 * posting `author`. */
static bool is_human_reply(const struct ctx *c, uint32_t ri,
			   uint32_t author)
{
	const struct ms_mail_rec *r = rec_at(c, ri);

	if (r->duplicate || r->kind == MS_MAIL_BOT || !r->date_valid)
		return false;
	if (c->sender[ri] && c->sender[ri] == c->sender[author])
		return false;
	return r->kind == MS_MAIL_REPLY || r->kind == MS_MAIL_REVIEW ||
	       r->kind == MS_MAIL_NACK || r->kind == MS_MAIL_OTHER ||
	       r->kind == MS_MAIL_PATCH;
}

static bool gives_tag(const struct ctx *c, const struct ms_mail_rec *r)
{
	const struct ms_mail_tag *t = ms_mail_index_tags(c->idx, r);

	for (uint32_t i = 0; i < r->n_review_tags; i++)
		if (t[i].kind == MS_TRAILER_REVIEWED_BY ||
		    t[i].kind == MS_TRAILER_ACKED_BY)
			return true;
	return false;
}

static void ctx_init(struct ctx *c)
{
	size_t n = ms_mail_index_count(c->idx);

	c->rec_of = g_hash_table_new(NULL, NULL);
	c->children = g_hash_table_new_full(NULL, NULL, NULL,
					     (GDestroyNotify)g_array_unref);
	c->last_msg = g_hash_table_new_full(ms_str_hash, g_str_equal, NULL,
					    g_free);
	c->senders = g_hash_table_new(ms_str_hash, g_str_equal);
	c->reviewers = g_hash_table_new(ms_str_hash, g_str_equal);
	/* only an address a list rewrote senders onto is a list's: an
	 * address merely seen with three names (ident.h) is a person's */
	c->via_lists = g_hash_table_new_full(g_str_hash, g_str_equal, g_free,
					     NULL);
	for (size_t i = 0; i < n; i++) {
		const struct ms_mail_rec *r = rec_at(c, i);

		if (r->via_list && r->sender_email)
			g_hash_table_add(c->via_lists,
					 g_ascii_strdown(r->sender_email, -1));
	}
	c->sender = g_new0(const char *, n ? n : 1);
	c->sender_id = g_new0(unsigned, n ? n : 1);
	for (size_t i = 0; i < n; i++) {
		const struct ms_mail_rec *r = rec_at(c, i);

		g_hash_table_insert(c->rec_of, (gpointer)r,
				    GUINT_TO_POINTER(i));
		if (r->sender_email)
			c->sender[i] = canon(c, r->sender_name,
					     r->sender_email, &c->sender_id[i]);
	}
	for (size_t i = 0; i < n; i++) {
		const struct ms_mail_rec *r = rec_at(c, i);
		const struct ms_mail_rec *p;
		uint32_t v = (uint32_t)i;
		gpointer key;
		GArray *a;

		if (c->sender[i]) {
			int64_t *last = g_hash_table_lookup(c->last_msg,
							    c->sender[i]);

			g_hash_table_add(c->senders, (gpointer)c->sender[i]);
			if (gives_tag(c, r))
				g_hash_table_add(c->reviewers,
						 (gpointer)c->sender[i]);
			if (r->date_valid && r->date <= c->opts->until &&
			    (!last || *last < r->date)) {
				if (!last) {
					last = g_new(int64_t, 1);
					g_hash_table_insert(c->last_msg,
						(gpointer)c->sender[i],
						last);
				}
				*last = r->date;
			}
		}
		if (r->duplicate || !r->parent_id)
			continue;
		p = ms_mail_index_find(c->idx, r->parent_id);
		if (!p || p == r)
			continue;
		key = g_hash_table_lookup(c->rec_of, p);
		a = g_hash_table_lookup(c->children, key);
		if (!a) {
			a = g_array_new(FALSE, FALSE, sizeof(uint32_t));
			g_hash_table_insert(c->children, key, a);
		}
		g_array_append_val(a, v);
	}
	c->responses = g_hash_table_new_full(g_bytes_hash, g_bytes_equal,
					     (GDestroyNotify)g_bytes_unref,
					     (GDestroyNotify)g_ptr_array_unref);
	c->version_of = ms_review_versions(c->lm, c->map,
					   (const char *const *)c->sender,
					   c->links ? c->links->by_rec : NULL);
}

static void ctx_release(struct ctx *c)
{
	g_hash_table_unref(c->rec_of);
	g_hash_table_unref(c->children);
	g_hash_table_unref(c->last_msg);
	g_hash_table_unref(c->senders);
	g_hash_table_unref(c->reviewers);
	g_hash_table_unref(c->via_lists);
	g_free(c->sender);
	g_free(c->sender_id);
	g_free(c->version_of);
	g_free(c->aside);
	g_clear_pointer(&c->entry_posts, g_ptr_array_unref);
	g_clear_pointer(&c->entry_commits, g_ptr_array_unref);
	g_hash_table_unref(c->responses);
}

/*
 * Every reply below record `root` (not `root` itself), in `out`.  Other
 * patch postings below it (a series' patches below its cover letter, a
 * new version sent in reply to the old) and their replies belong to
 * those patches and are left out.
 */
static void descendants(const struct ctx *c, uint32_t root, GArray *out)
{
	guint q = out->len;   /* what `out` gets is the queue */
	uint32_t node = root;

	for (;;) {
		GArray *kids = g_hash_table_lookup(c->children,
						   GUINT_TO_POINTER(node));

		for (guint k = 0; kids && k < kids->len; k++) {
			uint32_t kid = g_array_index(kids, uint32_t, k);

			/* a record has one parent: only a loop of
			 * In-Reply-To back to `root` meets one again */
			if (kid == root ||
			    rec_at(c, kid)->kind == MS_MAIL_PATCH ||
			    rec_at(c, kid)->kind == MS_MAIL_COVER)
				continue;
			g_array_append_val(out, kid);
		}
		if (q == out->len)
			break;
		node = g_array_index(out, uint32_t, q++);
	}
}

struct person_acc {
	struct ms_rv_person p;
	const char *key;             /* canonical address, interned */
	GArray *latencies;           /* int64_t */
	GHashTable *msgs;            /* responses they sent (records) */
	GHashTable *threads;         /* (the sets made by ms_rv_set_add()) */
};

/* The accumulator of the person known by `key` (their canonical address,
 * interned), created with `email` and `name` for display. */
static struct person_acc *acc_get(GHashTable *h, GPtrArray *order,
				  const char *key, const char *email,
				  const char *name, char role)
{
	struct person_acc *a = g_hash_table_lookup(h, key);

	if (a)
		return a;
	a = g_new0(struct person_acc, 1);
	a->p.email = email;
	a->key = key;
	a->p.person = MS_IDENT_NONE;
	a->p.name = name;
	a->p.role = role;
	a->latencies = g_array_new(FALSE, FALSE, sizeof(int64_t));
	g_hash_table_insert(h, (gpointer)key, a);
	g_ptr_array_add(order, a);
	return a;
}

/*
 * A message from a list's address (`list`, canonical) under a sender's
 * `name` that the identity model could give to no one (no one or
 * several people have it: docs/identities.md): an unattributed via-list
 * reply, one accumulator per name, never the list as a person.
 */
static struct person_acc *acc_via_list(const struct ctx *c, GHashTable *h,
				       GPtrArray *order, const char *name,
				       const char *key, const char *list)
{
	struct person_acc *a = g_hash_table_lookup(h, key);

	if (a)
		return a;
	a = acc_get(h, order, key, intern(c, list), intern(c, name), 0);
	a->p.via_list = true;
	return a;
}

/* The accumulator of unlisted `name` <`email`>, canon() `key` and `id`. */
static struct person_acc *acc_known(const struct ctx *c, GHashTable *h,
				    GPtrArray *order, const char *name,
				    const char *email, const char *key,
				    unsigned id)
{
	struct person_acc *a;

	if (!key)
		key = intern(c, email ? email : "");
	if (id != MS_IDENT_NONE && name && *name && email && *email &&
	    ms_ident_shared(c->ident, id) &&
	    g_hash_table_contains(c->via_lists, ms_ident_email(c->ident, id)))
		return acc_via_list(c, h, order, name, key,
				    ms_ident_email(c->ident, id));
	a = g_hash_table_lookup(h, key);
	if (a)
		return a;
	a = acc_get(h, order, key, key, intern(c, id != MS_IDENT_NONE &&
			*ms_ident_name(c->ident, id) ?
			ms_ident_name(c->ident, id) : name ? name : ""), 0);
	a->p.person = id;
	return a;
}

static const char *email_domain(const char *e)
{
	const char *at = e ? strrchr(e, '@') : NULL;

	return at ? at + 1 : NULL;
}

static struct ms_rv_person *person_out(struct person_acc *a, size_t patches)
{
	struct ms_rv_person *p = g_new(struct ms_rv_person, 1);
	int64_t med, p90;

	*p = a->p;
	p->threads = ms_rv_set_size(a->threads);
	p->messages = ms_rv_set_size(a->msgs);
	p->has_latency = ms_rv_quantiles(a->latencies, &med, &p90);
	p->median_latency = med;
	/* over the patches they did not write: nobody answers their own */
	p->responsiveness = patches > p->own_patches ?
		(double)p->within_target / (double)(patches - p->own_patches) :
		-1;
	/* netdev's reviewer score */
	p->netdev_score = 2 * (int64_t)p->replied + 8 * (int64_t)p->threads +
			  2 * (p->messages ? (int64_t)p->messages - 1 : 0) -
			  4 * (int64_t)p->authored;
	return p;
}

static void acc_free(gpointer data)
{
	struct person_acc *a = data;

	g_array_free(a->latencies, TRUE);
	g_clear_pointer(&a->threads, g_hash_table_unref);
	g_clear_pointer(&a->msgs, g_hash_table_unref);
	g_free(a);
}

/* Whether two name/address pairs resolve to one person with an address. */
static bool same_person(const struct ctx *c, const char *n1, const char *e1,
			const char *n2, const char *e2)
{
	const char *a = canon(c, n1, e1, NULL);

	return a && a == canon(c, n2, e2, NULL);
}

struct tag_seen {
	const struct ctx *c;
	GArray *out;                 /* struct ms_rv_tag */
	uint32_t commit;
	const struct ms_mail_rec *author;
};

static void on_review_tag(const struct ms_mail_rec *from,
			  const struct ms_mail_tag *tag, void *data)
{
	struct tag_seen *ts = data;
	struct ms_rv_tag t;

	if (tag->kind != MS_TRAILER_REVIEWED_BY &&
	    tag->kind != MS_TRAILER_ACKED_BY &&
	    tag->kind != MS_TRAILER_TESTED_BY)
		return;
	t.commit = ts->commit;
	t.kind = tag->kind;
	t.name = tag->name;
	t.email = tag->email;
	t.rec = GPOINTER_TO_UINT(g_hash_table_lookup(ts->c->rec_of, from));
	for (guint i = 0; i < ts->out->len; i++) {
		const struct ms_rv_tag *o = &g_array_index(ts->out,
							   struct ms_rv_tag,
							   i);
		if (o->kind == t.kind &&
		    same_person(ts->c, o->name, o->email, t.name, t.email))
			return;
	}
	g_array_append_val(ts->out, t);
}

/* The tag ledger of one merged patch. */
static void ledger(const struct ctx *c, struct ms_rv_entry *out,
		   const struct ms_rv_patch *pt)
{
	const struct ms_link_commit *lc = c->commits->pdata[pt->commit];
	struct tag_seen ts = { c, NULL, pt->commit, NULL };

	ts.out = g_array_new(FALSE, FALSE, sizeof(struct ms_rv_tag));
	for (guint i = 0; i < pt->postings->len; i++)
		ms_mail_index_patch_reviews(c->idx,
			g_array_index(pt->postings, uint32_t, i),
			on_review_tag, &ts);
	for (guint i = 0; i < ts.out->len; i++) {
		const struct ms_rv_tag *t = &g_array_index(ts.out,
							   struct ms_rv_tag,
							   i);
		bool found = false;

		for (size_t k = 0; k < lc->nr_tags && !found; k++) {
			const struct ms_link_tag *ct = &lc->tags[k];

			found = ct->kind == t->kind &&
				same_person(c, ct->name, ct->email, t->name,
					    t->email);
		}
		if (!found)
			g_array_append_val(out->tags_dropped, *t);
	}
	for (size_t k = 0; k < lc->nr_tags; k++) {
		const struct ms_link_tag *ct = &lc->tags[k];
		bool found = false;
		struct ms_rv_tag t;

		for (guint i = 0; i < ts.out->len && !found; i++) {
			const struct ms_rv_tag *lt = &g_array_index(
				ts.out, struct ms_rv_tag, i);

			found = same_person(c, ct->name, ct->email, lt->name,
					    lt->email);
		}
		if (found)
			continue;
		t.commit = pt->commit;
		t.kind = ct->kind;
		t.name = ct->name;
		t.email = ct->email;
		t.rec = UINT32_MAX;
		g_array_append_val(out->tags_untraced, t);
	}
	g_array_free(ts.out, TRUE);
}

static int cmp_acc_replies(gconstpointer a, gconstpointer b)
{
	const struct ms_rv_person *x = *(struct ms_rv_person *const *)a;
	const struct ms_rv_person *y = *(struct ms_rv_person *const *)b;

	if (x->replied != y->replied)
		return x->replied > y->replied ? -1 : 1;
	return strcmp(x->email, y->email);
}

static void set_reply(struct ms_rv_reply *slot, bool *has,
		      const struct ms_rv_reply *r, const struct ctx *c)
{
	if (*has && rec_at(c, slot->rec)->date <= rec_at(c, r->rec)->date)
		return;
	*slot = *r;
	*has = true;
}

/* The key grouping the postings of one patch (ms_review_versions()),
 * for a table of direct keys. */
static gpointer family_key(const struct ctx *c, size_t i)
{
	return GUINT_TO_POINTER(c->version_of[i]);
}

/* Whether record `i` is a patch posting of the window (of the entries
 * ms_review_map_entries() gives it). */
static bool window_posting(const struct ctx *c, size_t i)
{
	const struct ms_mail_rec *r = rec_at(c, i);

	return !r->duplicate && r->kind == MS_MAIL_PATCH && r->date_valid &&
	       r->date >= c->opts->since && r->date <= c->opts->until;
}

static void garray_free0(gpointer p)
{
	if (p)
		g_array_free(p, TRUE);
}

/* Append `v` to the list of entry `e` in `per_entry`. */
static void entry_list_add(GPtrArray *per_entry, size_t e, uint32_t v)
{
	GArray *a;

	if (e >= per_entry->len)
		return;
	a = per_entry->pdata[e];
	if (!a) {
		a = g_array_new(FALSE, FALSE, sizeof(uint32_t));
		per_entry->pdata[e] = a;
	}
	g_array_append_val(a, v);
}

/*
 * The index from entry to its window postings and to its commits
 * (c->entry_posts, c->entry_commits), built in one pass over the records
 * and one over the commits: an entry's figures then cost its own
 * postings, not every message of the archive once per entry.
 */
static void entry_lists(struct ctx *c)
{
	size_t n = ms_mail_index_count(c->idx);
	size_t ne = maint_file_nr_entries(c->mf);

	c->entry_posts = g_ptr_array_new_full((guint)ne, garray_free0);
	c->entry_commits = g_ptr_array_new_full((guint)ne, garray_free0);
	g_ptr_array_set_size(c->entry_posts, (gint)ne);
	g_ptr_array_set_size(c->entry_commits, (gint)ne);
	for (size_t i = 0; i < n; i++) {
		const GArray *es = ms_review_map_entries(c->map, i);

		if (!es || !window_posting(c, i))
			continue;
		for (guint k = 0; k < es->len; k++)
			entry_list_add(c->entry_posts,
				       g_array_index(es, size_t, k),
				       (uint32_t)i);
	}
	for (guint ci = 0; ci < c->commit_entries->len; ci++) {
		const GArray *es = g_array_index(c->commit_entries,
						 GArray *, ci);

		for (guint k = 0; es && k < es->len; k++)
			entry_list_add(c->entry_commits,
				       g_array_index(es, size_t, k), ci);
	}
}

/* The list of entry `e` in `per_entry` (GArray of uint32_t), or NULL. */
static const GArray *entry_list(const GPtrArray *per_entry, size_t e)
{
	return e < per_entry->len ? per_entry->pdata[e] : NULL;
}

/* One interval of a series: the patches first posted in [lo, hi) (by
 * `posted`, family key -> int64_t * of the whole window) and the commits
 * dated in it. */
struct part {
	int64_t lo, hi;
	GHashTable *posted;
	bool first, last;    /* the series' first or last interval */
};

/*
 * Whether a commit of the window with commit date `t` falls in `part`.
 * The window's commits are chosen already (by date, or as REV.. with
 * --since REV, whose commits may be dated before REV or after the last
 * bound): the first interval takes those dated before it, the last those
 * after it, so that the intervals' commits add up to the window's.
 */
static bool part_has_commit(const struct part *part, int64_t t)
{
	return (part->first || t >= part->lo) && (part->last || t < part->hi);
}

/* The first posting date of each of entry `e`'s patches in the window,
 * as compute_entry() groups them. */
static GHashTable *family_dates(const struct ctx *c, size_t e)
{
	GHashTable *h = g_hash_table_new_full(NULL, NULL, NULL, g_free);
	const GArray *posts = entry_list(c->entry_posts, e);

	for (guint q = 0; posts && q < posts->len; q++) {
		uint32_t i = g_array_index(posts, uint32_t, q);
		int64_t *d;

		if ((c->aside[i] && c->aside[i] != ASIDE_OWN_BLOBS) ||
		    g_hash_table_contains(h, family_key(c, i)))
			continue;
		d = g_new(int64_t, 1);
		*d = rec_at(c, i)->date;
		g_hash_table_insert(h, family_key(c, i), d);
	}
	return h;
}

/*
 * What compute_entry() gathers for one entry while it goes: its people
 * by canonical address, and the samples its medians are taken of.
 */
struct entry_acc {
	const struct ctx *c;
	const struct maint_entry *e;
	const struct part *part;     /* the interval, or NULL: the window */
	struct ms_rv_entry *out;
	GHashTable *accs;            /* canonical address (interned: by its
					pointer) -> person_acc */
	GPtrArray *order;            /* person_acc, in the order met */
	GArray *ttfr, *ttmr, *tttag, *merge;   /* int64_t latencies */
	size_t first_replied_total;  /* patches with a first response */
};

/* The accumulator of an unlisted person met as `name` <`email`> in the
 * entry's patches. */
static struct person_acc *ea_person(struct entry_acc *ea, const char *name,
				    const char *email)
{
	unsigned id;
	const char *key = canon(ea->c, name, email, &id);

	return acc_known(ea->c, ea->accs, ea->order, name, email, key, id);
}

/* ea_person() of record `rec`'s sender, resolved once (ctx_init()). */
static struct person_acc *ea_sender(struct entry_acc *ea, uint32_t rec)
{
	const struct ctx *c = ea->c;
	const struct ms_mail_rec *r = rec_at(c, rec);

	return !r->sender_email ? ea_person(ea, r->sender_name, NULL) :
	       acc_known(c, ea->accs, ea->order, r->sender_name,
			 r->sender_email, c->sender[rec], c->sender_id[rec]);
}

/* An empty result for entry `e`. */
static struct ms_rv_entry *entry_new(const struct maint_entry *e)
{
	struct ms_rv_entry *out = g_new0(struct ms_rv_entry, 1);

	out->entry = e;
	out->patches = g_array_new(FALSE, TRUE, sizeof(struct ms_rv_patch));
	out->listed = g_ptr_array_new_with_free_func(g_free);
	out->others = g_ptr_array_new_with_free_func(g_free);
	out->tags_dropped = g_array_new(FALSE, FALSE, sizeof(struct ms_rv_tag));
	out->tags_untraced = g_array_new(FALSE, FALSE,
					 sizeof(struct ms_rv_tag));
	out->aliases = g_ptr_array_new();
	out->defacto = g_ptr_array_new();
	/* names and emails stay alive with the report */
	out->strings = g_ptr_array_new();
	return out;
}

/* The listed people: the entry's M: and R: people with an address, in
 * field order, once each. */
static void listed_people(struct entry_acc *ea)
{
	const struct maint_entry *e = ea->e;

	for (size_t f = 0; f < e->nr_fields; f++) {
		char *name = NULL, *email = NULL, *norm;
		const char *key;
		unsigned id;

		if (e->fields[f].key != 'M' && e->fields[f].key != 'R')
			continue;
		maint_parse_person(e->fields[f].value, &name, &email);
		if (!email) {
			g_free(name);
			continue;
		}
		norm = ms_email_normalize(email, 0);
		key = canon(ea->c, name, email, &id);
		g_free(email);
		if (!key)
			key = intern(ea->c, norm);
		if (g_hash_table_contains(ea->accs, key)) {
			g_free(norm);
			g_free(name);
			continue;
		}
		g_ptr_array_add(ea->out->strings, norm);
		g_ptr_array_add(ea->out->strings, name);
		acc_get(ea->accs, ea->order, key, norm, name ? name : "",
			e->fields[f].key)->p.person = id;
	}
}

/* Whether posting `i` counts among the entry's patches: not set aside
 * (counted as such in the result) and, with an interval, of a patch
 * first posted in it.  Its family key goes to *key when it counts. */
static bool counted_posting(struct entry_acc *ea, size_t i, gpointer *key)
{
	const struct ctx *c = ea->c;
	const int64_t *d;

	int rule = ms_rv_aside_rule_of(c->aside[i]);

	if (rule >= 0) {
		ea->out->aside[rule]++;
		ea->out->aside_total++;
		return false;
	}
	ea->out->own_by_blobs += c->aside[i] == ASIDE_OWN_BLOBS;
	*key = family_key(c, i);
	if (!ea->part)
		return true;
	d = g_hash_table_lookup(ea->part->posted, *key);
	return d && *d >= ea->part->lo && *d < ea->part->hi;
}

/*
 * The patch families: the postings of the window mapped to the entry,
 * grouped by sender and subject key (the versions of one patch), stable
 * backports and other projects' patches set aside; the authors' counts,
 * and the number of series: families joined by a series key they share
 * (a family's versions are versions of one series, even when the mail
 * model could not link them: the v2 cover letter went to other lists).
 */
static void patch_families(struct entry_acc *ea)
{
	const struct ctx *c = ea->c;
	struct ms_rv_entry *out = ea->out;
	GHashTable *families = g_hash_table_new(NULL, NULL);
	GHashTable *series = g_hash_table_new(NULL, NULL); /* key -> family */
	GArray *up = g_array_new(FALSE, FALSE, sizeof(uint32_t));
	const GArray *posts = entry_list(c->entry_posts, ea->e->index);

	for (guint q = 0; posts && q < posts->len; q++) {
		uint32_t i = g_array_index(posts, uint32_t, q);
		const struct ms_mail_rec *r = rec_at(c, i);
		struct ms_rv_patch *pt;
		gpointer key, v;
		uint32_t u = i, f;
		gint sk;

		if (!counted_posting(ea, i, &key))
			continue;
		if (r->series >= 0) {
			const struct ms_mail_series *s =
				ms_mail_index_series(c->idx, (uint32_t)r->series);

			sk = s->family >= 0 ? s->family : r->series;
		} else {
			sk = -1 - (gint)i;
		}
		if (g_hash_table_lookup_extended(families, key, NULL, &v)) {
			f = GPOINTER_TO_UINT(v);
			pt = &g_array_index(out->patches, struct ms_rv_patch,
					    f);
			g_array_append_val(pt->postings, u);
		} else {
			struct ms_rv_patch np = { 0 };

			np.postings = g_array_new(FALSE, FALSE,
						  sizeof(uint32_t));
			g_array_append_val(np.postings, u);
			np.posted = r->date;
			f = out->patches->len;
			g_hash_table_insert(families, key,
					    GUINT_TO_POINTER(f));
			g_array_append_val(out->patches, np);
			g_array_append_val(up, f);
			if (c->sender[i])
				ea_sender(ea, i)->p.own_patches++;
		}
		if (g_hash_table_lookup_extended(series, GINT_TO_POINTER(sk),
						 NULL, &v))
			ms_uf_union((uint32_t *)(void *)up->data, f,
				    GPOINTER_TO_UINT(v));
		else
			g_hash_table_insert(series, GINT_TO_POINTER(sk),
					    GUINT_TO_POINTER(f));
		if (c->sender[i])
			ea_sender(ea, i)->p.authored++;
	}
	out->series = 0;
	for (uint32_t f = 0; f < up->len; f++)
		out->series += ms_uf_find((uint32_t *)(void *)up->data, f) == f;
	g_hash_table_unref(series);
	g_array_free(up, TRUE);
	g_hash_table_unref(families);
}

/* The replies below posting `post` and, when it has one, below its
 * series' cover letter, which answer it too (*direct of them); then, in
 * a series without one, those below its first patch, where a b4 ty's
 * "[2/3] ..." naming `post` is an event of it, though no response. */
static GArray *replies_to(const struct ctx *c, uint32_t post, guint *direct)
{
	const struct ms_mail_rec *pr = rec_at(c, post);
	const struct ms_mail_series *s = pr->series < 0 ? NULL :
		ms_mail_index_series(c->idx, (uint32_t)pr->series);
	GArray *replies = g_array_new(FALSE, FALSE, sizeof(uint32_t));

	descendants(c, post, replies);
	if (s && s->has_cover && s->root != post)
		descendants(c, s->root, replies);
	*direct = replies->len;
	if (s && !s->has_cover && s->root != post)
		descendants(c, s->root, replies);
	return replies;
}

/* Message `ri` below a version of the patch first posted as
 * `first_rec` (its versions' subject keys `keys`) as an event of the state rules
 * (ms_rv_patch_state()); the listed and committer bits are set by
 * patch_state(). */
static void add_event(const struct ctx *c, GArray *events, uint32_t ri,
		      uint32_t first_rec, const GPtrArray *keys,
		      int64_t newest)
{
	const struct ms_mail_rec *rr = rec_at(c, ri);
	struct ms_rv_event ev = { 0 };

	ev.rec = ri;
	ev.date = rr->date;
	ev.kind = rr->kind;
	ev.notice = ms_rv_notice_for(c->idx, rr, keys, &ev.applied);
	ev.by_author = c->sender[ri] && c->sender[ri] == c->sender[first_rec];
	ev.by_reviewer = c->sender[ri] &&
		g_hash_table_contains(c->reviewers, c->sender[ri]);
	ev.human = is_human_reply(c, ri, first_rec) && c->sender[ri];
	ev.tag = gives_tag(c, rr);
	ev.newest = rr->date >= newest;
	g_array_append_val(events, ev);
}

/*
 * The responses to patch `pt` (struct ms_rv_reply): the human replies
 * to any of its versions or their cover letters, by someone other than
 * its author, each once with the version it answers.
 */
static GArray *responses(const struct ctx *c, const struct ms_rv_patch *pt,
			 GArray *events, int64_t newest)
{
	uint32_t first_rec = g_array_index(pt->postings, uint32_t, 0);
	GHashTable *answered = g_hash_table_new(NULL, NULL);
	GArray *resp = g_array_new(FALSE, FALSE, sizeof(struct ms_rv_reply));
	GPtrArray *keys = ms_rv_subject_keys(c->idx, pt->postings);

	for (guint q = 0; q < pt->postings->len; q++) {
		uint32_t post = g_array_index(pt->postings, uint32_t, q);
		guint direct;
		GArray *replies = replies_to(c, post, &direct);

		for (guint x = 0; x < replies->len; x++) {
			uint32_t ri = g_array_index(replies, uint32_t, x);
			const struct ms_mail_rec *rr = rec_at(c, ri);
			struct ms_rv_reply rep;
			const char *commit;

			if (g_hash_table_contains(answered,
						  GUINT_TO_POINTER(ri)) ||
			    rr->duplicate || !rr->date_valid ||
			    (x >= direct && (!rr->n_applied ||
			     ms_rv_notice_for(c->idx, rr, keys, &commit) !=
				     MS_MAIL_NOTICE_APPLIED)))
				continue;
			g_hash_table_add(answered, GUINT_TO_POINTER(ri));
			add_event(c, events, ri, first_rec, keys, newest);
			if (x >= direct || !is_human_reply(c, ri, first_rec) ||
			    !c->sender[ri])
				continue;
			rep.rec = ri;
			rep.to = post;
			/* one clock (CHAOSS): from the first posting of
			 * any version */
			rep.latency = rr->date - pt->posted;
			rep.negative = rep.latency < 0;
			if (rep.negative)
				rep.latency = 0;
			rep.tag = gives_tag(c, rr);
			g_array_append_val(resp, rep);
		}
		g_array_free(replies, TRUE);
	}
	for (guint v = 0; v < keys->len; v++) {   /* pulled since posted */
		const GArray *pr = ms_mail_index_pulls(c->idx, keys->pdata[v]);

		for (guint x = 0; pr && x < pr->len; x++) {
			uint32_t ri = g_array_index(pr, uint32_t, x);

			if (rec_at(c, ri)->date_valid &&
			    rec_at(c, ri)->date >= pt->posted &&
			    g_hash_table_add(answered, GUINT_TO_POINTER(ri)))
				add_event(c, events, ri, first_rec, keys,
					  newest);
		}
	}
	g_hash_table_unref(answered);
	g_ptr_array_unref(keys);
	return resp;
}

/*
 * responses() of patch `pt`, computed once per set of postings (they
 * depend on nothing else: its first posting's date and its newest
 * version are the postings'), kept with the run.  The events are the
 * kept ones: patch_state() sets by_listed and by_committer of each
 * before it reads them.
 */
static GArray *responses_of(const struct ctx *c, const struct ms_rv_patch *pt,
			    int64_t newest, GArray **events)
{
	GBytes *key = g_bytes_new(pt->postings->data,
				  pt->postings->len * sizeof(uint32_t));
	GPtrArray *k = g_hash_table_lookup(c->responses, key);

	if (!k) {
		k = g_ptr_array_new_with_free_func(
			(GDestroyNotify)g_array_unref);
		g_ptr_array_add(k, g_array_new(FALSE, FALSE,
					       sizeof(struct ms_rv_event)));
		g_ptr_array_add(k, responses(c, pt, k->pdata[0], newest));
		g_hash_table_insert(c->responses, g_bytes_ref(key), k);
	}
	g_bytes_unref(key);
	*events = k->pdata[0];
	return k->pdata[1];
}

/* The review tags of response `rec` to a patch, to the people its
 * trailers name (the sender `a` when a trailer has no address): once per
 * patch it answers (responses() lists it once), so that an Acked-by on a
 * cover letter counts for each patch of its series, as b4 applies it and
 * git then shows it. */
static void tally_tags(struct entry_acc *ea, uint32_t rec,
		       struct person_acc *a)
{
	const struct ms_mail_rec *rr = rec_at(ea->c, rec);
	const struct ms_mail_tag *t = ms_mail_index_tags(ea->c->idx, rr);

	for (uint32_t y = 0; y < rr->n_review_tags; y++) {
		struct person_acc *ta = a;

		if (t[y].email && *t[y].email)
			ta = ea_person(ea, t[y].name, t[y].email);
		if (t[y].kind == MS_TRAILER_REVIEWED_BY)
			ta->p.reviewed_by++;
		else if (t[y].kind == MS_TRAILER_ACKED_BY)
			ta->p.acked_by++;
		else if (t[y].kind == MS_TRAILER_TESTED_BY)
			ta->p.tested_by++;
	}
}

/*
 * The per-person tallies of patch `pt`'s responses `resp`: the
 * patch's first response, first from a listed person and first review
 * tag; each responder's messages, threads, tags given, and their own
 * first response (its latency and whether within the target).  Returns
 * whether someone other than the author gave a review tag.
 */
static bool tally_responses(struct entry_acc *ea, struct ms_rv_patch *pt,
			    const GArray *resp)
{
	const struct ctx *c = ea->c;
	GHashTable *firsts = g_hash_table_new_full(NULL, NULL, NULL, g_free);
	GHashTableIter it;
	gpointer k, v;
	bool tagged_by_other = false;

	for (guint x = 0; x < resp->len; x++) {
		const struct ms_rv_reply *rep =
			&g_array_index(resp, struct ms_rv_reply, x);
		const struct ms_mail_rec *rr = rec_at(c, rep->rec);
		struct person_acc *a = ea_sender(ea, rep->rec);
		int64_t *old;

		set_reply(&pt->first, &pt->has_first, rep, c);
		if (a->p.role)
			set_reply(&pt->first_maint, &pt->has_maint, rep, c);
		if (rep->tag) {
			set_reply(&pt->first_tag, &pt->has_tag, rep, c);
			tagged_by_other = true;
		}
		if (rep->negative)
			ea->out->negative++;
		/* a message counts once for its sender, however many
		 * patches of a series it answers */
		ms_rv_set_add(&a->msgs, rep->rec);
		ms_rv_set_add(&a->threads, rr->thread);
		tally_tags(ea, rep->rec, a);
		/* each person's own first response, same clock */
		old = g_hash_table_lookup(firsts, a->key);
		if (!old) {
			old = g_new(int64_t, 1);
			*old = rep->latency;
			g_hash_table_insert(firsts, (gpointer)a->key, old);
		} else if (rep->latency < *old) {
			*old = rep->latency;
		}
	}
	g_hash_table_iter_init(&it, firsts);
	while (g_hash_table_iter_next(&it, &k, &v)) {
		struct person_acc *a = g_hash_table_lookup(ea->accs, k);
		int64_t lat = *(int64_t *)v;

		a->p.replied++;   /* once a patch: firsts has them once */
		g_array_append_val(a->latencies, lat);
		if (lat <= c->opts->target) {
			a->p.within_target++;
			if (a->p.role)
				pt->within_target = true;
		}
	}
	g_hash_table_unref(firsts);
	return tagged_by_other;
}

/*
 * Patch `pt`'s outcome in the entry's counts: replied, replied by a
 * listed person, tagged, and ignored: no human response to any version
 * or its cover letter, however late, and --ignore-after since the
 * newest version (a late answer is a long first response instead).
 * `author` is its author's accumulator (NULL without an address).
 */
static void patch_outcome(struct entry_acc *ea, struct ms_rv_patch *pt,
			  const struct person_acc *author,
			  bool tagged_by_other, int64_t newest)
{
	const struct ctx *c = ea->c;
	struct ms_rv_entry *out = ea->out;

	if (pt->has_first) {
		struct person_acc *a = g_hash_table_lookup(ea->accs,
			c->sender[pt->first.rec]);

		out->replied++;
		g_array_append_val(ea->ttfr, pt->first.latency);
		if (!a->p.first_responses || pt->posted < a->p.first_reply_since)
			a->p.first_reply_since = pt->posted;
		if (!a->p.first_responses || pt->posted > a->p.first_reply_until)
			a->p.first_reply_until = pt->posted;
		if (a->p.first_responses < G_N_ELEMENTS(a->p.first_reply_ids))
			a->p.first_reply_ids[a->p.first_responses] =
				rec_at(c, pt->first.rec)->message_id;
		a->p.first_responses++;
		ea->first_replied_total++;
	}
	if (pt->has_maint) {
		out->replied_maint++;
		g_array_append_val(ea->ttmr, pt->first_maint.latency);
	}
	if (pt->has_tag) {
		out->tagged++;
		g_array_append_val(ea->tttag, pt->first_tag.latency);
	}
	pt->too_recent = newest > c->opts->until - c->opts->ignore_after;
	pt->ignored = !pt->has_first && !pt->too_recent;
	if (pt->ignored) {
		out->ignored++;
		if (!author || !author->p.role)
			out->ignored_contributor++;
	}
	if (author && author->p.role && !tagged_by_other && !pt->too_recent)
		out->own_unreviewed++;
}

/* Whether patch `pt` was merged: any of its postings linked to a
 * commit; then who applied it, the time it took, and its tag ledger. */
static void patch_merged(struct entry_acc *ea, struct ms_rv_patch *pt)
{
	const struct ctx *c = ea->c;
	const struct ms_link_commit *lc;

	for (guint q = 0; c->links && q < pt->postings->len &&
	     !pt->merged; q++) {
		gpointer li = g_hash_table_lookup(c->links->by_rec,
			GUINT_TO_POINTER(g_array_index(pt->postings,
						       uint32_t, q)));
		const struct ms_link *l;

		if (!li)
			continue;
		l = &g_array_index(c->links->links, struct ms_link,
				   GPOINTER_TO_UINT(li) - 1);
		lc = c->commits->pdata[l->commit];
		pt->merged = true;
		pt->commit = l->commit;
		pt->merge_time = lc->commit_time - pt->posted;
		if (pt->merge_time < 0)
			pt->merge_time = 0;
	}
	if (!pt->merged)
		return;
	lc = c->commits->pdata[pt->commit];
	ea_person(ea, lc->committer_name, lc->committer_email)->p.applied++;
	ea->out->merged++;
	g_array_append_val(ea->merge, pt->merge_time);
	ledger(c, ea->out, pt);
}

/*
 * A patch accepted by the applied notice `rec` (one of `events`): one to
 * the entry's count, and to its sender's when no entry the patch maps
 * to lists them (the event's by_listed; ms_rv_defacto()'s
 * MS_RV_DEFACTO_NOTICES: on linux-rdma, Leon Romanovsky applies every
 * driver's patches, listed for their files in INFINIBAND SUBSYSTEM).
 */
static void notice_accepted(struct entry_acc *ea, const GArray *events,
			    uint32_t rec)
{
	const char *k = ea->c->sender[rec];
	struct person_acc *a = k ? g_hash_table_lookup(ea->accs, k) : NULL;

	ea->out->accepted_by_notice++;
	for (guint x = 0; a && x < events->len; x++) {
		const struct ms_rv_event *ev = &g_array_index(events,
			struct ms_rv_event, x);

		if (ev->rec == rec && !ev->by_listed) {
			a->p.accepted_by_notice++;
			return;
		}
	}
}

/*
 * Patch `pt`'s state from `events`: who is listed (the entry's people;
 * for a notice, any entry's the patch maps to) and who committed (the
 * entry's commits' committers, gathered into *committers once).
 */
static void patch_state(struct entry_acc *ea, struct ms_rv_patch *pt,
			GArray *events, GHashTable **committers)
{
	const struct ctx *c = ea->c;
	const GArray *mine = entry_list(c->entry_commits, ea->e->index);
	int64_t ct = 0;

	if (!*committers) {
		*committers = g_hash_table_new(NULL, NULL);
		for (guint q = 0; mine && q < mine->len; q++) {
			const struct ms_link_commit *lc = c->commits->pdata[
				g_array_index(mine, uint32_t, q)];
			const char *k = canon(c, lc->committer_name,
					      lc->committer_email, NULL);

			if (k)
				g_hash_table_add(*committers, (gpointer)k);
		}
	}
	for (guint x = 0; x < events->len; x++) {
		struct ms_rv_event *ev = &g_array_index(events,
			struct ms_rv_event, x);
		const char *k = c->sender[ev->rec];
		const struct person_acc *a = k ?
			g_hash_table_lookup(ea->accs, k) : NULL;

		ev->by_listed = (a && a->p.role) ||
			(k && ev->notice && ms_review_map_listed(c->map,
			 *(uint32_t *)pt->postings->data, c->ident,
			 rec_at(c, ev->rec)));
		ev->by_committer = k && g_hash_table_contains(*committers, k);
	}
	if (pt->merged)
		ct = ((const struct ms_link_commit *)
		      c->commits->pdata[pt->commit])->commit_time;
	pt->state = ms_rv_patch_state((const struct ms_rv_event *)
				      events->data, events->len, pt, ct,
				      &pt->why);
	if (pt->state == MS_RV_ACCEPTED && pt->why.by == MS_RV_BY_MESSAGE)
		notice_accepted(ea, events, pt->why.rec);
}

/* Each patch's responses, tallied per person, its outcome and merge. */
static void patch_reviews(struct entry_acc *ea)
{
	const struct ctx *c = ea->c;
	GArray *patches = ea->out->patches;
	GHashTable *committers = NULL;

	for (guint pi = 0; pi < patches->len; pi++) {
		struct ms_rv_patch *pt = &g_array_index(patches,
							struct ms_rv_patch,
							pi);
		uint32_t first_rec = g_array_index(pt->postings, uint32_t, 0);
		struct person_acc *author = c->sender[first_rec] ?
			g_hash_table_lookup(ea->accs, c->sender[first_rec]) :
			NULL;
		int64_t newest = ms_rv_newest_posting(c->idx, pt->postings);
		GArray *events;
		bool tagged_by_other = tally_responses(ea, pt,
			responses_of(c, pt, newest, &events));

		patch_outcome(ea, pt, author, tagged_by_other, newest);
		patch_merged(ea, pt);
		patch_state(ea, pt, events, &committers);
	}
	g_clear_pointer(&committers, g_hash_table_unref);
	ms_rv_entry_states(ea->out, c->opts->until);
}

/* The entry's scores: the medians and 90th percentiles of its
 * latencies, and its responsiveness (the share of patches a listed
 * person answered within the target). */
static void entry_scores(struct entry_acc *ea)
{
	struct ms_rv_entry *out = ea->out;
	size_t in_target = 0;

	ms_rv_quantiles(ea->ttfr, &out->ttfr_median, &out->ttfr_p90);
	ms_rv_quantiles(ea->ttmr, &out->ttmr_median, &out->ttmr_p90);
	ms_rv_quantiles(ea->tttag, &out->tttag_median, &out->tttag_p90);
	ms_rv_quantiles(ea->merge, &out->merge_median, &out->merge_p90);
	for (guint pi = 0; pi < out->patches->len; pi++)
		if (g_array_index(out->patches, struct ms_rv_patch,
				  pi).within_target)
			in_target++;
	out->responsiveness = out->patches->len ?
		(double)in_target / out->patches->len : -1;
}

/* The commits touching the entry (in the interval), and who committed
 * them. */
static void entry_commits(struct entry_acc *ea)
{
	const struct ctx *c = ea->c;
	const struct part *part = ea->part;
	const GArray *mine = entry_list(c->entry_commits, ea->e->index);

	for (guint q = 0; mine && q < mine->len; q++) {
		uint32_t ci = g_array_index(mine, uint32_t, q);
		const struct ms_link_commit *lc = c->commits->pdata[ci];

		if (part && !part_has_commit(part, lc->commit_time))
			continue;
		ea->out->commits++;
		ea_person(ea, lc->committer_name,
			  lc->committer_email)->p.commits++;
	}
}

/* The people of the result: the listed ones in field order, the others
 * who did something, most replies first.  Returns the review tags they
 * gave, all together. */
static size_t people_out(struct entry_acc *ea)
{
	struct ms_rv_entry *out = ea->out;
	size_t tags_total = 0;

	for (guint i = 0; i < ea->order->len; i++) {
		struct person_acc *a = ea->order->pdata[i];
		int64_t *last = g_hash_table_lookup(ea->c->last_msg, a->key);

		if (last) {
			a->p.has_last_list = true;
			a->p.last_list = *last;
		}
		tags_total += a->p.reviewed_by + a->p.acked_by;
	}
	for (guint i = 0; i < ea->order->len; i++) {
		struct person_acc *a = ea->order->pdata[i];
		struct ms_rv_person *p = person_out(a, out->patches->len);

		if (p->role)
			g_ptr_array_add(out->listed, p);
		else if (p->replied || p->commits || p->applied ||
			 p->reviewed_by || p->acked_by || p->tested_by)
			g_ptr_array_add(out->others, p);
		else
			g_free(p);
	}
	g_ptr_array_sort(out->others, cmp_acc_replies);
	return tags_total;
}

/* De-facto maintainers (ms_rv_defacto()), `tags_total` the review tags
 * everyone gave. */
static void defacto_maintainers(struct entry_acc *ea, size_t tags_total)
{
	struct ms_rv_entry *out = ea->out;

	out->tags_total = tags_total;
	out->first_replied_total = ea->first_replied_total;
	for (guint i = 0; i < out->others->len; i++)
		if (ms_rv_defacto(out, out->others->pdata[i]))
			g_ptr_array_add(out->defacto, out->others->pdata[i]);
}

/* Whether listed person `l` was ever seen: posting to any list of the
 * archives, or authoring, committing or tagging in the history up to
 * the end of the window (the window's commits only, without
 * git_seen). */
static bool listed_seen(const struct ctx *c, const struct ms_rv_person *l)
{
	const char *key = l->email;

	if (l->person != MS_IDENT_NONE &&
	    *ms_ident_email(c->ident, l->person))
		key = ms_ident_email(c->ident, l->person);
	if (g_hash_table_contains(c->senders, key) || l->commits)
		return true;
	return c->opts->git_seen && l->person != MS_IDENT_NONE &&
	       c->opts->git_seen(l->person, c->opts->git_seen_data);
}

/* Corporate aliases: a listed address never seen (listed_seen()) while
 * people of its domain answer the entry's patches. */
static void corporate_aliases(const struct ctx *c, struct ms_rv_entry *out)
{
	for (guint i = 0; i < out->listed->len; i++) {
		struct ms_rv_person *l = out->listed->pdata[i];
		const char *dom = email_domain(l->email);
		struct ms_rv_alias *al = NULL;

		if (!dom || listed_seen(c, l))
			continue;
		for (guint k = 0; k < out->others->len; k++) {
			struct ms_rv_person *p = out->others->pdata[k];
			const char *pd = email_domain(p->email);

			if (!pd || p->via_list || g_ascii_strcasecmp(pd, dom) ||
			    !(p->replied || p->reviewed_by || p->acked_by))
				continue;
			if (!al) {
				al = g_new0(struct ms_rv_alias, 1);
				al->name = l->name;
				al->email = l->email;
				al->people = g_ptr_array_new();
				g_ptr_array_add(out->aliases, al);
			}
			g_ptr_array_add(al->people, p);
		}
	}
}

/*
 * Entry `e`'s figures over the window, or, with `part`, over the patches
 * first posted in its interval and the commits dated in it: its listed
 * people, its patch families, their responses and the per-person
 * tallies, the scores, the tag ledger of merged patches, the commits,
 * and what the people's figures show (de-facto maintainers, corporate
 * aliases).
 */
static struct ms_rv_entry *compute_entry(const struct ctx *c,
					 const struct maint_entry *e,
					 const struct part *part)
{
	struct entry_acc ea = { 0 };

	ea.c = c;
	ea.e = e;
	ea.part = part;
	ea.out = entry_new(e);
	ea.accs = g_hash_table_new(NULL, NULL);
	ea.order = g_ptr_array_new_with_free_func(acc_free);
	ea.ttfr = g_array_new(FALSE, FALSE, sizeof(int64_t));
	ea.ttmr = g_array_new(FALSE, FALSE, sizeof(int64_t));
	ea.tttag = g_array_new(FALSE, FALSE, sizeof(int64_t));
	ea.merge = g_array_new(FALSE, FALSE, sizeof(int64_t));

	listed_people(&ea);
	patch_families(&ea);
	patch_reviews(&ea);
	entry_scores(&ea);
	entry_commits(&ea);
	defacto_maintainers(&ea, people_out(&ea));
	corporate_aliases(c, ea.out);
	g_array_sort(ea.out->patches, ms_rv_patch_cmp);

	g_ptr_array_unref(ea.order);
	g_hash_table_unref(ea.accs);
	g_array_free(ea.ttfr, TRUE);
	g_array_free(ea.ttmr, TRUE);
	g_array_free(ea.tttag, TRUE);
	g_array_free(ea.merge, TRUE);
	return ea.out;
}

/* The entry's series: the same computation over each interval's part. */
static void series(const struct ctx *c, struct ms_rv_entry *e)
{
	struct part part;

	part.posted = family_dates(c, e->entry->index);
	e->intervals = g_ptr_array_new_with_free_func(
		(GDestroyNotify)ms_rv_entry_free);
	for (size_t i = 0; i < c->opts->nr_intervals; i++) {
		struct ms_rv_entry *s;

		part.lo = c->opts->bounds[i];
		part.hi = c->opts->bounds[i + 1];
		part.first = i == 0;
		part.last = i + 1 == c->opts->nr_intervals;
		s = compute_entry(c, e->entry, &part);
		if (!s->patches->len && !s->commits) {    /* nothing in it */
			ms_rv_entry_free(s);
			s = NULL;
		}
		g_ptr_array_add(e->intervals, s);
	}
	g_hash_table_unref(part.posted);
}

struct ms_review *ms_review_compute(const struct ms_link_mail *lm,
				    const struct ms_review_map *map,
				    const struct maint_file *mf,
				    const GPtrArray *commits,
				    const struct ms_link_result *links,
				    const struct ms_review_opts *opts)
{
	struct ms_review *rv = g_new0(struct ms_review, 1);
	struct ctx c = { 0 };

	c.lm = lm;
	c.idx = ms_link_mail_index(lm);
	c.map = map;
	c.mf = mf;
	c.commits = commits;
	c.links = links;
	c.opts = opts;
	rv->strings = g_hash_table_new_full(ms_str_hash, g_str_equal, g_free,
					    NULL);
	c.strings = rv->strings;
	c.ident = opts->ident;
	if (!c.ident) {
		rv->own_ident = ms_ident_new(true);
		c.ident = rv->own_ident;
	}
	ctx_init(&c);
	c.commit_entries = g_array_new(FALSE, FALSE, sizeof(GArray *));
	for (guint i = 0; commits && i < commits->len; i++) {
		const struct ms_link_commit *lc = commits->pdata[i];
		GArray *e = ms_review_map_paths(map, lc->paths,
						lc->nr_paths);

		g_array_append_val(c.commit_entries, e);
	}
	rv->links = links;
	rv->aside_list = ms_rv_aside_list_new();
	c.aside = ms_review_set_aside(lm, map, commits, links, opts, rv);
	entry_lists(&c);
	rv->since = opts->since;
	rv->until = opts->until;
	rv->entries = g_ptr_array_new();
	if (opts->entries) {
		for (size_t i = 0; i < opts->nr_entries; i++)
			g_ptr_array_add(rv->entries,
					compute_entry(&c, opts->entries[i], NULL));
	} else {
		for (size_t i = 0; i < maint_file_nr_entries(mf); i++) {
			struct ms_rv_entry *e;

			if (!entry_list(c.entry_posts, i))   /* no patch */
				continue;
			e = compute_entry(&c, maint_file_entry(mf, i), NULL);

			if (!e->patches->len) {
				ms_rv_entry_free(e);
				continue;
			}
			g_ptr_array_add(rv->entries, e);
		}
	}
	for (guint i = 0; i < rv->entries->len; i++)
		rv->negative += ((struct ms_rv_entry *)
				 rv->entries->pdata[i])->negative;
	if (opts->nr_intervals) {
		rv->nr_intervals = opts->nr_intervals;
		rv->bounds = g_memdup2(opts->bounds, (opts->nr_intervals + 1) *
				       sizeof(int64_t));
		for (guint i = 0; i < rv->entries->len; i++)
			series(&c, rv->entries->pdata[i]);
	}
	for (guint i = 0; i < c.commit_entries->len; i++)
		g_array_free(g_array_index(c.commit_entries, GArray *, i),
			     TRUE);
	g_array_free(c.commit_entries, TRUE);
	ctx_release(&c);
	return rv;
}
