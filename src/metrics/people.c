/*
 * people.c - the list's people and companies (people.h), on review's
 * model: its versions of a patch, its projects (review-aside.c), its
 * identity model and its bots.
 */
#include "people.h"
#include "review-internal.h"
#include "ident.h"
#include "bytes.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- employers ---- */

struct emp_line {
	char *company;          /* NULL: an alias of `alias` */
	char *alias;
	int64_t end;            /* INT64_MAX: no end date */
};

struct ms_employers {
	GHashTable *keys;       /* address or domain -> GArray emp_line */
	GPtrArray *needles;     /* db.json: needle, company, needle, ... */
};

static void line_array_free(gpointer p)
{
	GArray *a = p;

	for (guint i = 0; i < a->len; i++) {
		g_free(g_array_index(a, struct emp_line, i).company);
		g_free(g_array_index(a, struct emp_line, i).alias);
	}
	g_array_free(a, TRUE);
}

/* A JSON string at *p (after blanks), into a new string; NULL when none. */
static char *json_str(const char **p)
{
	GString *s;
	const char *q = *p + strspn(*p, " \t\r\n,");

	if (*q != '"')
		return NULL;
	s = g_string_new(NULL);
	for (q++; *q && *q != '"'; q++) {
		if (*q == '\\' && q[1] == 'u' && strlen(q) >= 6) {
			char hex[5] = { q[2], q[3], q[4], q[5], 0 };

			g_string_append_unichar(s, (gunichar)strtoul(hex, NULL,
								    16));
			q += 5;
		} else {
			if (*q == '\\' && q[1])
				q++;
			g_string_append_c(s, *q);
		}
	}
	if (*q != '"') {
		g_string_free(s, TRUE);
		return NULL;
	}
	*p = q + 1;
	return g_string_free(s, FALSE);
}

/* ml-stat's db.json: the ["needle", "Company"] pairs of its corpmap. */
static int parse_corpmap(struct ms_employers *e, const char *file,
			 const char *text)
{
	const char *p = strstr(text, "\"corpmap\"");

	if (!p || !(p = strchr(p, '[')))
		return ms_error_set(MS_EPARSE, "%s: no \"corpmap\" list",
				    file);
	for (p++;;) {
		char *needle, *company;

		p += strspn(p, " \t\r\n,");
		if (*p == ']')
			return 0;
		if (*p++ != '[')
			break;
		needle = json_str(&p);
		company = needle ? json_str(&p) : NULL;
		p += company ? strspn(p, " \t\r\n") : 0;
		if (!company || *p++ != ']') {
			g_free(needle);
			g_free(company);
			break;
		}
		g_ptr_array_add(e->needles, needle);
		g_ptr_array_add(e->needles, company);
	}
	return ms_error_set(MS_EPARSE, "%s: \"corpmap\" is not a list of "
			    "[\"needle\", \"Company\"] pairs", file);
}

/* One gitdm line: "key value [< YYYY-MM-DD]". */
static int parse_gitdm_line(struct ms_employers *e, const char *file,
			    unsigned nr, char *l)
{
	char *sp, *lt, *val;
	struct emp_line el = { NULL, NULL, INT64_MAX };
	GArray *a;

	g_strstrip(l);
	if (!*l)
		return 0;
	sp = strpbrk(l, " \t");
	val = sp ? g_strstrip(sp + 1) : NULL;
	if (!val || !*val)
		return ms_error_set(MS_EPARSE, "%s:%u: no company after '%s'",
				    file, nr, l);
	*sp = '\0';
	lt = strrchr(val, '<');
	if (lt) {
		int y, m, d;
		GDateTime *dt;

		if (sscanf(lt + 1, " %d-%d-%d", &y, &m, &d) != 3 ||
		    !(dt = g_date_time_new_utc(y, m, d, 0, 0, 0)))
			return ms_error_set(MS_EPARSE, "%s:%u: bad end date "
					    "'%s' (YYYY-MM-DD)", file, nr,
					    g_strstrip(lt + 1));
		el.end = g_date_time_to_unix(dt);
		g_date_time_unref(dt);
		*lt = '\0';
		g_strstrip(val);
	}
	if (strchr(val, '@') && !strpbrk(val, " \t"))
		el.alias = g_ascii_strdown(val, -1);
	else
		el.company = g_strdup(val);
	a = g_hash_table_lookup(e->keys, l);
	if (!a) {
		a = g_array_new(FALSE, FALSE, sizeof(struct emp_line));
		g_hash_table_insert(e->keys, g_ascii_strdown(l, -1), a);
	}
	g_array_append_val(a, el);
	return 0;
}

int ms_employers_parse(const char *file, const char *text, size_t len,
		       struct ms_employers **out)
{
	struct ms_employers *e = g_new0(struct ms_employers, 1);
	char *copy = g_strndup(text, len), *save = NULL, *l;
	unsigned nr = 0;
	int rc = 0;

	e->keys = g_hash_table_new_full(g_str_hash, g_str_equal, g_free,
					line_array_free);
	e->needles = g_ptr_array_new_with_free_func(g_free);
	if (copy[strspn(copy, " \t\r\n")] == '{') {
		rc = parse_corpmap(e, file, copy);
	} else {
		/* strtok_r would skip empty lines and miscount them */
		for (l = copy; l && rc == 0; l = save) {
			char *hash;

			save = strchr(l, '\n');
			if (save)
				*save++ = '\0';
			nr++;
			hash = strchr(l, '#');
			if (hash)
				*hash = '\0';
			rc = parse_gitdm_line(e, file, nr, l);
		}
	}
	g_free(copy);
	if (rc < 0) {
		ms_employers_free(e);
		return rc;
	}
	*out = e;
	return 0;
}

/* The end dates of `e`'s lines in (since, until], sorted, each once: a
 * new array of int64_t. */
static GArray *employers_ends(const struct ms_employers *e, int64_t since,
			      int64_t until)
{
	GArray *out = g_array_new(FALSE, FALSE, sizeof(int64_t));
	GHashTableIter it;
	gpointer v;

	g_hash_table_iter_init(&it, e->keys);
	while (g_hash_table_iter_next(&it, NULL, &v)) {
		GArray *a = v;

		for (guint i = 0; i < a->len; i++) {
			int64_t end = g_array_index(a, struct emp_line,
						    i).end;
			guint k;

			if (end <= since || end > until)
				continue;
			for (k = 0; k < out->len; k++)
				if (g_array_index(out, int64_t, k) == end)
					break;
			if (k == out->len)
				g_array_append_val(out, end);
		}
	}
	g_array_sort(out, ms_cmp_i64);
	return out;
}

void ms_employers_free(struct ms_employers *e)
{
	if (!e)
		return;
	g_hash_table_unref(e->keys);
	g_ptr_array_unref(e->needles);
	g_free(e);
}

static const char *file_company(const struct ms_employers *e,
				const char *email, int64_t when, int depth);

static const char unknown[] = "(Unknown)";

/* gitdm's answer for `key` (an address or domain) at `when`: "(Unknown)"
 * when each of its lines ended before (as gitdm: the file's word that
 * they left, not the domain's organisation again). */
static const char *key_company(const struct ms_employers *e, const char *key,
			       int64_t when, int depth)
{
	GArray *a = g_hash_table_lookup(e->keys, key);
	const struct emp_line *best = NULL;

	for (guint i = 0; a && i < a->len; i++) {
		const struct emp_line *l = &g_array_index(a, struct emp_line,
							  i);

		if (l->end > when && (!best || l->end < best->end))
			best = l;
	}
	if (best && best->alias)
		return depth < 8 ? file_company(e, best->alias, when,
						depth + 1) : NULL;
	return best ? best->company : a && a->len ? unknown : NULL;
}

/* What the file says of `email`, or NULL. */
static const char *file_company(const struct ms_employers *e,
				const char *email, int64_t when, int depth)
{
	const char *at = email ? strrchr(email, '@') : NULL, *d;
	const char *c = NULL;
	char *lt;

	if (!e || !at)
		return NULL;
	lt = g_strdup_printf("<%s>", email);
	for (guint i = 0; i + 1 < e->needles->len && !c; i += 2)
		if (strstr(lt, e->needles->pdata[i]))
			c = e->needles->pdata[i + 1];
	g_free(lt);
	if (!c)
		c = key_company(e, email, when, depth);
	for (d = at + 1; !c && d; d = strchr(d, '.'), d = d ? d + 1 : d)
		c = key_company(e, d, when, depth);
	return c;
}

/* ---- people ---- */

struct acc {
	struct ms_people_person p;
	GHashTable *threads, *replied, *tagged; /* sets */
	GHashTable *first;      /* patch -> their first latency + 1 */
	GHashTable *used;       /* address -> messages sent from it */
};

struct ctx {
	const struct ms_mail_index *idx;
	int64_t since, until;   /* the window counted */
	struct ms_ident *ident;
	size_t n;
	unsigned *who;          /* per record: the person, or NONE */
	uint32_t *version_of;   /* per record: the patch it is a version of */
	int64_t *posted;        /* per patch: its first posting's date */
	GHashTable *accs;       /* person -> struct acc */
	/* organisation (ms_ident_org()) -> the one group with an address
	 * there + 1, or ORG_SHARED: of several (people, lists, roles) */
	GHashTable *orgs;
	GHashTable *strings;    /* the organisations named: a pool */
};

#define ORG_SHARED GUINT_TO_POINTER(UINT_MAX)

static const struct ms_mail_rec *rec(const struct ctx *c, uint32_t i)
{
	return ms_mail_index_get(c->idx, i);
}

static bool in_window(const struct ctx *c, const struct ms_mail_rec *r)
{
	return r->date_valid && r->date >= c->since && r->date <= c->until;
}

static struct acc *acc_of(struct ctx *c, unsigned who)
{
	struct acc *a = g_hash_table_lookup(c->accs, GUINT_TO_POINTER(who));

	if (a || who == MS_IDENT_NONE)
		return a;
	a = g_new0(struct acc, 1);
	a->p.person = who;
	a->p.name = ms_ident_name(c->ident, who);
	a->p.email = ms_ident_email(c->ident, who);
	a->p.median_first_response = -1;
	a->threads = g_hash_table_new(NULL, NULL);
	a->replied = g_hash_table_new(NULL, NULL);
	a->tagged = g_hash_table_new(NULL, NULL);
	a->first = g_hash_table_new(NULL, NULL);
	a->used = g_hash_table_new(g_str_hash, g_str_equal);
	g_hash_table_insert(c->accs, GUINT_TO_POINTER(who), a);
	return a;
}

static void acc_free(gpointer p)
{
	struct acc *a = p;

	g_hash_table_unref(a->threads);
	g_hash_table_unref(a->replied);
	g_hash_table_unref(a->tagged);
	g_hash_table_unref(a->first);
	g_hash_table_unref(a->used);
	g_free(a);
}

/* The person of name and address (their group), or NONE for a list's
 * address (a DMARC rewrite the model gave to no one). */
static unsigned person_of(const struct ctx *c, const char *name,
			  const char *email)
{
	unsigned p;

	if (!email || !*email)
		return MS_IDENT_NONE;
	p = ms_ident_resolve(c->ident, name, email);
	if (p != MS_IDENT_NONE)
		p = ms_ident_root(c->ident, p);
	return p == MS_IDENT_NONE || ms_ident_shared(c->ident, p) ?
	       MS_IDENT_NONE : p;
}

/* Who sent each record: not a duplicate, not a bot's. */
static void senders(struct ctx *c, const char **canon)
{
	for (uint32_t i = 0; i < c->n; i++) {
		const struct ms_mail_rec *r = rec(c, i);

		c->who[i] = MS_IDENT_NONE;
		if (r->duplicate || r->kind == MS_MAIL_BOT)
			continue;
		c->who[i] = person_of(c, r->sender_name, r->sender_email);
		canon[i] = c->who[i] == MS_IDENT_NONE ? NULL :
			   ms_ident_email(c->ident, c->who[i]);
	}
}

static void count_in_str(GHashTable *h, const char *s)
{
	gpointer v = g_hash_table_lookup(h, s);

	g_hash_table_insert(h, (gpointer)s,
			    GSIZE_TO_POINTER(GPOINTER_TO_SIZE(v) + 1));
}

/* Postings: authored, by project, and series. */
static void postings(struct ctx *c, const uint8_t *aside)
{
	for (size_t s = 0; s < ms_mail_index_series_count(c->idx); s++) {
		const struct ms_mail_series *ms = ms_mail_index_series(c->idx,
			(uint32_t)s);
		struct acc *a = acc_of(c, c->who[ms->root]);

		if (a && in_window(c, rec(c, ms->root)) &&
		    (ms->has_cover || ms->total > 1))
			a->p.c.series++;
	}
	for (uint32_t i = 0; i < c->n; i++) {
		const struct ms_mail_rec *r = rec(c, i);
		struct acc *a = acc_of(c, c->who[i]);

		if (!a || !in_window(c, r))
			continue;
		if (r->date > a->p.last)
			a->p.last = r->date;
		if (!a->p.first || r->date < a->p.first)
			a->p.first = r->date;
		a->p.c.messages++;
		if (!r->via_list && r->sender_email)
			count_in_str(a->used, r->sender_email);
		g_hash_table_add(a->threads, GUINT_TO_POINTER(r->thread));
		if (r->kind != MS_MAIL_PATCH)
			continue;
		a->p.c.authored++;
		if (aside[i] == ASIDE_STABLE)
			a->p.c.stable++;
		else if (aside[i] == ASIDE_SUBJECT || aside[i] == ASIDE_PATHS ||
			 aside[i] == ASIDE_RECIPIENTS)
			a->p.c.other++;
		else
			a->p.c.own++;
	}
}

/* The posting (patch or cover letter) reply `i` answers, or -1. */
static int64_t answered(const struct ctx *c, uint32_t i)
{
	const struct ms_mail_rec *r = rec(c, i);

	for (int depth = 0; r->parent_id && depth < 256; depth++) {
		const struct ms_mail_rec *p = ms_mail_index_find(c->idx,
								 r->parent_id);

		if (!p || p == r)
			return -1;
		/* the records are one array (ms_mail_index_get()) */
		if (p->kind == MS_MAIL_PATCH || p->kind == MS_MAIL_COVER)
			return (int64_t)(p - rec(c, 0));
		r = p;
	}
	return -1;
}

/* Reply `i` of `a` to patch `v` (a version_of value). */
static void reply_to(struct ctx *c, struct acc *a, uint32_t i, uint32_t v,
		     GHashTable *firsts)
{
	const struct ms_mail_rec *r = rec(c, i);
	int64_t lat = r->date - c->posted[v];
	gpointer old;
	uint32_t prev;

	if (c->who[v] == a->p.person)
		return;
	g_hash_table_add(a->replied, GUINT_TO_POINTER(v));
	lat = lat < 0 ? 0 : lat;
	old = g_hash_table_lookup(a->first, GUINT_TO_POINTER(v));
	if (!old || lat + 1 < (int64_t)GPOINTER_TO_SIZE(old))
		g_hash_table_insert(a->first, GUINT_TO_POINTER(v),
				    GSIZE_TO_POINTER((gsize)lat + 1));
	if (g_hash_table_lookup_extended(firsts, GUINT_TO_POINTER(v), NULL,
					 &old)) {
		prev = GPOINTER_TO_UINT(old);
		if (rec(c, prev)->date <= r->date)
			return;
	}
	g_hash_table_insert(firsts, GUINT_TO_POINTER(v), GUINT_TO_POINTER(i));
}

/* Replies: the patches each person answered (a cover letter's reply
 * answers each patch of its series, as review counts), and who came
 * first. */
static void replies(struct ctx *c)
{
	GHashTable *firsts = g_hash_table_new(NULL, NULL);
	GHashTableIter it;
	gpointer k, v;

	for (uint32_t i = 0; i < c->n; i++) {
		const struct ms_mail_rec *r = rec(c, i);
		struct acc *a = acc_of(c, c->who[i]);
		int64_t to;

		if (!a || !in_window(c, r) || r->kind == MS_MAIL_PATCH ||
		    r->kind == MS_MAIL_COVER || r->kind == MS_MAIL_PULL ||
		    (to = answered(c, i)) < 0)
			continue;
		if (rec(c, (uint32_t)to)->kind == MS_MAIL_PATCH) {
			reply_to(c, a, i, c->version_of[to], firsts);
		} else if (rec(c, (uint32_t)to)->series >= 0) {
			const struct ms_mail_series *s = ms_mail_index_series(
				c->idx, (uint32_t)rec(c, (uint32_t)to)->series);

			for (guint q = 0; q < s->patches->len; q++)
				reply_to(c, a, i, c->version_of[g_array_index(
					 s->patches, uint32_t, q)], firsts);
		}
	}
	/* first responses to the patches of the window, as review's */
	g_hash_table_iter_init(&it, firsts);
	while (g_hash_table_iter_next(&it, &k, &v))
		if (c->posted[GPOINTER_TO_UINT(k)] >= c->since &&
		    c->posted[GPOINTER_TO_UINT(k)] <= c->until)
			acc_of(c, c->who[GPOINTER_TO_UINT(v)])->p.c.first_responses++;
	g_hash_table_unref(firsts);
}

struct tag_ctx {
	struct ctx *c;
	uint32_t patch;          /* version_of */
	struct acc *author;
};

static void on_tag(const struct ms_mail_rec *from,
		   const struct ms_mail_tag *t, void *data)
{
	struct tag_ctx *tc = data;
	struct acc *g;

	if (from->kind == MS_MAIL_BOT || (t->kind != MS_TRAILER_REVIEWED_BY &&
					  t->kind != MS_TRAILER_ACKED_BY))
		return;
	g = t->email && *t->email ?
	    acc_of(tc->c, person_of(tc->c, t->name, t->email)) :
	    acc_of(tc->c, person_of(tc->c, from->sender_name,
				    from->sender_email));
	if (!g || g == tc->author)
		return;
	g_hash_table_add(g->tagged, GUINT_TO_POINTER(tc->patch));
	g_hash_table_add(tc->author->tagged,
			 GUINT_TO_POINTER(tc->patch | 0x80000000u));
}

/* Review tags (Reviewed-by, Acked-by) given to each patch of the window,
 * cover letters' included (ms_mail_index_patch_reviews()): a patch
 * counts once per giver, and once for its author. */
static void tags(struct ctx *c)
{
	for (uint32_t i = 0; i < c->n; i++) {
		struct tag_ctx tc = { c, c->version_of[i], NULL };

		tc.author = acc_of(c, c->who[i]);
		if (tc.author && rec(c, i)->kind == MS_MAIL_PATCH &&
		    in_window(c, rec(c, i)))
			ms_mail_index_patch_reviews(c->idx, i, on_tag, &tc);
	}
}

/* ml-stat's thread and change-set figures (ml-stat.py, calc_ppl_stat):
 * in each thread, its authors (who sent its root or a patch, cover
 * letter or pull request in it) and the others. */
struct thread_acc {
	GHashTable *authors, *parti;       /* person -> messages */
	const char *cs;                    /* the root's subject if a patch */
};

static void count_in(GHashTable *h, unsigned who)
{
	gpointer v = g_hash_table_lookup(h, GUINT_TO_POINTER(who));

	g_hash_table_insert(h, GUINT_TO_POINTER(who),
			    GSIZE_TO_POINTER(GPOINTER_TO_SIZE(v) + 1));
}

static void thread_acc_free(gpointer p)
{
	struct thread_acc *t = p;

	g_hash_table_unref(t->authors);
	g_hash_table_unref(t->parti);
	g_free(t);
}

static struct thread_acc *thread_get(GHashTable *h, gpointer key)
{
	struct thread_acc *t = g_hash_table_lookup(h, key);

	if (!t) {
		t = g_new0(struct thread_acc, 1);
		t->authors = g_hash_table_new(NULL, NULL);
		t->parti = g_hash_table_new(NULL, NULL);
		g_hash_table_insert(h, key, t);
	}
	return t;
}

static void scores(struct ctx *c)
{
	GHashTable *threads = g_hash_table_new_full(NULL, NULL, NULL,
						    thread_acc_free);
	GHashTable *cs = g_hash_table_new_full(NULL, NULL, NULL,
					       thread_acc_free);
	GHashTableIter it, pi;
	gpointer k, v;

	for (uint32_t i = 0; i < c->n; i++) {
		const struct ms_mail_rec *r = rec(c, i);
		struct thread_acc *t;
		bool root = !r->parent_id ||
			    !ms_mail_index_find(c->idx, r->parent_id);

		if (c->who[i] == MS_IDENT_NONE || !in_window(c, r))
			continue;
		t = thread_get(threads, GUINT_TO_POINTER(r->thread));
		count_in(t->parti, c->who[i]);
		/* a reply to a message this archive lacks starts no thread
		 * of its sender's: its author posted elsewhere */
		if (!r->parent_id || r->kind == MS_MAIL_PATCH ||
		    r->kind == MS_MAIL_COVER || r->kind == MS_MAIL_PULL)
			count_in(t->authors, c->who[i]);
		if (root && (r->kind == MS_MAIL_PATCH ||
			     r->kind == MS_MAIL_COVER))
			t->cs = r->subject;
	}
	g_hash_table_iter_init(&it, threads);
	while (g_hash_table_iter_next(&it, &k, &v)) {
		struct thread_acc *t = v, *set = t->cs ?
			thread_get(cs, (gpointer)t->cs) : NULL;

		g_hash_table_iter_init(&pi, t->parti);
		while (g_hash_table_iter_next(&pi, &k, &v)) {
			struct acc *a = acc_of(c, GPOINTER_TO_UINT(k));
			size_t am = GPOINTER_TO_SIZE(g_hash_table_lookup(
				t->authors, k));

			if (set)
				g_hash_table_insert(set->parti, k, k);
			if (set && am)
				g_hash_table_insert(set->authors, k, k);
			if (am) {
				a->p.c.author_threads++;
				a->p.c.author_messages += am;
			} else {
				a->p.c.reviewer_threads++;
				a->p.c.reviewer_messages +=
					GPOINTER_TO_SIZE(v);
			}
		}
	}
	g_hash_table_iter_init(&it, cs);
	while (g_hash_table_iter_next(&it, &k, &v)) {
		struct thread_acc *t = v;

		g_hash_table_iter_init(&pi, t->parti);
		while (g_hash_table_iter_next(&pi, &k, NULL)) {
			struct acc *a = acc_of(c, GPOINTER_TO_UINT(k));

			if (g_hash_table_contains(t->authors, k))
				a->p.c.author_cs++;
			else
				a->p.c.reviewer_cs++;
		}
	}
	g_hash_table_unref(threads);
	g_hash_table_unref(cs);
}

/* The entries listing each person (M:, R:), and those whose patches
 * they answered (review's `replied`). */
static void entries(struct ctx *c, const struct maint_file *mf,
		    const struct ms_review *rv)
{
	for (size_t i = 0; mf && i < maint_file_nr_entries(mf); i++) {
		const struct maint_entry *e = maint_file_entry(mf, i);
		GHashTable *seen = g_hash_table_new(NULL, NULL);

		for (size_t f = 0; f < e->nr_fields; f++) {
			char *name = NULL, *email = NULL;
			struct acc *a;
			unsigned id;

			if (e->fields[f].key != 'M' && e->fields[f].key != 'R')
				continue;
			maint_parse_person(e->fields[f].value, &name, &email);
			id = email ? ms_ident_lookup(c->ident, name, email) :
			     MS_IDENT_NONE;
			a = id == MS_IDENT_NONE ? NULL : g_hash_table_lookup(
				c->accs, GUINT_TO_POINTER(ms_ident_root(
					c->ident, id)));
			if (a && g_hash_table_add(seen, a))
				a->p.c.entries_listed++;
			g_free(name);
			g_free(email);
		}
		g_hash_table_unref(seen);
	}
	for (guint i = 0; rv && i < rv->entries->len; i++) {
		const struct ms_rv_entry *e = rv->entries->pdata[i];

		for (guint k = 0; k < e->listed->len; k++) {
			const struct ms_rv_person *p = e->listed->pdata[k];
			struct acc *a = p->person == MS_IDENT_NONE ? NULL :
				g_hash_table_lookup(c->accs, GUINT_TO_POINTER(
					ms_ident_root(c->ident, p->person)));

			if (a && p->replied)
				a->p.c.entries_answered++;
		}
	}
}

static gint cmp_used(gconstpointer x, gconstpointer y, gpointer h)
{
	size_t a = GPOINTER_TO_SIZE(g_hash_table_lookup(h,
					*(const char *const *)x));
	size_t b = GPOINTER_TO_SIZE(g_hash_table_lookup(h,
					*(const char *const *)y));

	return a != b ? (a > b ? -1 : 1) :
	       strcmp(*(const char *const *)x, *(const char *const *)y);
}

/* Every organisation of the identity model's addresses (the list's
 * senders, MAINTAINERS, the .mailmap, the history read) and whether
 * more than one group (a person, a list's or a role's address) uses
 * it. */
static void count_orgs(struct ctx *c)
{
	c->orgs = g_hash_table_new_full(g_str_hash, g_str_equal, g_free,
					NULL);
	for (size_t i = 0; i < ms_ident_count(c->ident); i++) {
		char *org = ms_ident_org(ms_ident_email(c->ident,
							(unsigned)i));
		gpointer r = GUINT_TO_POINTER(ms_ident_root(c->ident,
							    (unsigned)i) + 1);
		gpointer v;

		if (!org)
			continue;
		v = g_hash_table_lookup(c->orgs, org);
		if (!v || v == r) {
			g_hash_table_replace(c->orgs, org, r);
			continue;
		}
		g_hash_table_replace(c->orgs, org, ORG_SHARED);
	}
}

/* The organisation of `email` when another group uses it too, pooled;
 * else NULL (a domain of one person: their own, a vanity domain). */
static const char *shared_org(struct ctx *c, const char *email)
{
	char *org = ms_ident_org(email);
	const char *out = NULL;

	if (org && g_hash_table_lookup(c->orgs, org) == ORG_SHARED) {
		out = g_hash_table_lookup(c->strings, org);
		if (!out)
			g_hash_table_add(c->strings, org);
		out = out ? out : org;
		org = out == org ? NULL : org;
	}
	g_free(org);
	return out;
}

/*
 * A person's company: the first of their addresses the file knows, at
 * their newest message, those they sent the most from first, then the
 * others of their group; else the organisation (ms_ident_org()) of the
 * first of them that another person, a list or a role address uses too
 * (not gmail.com..., not a domain of their own); else "(Unknown)".
 */
static const char *company(struct ctx *cx, struct acc *a,
			   const struct ms_employers *emp, int64_t when)
{
	GPtrArray *order = g_ptr_array_new();
	const char *c = NULL;
	GHashTableIter it;
	gpointer k;

	g_hash_table_iter_init(&it, a->used);
	while (g_hash_table_iter_next(&it, &k, NULL))
		g_ptr_array_add(order, k);
	g_ptr_array_sort_with_data(order, cmp_used, a->used);
	for (size_t i = 0; a->p.addresses[i]; i++)
		g_ptr_array_add(order, a->p.addresses[i]);
	for (guint i = 0; i < order->len && !c; i++)
		c = file_company(emp, order->pdata[i], when, 0);
	for (guint i = 0; i < order->len && !c; i++)
		c = shared_org(cx, order->pdata[i]);
	g_ptr_array_unref(order);
	return c ? c : unknown;
}

/* The person's figures from their sets, and their company. */
static struct ms_people_person *person_out(struct ctx *c, struct acc *a,
					   const struct ms_employers *emp)
{
	struct ms_people_person *p = g_new(struct ms_people_person, 1);
	struct ms_people_counts *n = &a->p.c;
	GArray *lat = g_array_new(FALSE, FALSE, sizeof(int64_t));
	GHashTableIter it;
	gpointer k, v;
	int64_t med, p90;

	n->threads = g_hash_table_size(a->threads);
	n->replied = g_hash_table_size(a->replied);
	g_hash_table_iter_init(&it, a->tagged);
	while (g_hash_table_iter_next(&it, &k, NULL)) {
		if (GPOINTER_TO_UINT(k) & 0x80000000u)
			n->tags_received++;
		else
			n->tags_given++;
	}
	g_hash_table_iter_init(&it, a->first);
	while (g_hash_table_iter_next(&it, &k, &v)) {
		int64_t l = (int64_t)GPOINTER_TO_SIZE(v) - 1;

		g_array_append_val(lat, l);
	}
	if (ms_rv_quantiles(lat, &med, &p90))
		a->p.median_first_response = med;
	g_array_free(lat, TRUE);
	/* ml-stat.py: score = 2 cs + 8 thr + 2 (msg - 1) as reviewer,
	 * - 4 msg as author */
	n->reviewer_score = 2 * (int64_t)n->reviewer_cs +
			    8 * (int64_t)n->reviewer_threads +
			    2 * ((int64_t)n->reviewer_messages - 1) -
			    4 * (int64_t)n->author_messages;
	n->author_score = -n->reviewer_score;
	a->p.addresses = ms_ident_group_addresses(c->ident, a->p.person);
	a->p.company = company(c, a, emp, a->p.last);
	a->p.moved = emp && strcmp(a->p.company, company(c, a, emp,
							  a->p.first));
	*p = a->p;
	return p;
}

/* The company row `name` of `out` (pooled in out->strings), new when
 * none. */
static struct ms_people_company *company_row(struct ms_people *out,
					     GHashTable *by, const char *name)
{
	struct ms_people_company *co = g_hash_table_lookup(by, name);
	const char *pooled;

	if (co)
		return co;
	co = g_new0(struct ms_people_company, 1);
	co->people = g_ptr_array_new();
	co->unknown = name == unknown;
	pooled = co->unknown ? unknown : g_hash_table_lookup(out->strings,
							    name);
	if (!pooled) {
		pooled = g_strdup(name);
		g_hash_table_add(out->strings, (gpointer)pooled);
	}
	co->name = pooled;
	g_hash_table_insert(by, (gpointer)co->name, co);
	g_ptr_array_add(out->companies, co);
	return co;
}

#define SUM(f) to->f += c->f
static void add_counts(struct ms_people_counts *to,
		       const struct ms_people_counts *c)
{
	SUM(authored); SUM(series); SUM(own); SUM(other); SUM(stable);
	SUM(messages); SUM(threads); SUM(replied); SUM(first_responses);
	SUM(tags_given); SUM(tags_received); SUM(author_cs);
	SUM(author_threads); SUM(author_messages); SUM(reviewer_cs);
	SUM(reviewer_threads); SUM(reviewer_messages); SUM(reviewer_score);
	SUM(author_score); SUM(entries_listed); SUM(entries_answered);
}
#undef SUM

/* Person `p`'s figures `c` to company `name`, `p` among its people
 * once. */
static void add_to(struct ms_people *out, GHashTable *by, const char *name,
		   struct ms_people_person *p,
		   const struct ms_people_counts *c)
{
	struct ms_people_company *co = company_row(out, by, name);
	guint i;

	add_counts(&co->c, c);
	for (i = 0; i < co->people->len && co->people->pdata[i] != p; i++)
		;
	if (i == co->people->len)
		g_ptr_array_add(co->people, p);
}

/* The stretches of `p`, who moved, by company: each part of the window
 * between the employers file's end dates (`parts`, oldest first) in
 * which they sent something, one company's parts in a row joined. */
static void employers(struct ms_people *out, GHashTable *by,
		      struct ms_people_person *p, const GPtrArray *parts)
{
	struct ms_people_employer *e = NULL;

	p->employers = g_new0(struct ms_people_employer, parts->len);
	for (guint k = 0; k < parts->len; k++) {
		const struct ms_people *part = parts->pdata[k];
		const struct ms_people_person *q = ms_people_find(part,
								  p->person);

		if (!q)
			continue;
		if (!e || strcmp(e->company, q->company)) {
			e = &p->employers[p->nr_employers++];
			e->company = company_row(out, by, q->company)->name;
			e->since = part->since;
		}
		e->until = part->until;
		add_counts(&e->c, &q->c);
	}
}

/* Each company's people and the sums of their figures: a person who
 * moved (ms_people_person.moved) by their figures in each part of the
 * window between the employers file's end dates (`parts`), to the
 * company of each part, every other person whole. */
static void companies(struct ms_people *out, const GPtrArray *parts)
{
	GHashTable *by = g_hash_table_new(g_str_hash, g_str_equal);

	for (guint i = 0; i < out->people->len; i++) {
		struct ms_people_person *p = out->people->pdata[i];

		if (!p->moved || !parts) {
			add_to(out, by, p->company, p, &p->c);
			continue;
		}
		employers(out, by, p, parts);
		for (size_t k = 0; k < p->nr_employers; k++)
			add_to(out, by, p->employers[k].company, p,
			       &p->employers[k].c);
	}
	for (guint i = 0; i < out->companies->len; i++) {
		struct ms_people_company *co = out->companies->pdata[i];
		int64_t ap = 4 * (int64_t)co->c.author_messages;

		co->review_balance = ap ? (double)(co->c.reviewer_score + ap) /
					  (double)ap : -1;
	}
	g_hash_table_unref(by);
}

static GPtrArray *window_parts(struct ctx *c, const uint8_t *aside,
			       const struct ms_employers *emp);

static void person_free(gpointer data)
{
	struct ms_people_person *p = data;

	g_strfreev(p->addresses);
	g_free(p->employers);
	g_free(p);
}

static void company_free(gpointer data)
{
	struct ms_people_company *co = data;

	g_ptr_array_unref(co->people);
	g_free(co);
}

/* One window's people and companies: [c->since, c->until]; the
 * entries listing and answered by each from `mf` and `rv` (both may be
 * NULL: none); with `split`, a person who moved is summed in each
 * company by the dates of the employers file (companies()). */
static struct ms_people *window(struct ctx *c, const uint8_t *aside,
				const struct maint_file *mf,
				const struct ms_review *rv,
				const struct ms_employers *emp, bool split)
{
	struct ms_people *out = g_new0(struct ms_people, 1);
	GPtrArray *parts;
	bool moved = false;
	GHashTableIter it;
	gpointer v;

	c->accs = g_hash_table_new_full(NULL, NULL, NULL, acc_free);
	postings(c, aside);
	replies(c);
	tags(c);
	scores(c);
	entries(c, mf, rv);
	out->ident = c->ident;
	out->since = c->since;
	out->until = c->until;
	out->people = g_ptr_array_new_with_free_func(person_free);
	out->companies = g_ptr_array_new_with_free_func(company_free);
	out->strings = g_hash_table_new_full(g_str_hash, g_str_equal, g_free,
					     NULL);
	out->index = g_hash_table_new(NULL, NULL);
	c->strings = out->strings;
	if (!c->orgs)
		count_orgs(c);
	g_hash_table_iter_init(&it, c->accs);
	while (g_hash_table_iter_next(&it, NULL, &v)) {
		struct ms_people_person *p;

		if (!((struct acc *)v)->p.c.messages)
			continue;
		p = person_out(c, v, emp);
		moved |= p->moved;
		g_ptr_array_add(out->people, p);
		g_hash_table_insert(out->index, GUINT_TO_POINTER(p->person),
				    p);
	}
	g_hash_table_unref(c->accs);
	c->accs = NULL;
	parts = moved && split ? window_parts(c, aside, emp) : NULL;
	c->strings = out->strings;
	companies(out, parts);
	g_clear_pointer(&parts, g_ptr_array_unref);
	ms_people_sort(out, "reviewer_score");
	return out;
}

/* The window cut at the end dates of the employers file, each part a
 * window of its own: ms_people_free each (the array frees them). */
static GPtrArray *window_parts(struct ctx *c, const uint8_t *aside,
			       const struct ms_employers *emp)
{
	GPtrArray *parts = g_ptr_array_new_with_free_func(
		(GDestroyNotify)ms_people_free);
	GArray *ends = employers_ends(emp, c->since, c->until);
	int64_t since = c->since, until = c->until;

	for (guint i = 0; i <= ends->len; i++) {
		c->since = i ? g_array_index(ends, int64_t, i - 1) : since;
		c->until = i < ends->len ?
			   g_array_index(ends, int64_t, i) - 1 : until;
		g_ptr_array_add(parts, window(c, aside, NULL, NULL, emp,
					      false));
	}
	c->since = since;
	c->until = until;
	g_array_free(ends, TRUE);
	return parts;
}

struct ms_people *ms_people_compute(const struct ms_link_mail *lm,
				    const struct ms_review_map *map,
				    const GPtrArray *commits,
				    const struct ms_review_opts *rvo,
				    const struct ms_review *rv,
				    const struct ms_employers *emp)
{
	struct ms_people *out;
	struct ms_review_opts ao = *rvo;
	struct ms_review counts = { 0 };
	struct ctx c = { 0 };
	const char **canon;
	uint8_t *aside;

	c.idx = ms_link_mail_index(lm);
	c.ident = rvo->ident;
	c.n = ms_mail_index_count(c.idx);
	c.who = g_new0(unsigned, c.n + 1);
	canon = g_new0(const char *, c.n + 1);
	senders(&c, canon);
	c.version_of = ms_review_versions(lm, map, canon, rv && rv->links ?
					  rv->links->by_rec : NULL);
	c.posted = g_new(int64_t, c.n + 1);
	for (size_t i = 0; i <= c.n; i++)
		c.posted[i] = INT64_MAX;
	for (uint32_t i = 0; i < c.n; i++) {
		const struct ms_mail_rec *r = rec(&c, i);

		if (r->kind == MS_MAIL_PATCH && r->date_valid &&
		    r->date < c.posted[c.version_of[i]])
			c.posted[c.version_of[i]] = r->date;
	}
	/* every posting counts; what review would set aside says which
	 * project it is */
	ao.include_stable = ao.include_foreign = false;
	aside = ms_review_set_aside(lm, map, commits, rv ? rv->links : NULL,
				    &ao, &counts);
	c.since = rvo->since;
	c.until = rvo->until;
	out = window(&c, aside, map->mf, rv, emp, true);
	/* each interval as a window of its own, cut by the window */
	out->nr_intervals = rvo->nr_intervals;
	out->intervals = g_new0(struct ms_people *, rvo->nr_intervals + 1);
	for (size_t i = 0; i < rvo->nr_intervals; i++) {
		c.since = MAX(rvo->bounds[i], rvo->since);
		c.until = MIN(rvo->bounds[i + 1] - 1, rvo->until);
		out->intervals[i] = window(&c, aside, NULL, NULL, emp, true);
	}
	g_hash_table_unref(c.orgs);
	g_free(aside);
	g_free(canon);
	g_free(c.who);
	g_free(c.version_of);
	g_free(c.posted);
	return out;
}

const struct ms_people_person *ms_people_find(const struct ms_people *p,
					      unsigned person)
{
	return g_hash_table_lookup(p->index, GUINT_TO_POINTER(person));
}

const struct ms_people_company *ms_people_find_company(
	const struct ms_people *p, const char *name)
{
	for (guint i = 0; i < p->companies->len; i++) {
		const struct ms_people_company *c = p->companies->pdata[i];

		if (!strcmp(c->name, name))
			return c;
	}
	return NULL;
}

void ms_people_free(struct ms_people *p)
{
	if (!p)
		return;
	g_ptr_array_unref(p->people);
	g_ptr_array_unref(p->companies);
	g_hash_table_unref(p->strings);
	g_hash_table_unref(p->index);
	for (size_t i = 0; i < p->nr_intervals; i++)
		ms_people_free(p->intervals[i]);
	g_free(p->intervals);
	g_free(p);
}

/* ---- sorting ---- */

const char *const ms_people_sort_keys[] = {
	"reviewer_score", "author_score", "authored", "messages", "threads",
	"replied", "first_responses", "tags_given", "tags_received",
	"ml_stat.reviewer_cs", "ml_stat.reviewer_messages",
	"ml_stat.author_cs", "ml_stat.author_messages", NULL,
};

static const size_t sort_offsets[] = {
	offsetof(struct ms_people_counts, reviewer_score),
	offsetof(struct ms_people_counts, author_score),
	offsetof(struct ms_people_counts, authored),
	offsetof(struct ms_people_counts, messages),
	offsetof(struct ms_people_counts, threads),
	offsetof(struct ms_people_counts, replied),
	offsetof(struct ms_people_counts, first_responses),
	offsetof(struct ms_people_counts, tags_given),
	offsetof(struct ms_people_counts, tags_received),
	offsetof(struct ms_people_counts, reviewer_cs),
	offsetof(struct ms_people_counts, reviewer_messages),
	offsetof(struct ms_people_counts, author_cs),
	offsetof(struct ms_people_counts, author_messages),
};

static int64_t figure(const struct ms_people_counts *c, size_t key)
{
	const char *b = (const char *)c + sort_offsets[key];

	if (key < 2)
		return *(const int64_t *)(const void *)b;
	return (int64_t)*(const size_t *)(const void *)b;
}

static int cmp_people(gconstpointer a, gconstpointer b, gpointer key)
{
	const struct ms_people_person *x = *(void *const *)a;
	const struct ms_people_person *y = *(void *const *)b;
	int64_t fx = figure(&x->c, GPOINTER_TO_SIZE(key));
	int64_t fy = figure(&y->c, GPOINTER_TO_SIZE(key));

	return fx != fy ? (fx > fy ? -1 : 1) : strcmp(x->email, y->email);
}

static int cmp_companies(gconstpointer a, gconstpointer b, gpointer key)
{
	const struct ms_people_company *x = *(void *const *)a;
	const struct ms_people_company *y = *(void *const *)b;
	int64_t fx = figure(&x->c, GPOINTER_TO_SIZE(key));
	int64_t fy = figure(&y->c, GPOINTER_TO_SIZE(key));

	return fx != fy ? (fx > fy ? -1 : 1) : strcmp(x->name, y->name);
}

/* The index of figure `key` in ms_people_sort_keys, or -1. */
static int key_index(const char *key)
{
	for (int k = 0; ms_people_sort_keys[k]; k++)
		if (!strcmp(ms_people_sort_keys[k], key))
			return k;
	return -1;
}

int64_t ms_people_figure(const struct ms_people_counts *c, const char *key)
{
	int k = key_index(key);

	return k < 0 ? 0 : figure(c, (size_t)k);
}

int ms_people_sort(struct ms_people *p, const char *key)
{
	int k = key_index(key);

	if (k < 0)
		return ms_error_set(MS_EUSAGE, "unknown sort key '%s'", key);
	g_ptr_array_sort_with_data(p->people, cmp_people,
				   GSIZE_TO_POINTER((size_t)k));
	g_ptr_array_sort_with_data(p->companies, cmp_companies,
				   GSIZE_TO_POINTER((size_t)k));
	for (guint i = 0; i < p->companies->len; i++)
		g_ptr_array_sort_with_data(((struct ms_people_company *)
					    p->companies->pdata[i])->people,
					   cmp_people,
					   GSIZE_TO_POINTER((size_t)k));
	return 0;
}

/* ---- release to release ---- */

static gint cmp_prev(gconstpointer a, gconstpointer b, gpointer h)
{
	const char *x = *(const char *const *)a, *y = *(const char *const *)b;
	int64_t sx = *(const int64_t *)g_hash_table_lookup(h, x);
	int64_t sy = *(const int64_t *)g_hash_table_lookup(h, y);

	return sx != sy ? (sx > sy ? -1 : 1) : strcmp(x, y);
}

/* key -> rank (1-based) by score in `prev`: a new table. */
static GHashTable *ranks(GHashTable *prev)
{
	GHashTable *r = g_hash_table_new(g_str_hash, g_str_equal);
	GPtrArray *keys = g_ptr_array_new();
	GHashTableIter it;
	gpointer k;

	g_hash_table_iter_init(&it, prev);
	while (g_hash_table_iter_next(&it, &k, NULL))
		g_ptr_array_add(keys, k);
	g_ptr_array_sort_with_data(keys, cmp_prev, prev);
	for (guint i = 0; i < keys->len; i++)
		g_hash_table_insert(r, keys->pdata[i], GUINT_TO_POINTER(i + 1));
	g_ptr_array_unref(keys);
	return r;
}

void ms_people_compare(struct ms_people *p, const char *key,
		       GHashTable *people, GHashTable *companies)
{
	GHashTable *pr = ranks(people), *cr = ranks(companies);

	for (guint i = 0; i < p->people->len; i++) {
		struct ms_people_person *x = p->people->pdata[i];
		const char *addr = NULL;

		x->prev_rank = 0;
		x->score_change = 0;
		for (size_t k = 0; x->addresses[k] && !addr; k++)
			if (g_hash_table_contains(people, x->addresses[k]))
				addr = x->addresses[k];
		if (!addr)
			continue;
		x->prev_rank = GPOINTER_TO_UINT(g_hash_table_lookup(pr, addr));
		x->score_change = ms_people_figure(&x->c, key) -
			*(const int64_t *)g_hash_table_lookup(people, addr);
	}
	for (guint i = 0; i < p->companies->len; i++) {
		struct ms_people_company *x = p->companies->pdata[i];
		const int64_t *s = g_hash_table_lookup(companies, x->name);

		x->prev_rank = 0;
		x->score_change = 0;
		if (!s)
			continue;
		x->prev_rank = GPOINTER_TO_UINT(g_hash_table_lookup(cr,
								    x->name));
		x->score_change = ms_people_figure(&x->c, key) - *s;
	}
	g_hash_table_unref(pr);
	g_hash_table_unref(cr);
}

/* ---- what to fix ---- */

static void problem_free(gpointer p)
{
	struct ms_people_problem *x = p;

	g_free(x->what);
	g_free(x->mailmap);
	g_free(x);
}

static void add_problem(GPtrArray *out, const char *kind, char *what,
			char *mailmap)
{
	struct ms_people_problem *x = g_new(struct ms_people_problem, 1);

	x->kind = kind;
	x->what = what;
	x->mailmap = mailmap;
	g_ptr_array_add(out, x);
}

struct check_ctx {
	const struct ms_people *pp;
	const struct ms_people_person *p;
	GPtrArray *out;
};

static void on_possible(unsigned other, const char *why, void *data)
{
	struct check_ctx *c = data;
	const char *e = ms_ident_email(c->pp->ident, other);

	if (!*e)
		return;
	add_problem(c->out, "possible_join",
		    g_strdup_printf("%s <%s> and <%s>: the same person? not "
				    "joined (%s)", c->p->name, c->p->email, e,
				    why),
		    g_strdup_printf("# the same person? (%s)\n# %s <%s> <%s>",
				    why, c->p->name, c->p->email, e));
}

static void on_address(const struct ms_ident_addr *a, void *data)
{
	struct check_ctx *c = data;

	if ((a->source != MS_IDENT_NAME && a->source != MS_IDENT_MAINTAINERS)
	    || a->malformed)
		return;
	add_problem(c->out, "weak_join",
		    g_strdup_printf("%s <%s> and <%s>: joined by %s only",
				    c->p->name, c->p->email, a->email,
				    ms_ident_source_name(a->source)),
		    g_strdup_printf("%s <%s> <%s>", c->p->name, c->p->email,
				    a->email));
}

GPtrArray *ms_people_check(const struct ms_people *pp)
{
	GPtrArray *out = g_ptr_array_new_with_free_func(problem_free);
	GHashTable *domains = g_hash_table_new(g_str_hash, g_str_equal);
	struct check_ctx c = { pp, NULL, out };

	for (guint i = 0; i < pp->people->len; i++) {
		c.p = pp->people->pdata[i];
		ms_ident_foreach_possible(pp->ident, c.p->person, on_possible,
					  &c);
		ms_ident_foreach_address(pp->ident, c.p->person, on_address,
					 &c);
		/* a company that is the domain: no file named it */
		if (strchr(c.p->company, '.') && !strchr(c.p->company, ' '))
			count_in_str(domains, c.p->company);
	}
	for (guint i = 0; i < pp->companies->len; i++) {
		const struct ms_people_company *co = pp->companies->pdata[i];
		size_t n = GPOINTER_TO_SIZE(g_hash_table_lookup(domains,
								co->name));

		if (n > 1)
			add_problem(out, "domain_without_company",
				    g_strdup_printf("%s: %zu people and no "
						    "company (--employers)",
						    co->name, n), NULL);
	}
	g_hash_table_unref(domains);
	return out;
}
