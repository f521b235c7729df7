/*
 * review-map.c - which MAINTAINERS entries each patch posting maps to
 * (review.h): the files its diff touches, K: patterns on its changed
 * lines, and whether its subject names another project.
 */
#include "review-internal.h"
#include "bytes.h"
#include "ident.h"
#include "maintainers.h"
#include "store.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- patch to entry mapping ---- */

void ms_review_map_foreign_subject(struct ms_review_map *map,
				   const GRegex *re)
{
	map->foreign_re = re;
}

const char *ms_review_map_foreign(const struct ms_review_map *map,
				  uint32_t rec)
{
	return rec < map->foreign->len ? map->foreign->pdata[rec] : NULL;
}

/* The index of list address `a` (taken), added when new. */
static uint32_t list_index(struct ms_review_map *map, char *a)
{
	gpointer v = g_hash_table_lookup(map->list_ix, a);

	if (v) {
		g_free(a);
		return GPOINTER_TO_UINT(v) - 1;
	}
	g_ptr_array_add(map->lists, a);
	g_hash_table_insert(map->list_ix, a, GUINT_TO_POINTER(map->lists->len));
	return map->lists->len - 1;
}

/* The lists MAINTAINERS names (L:, its first word), first in the table. */
static void named_lists(struct ms_review_map *map)
{
	map->list_ix = g_hash_table_new(ms_str_hash, g_str_equal);
	map->lists = g_ptr_array_new_with_free_func(g_free);
	map->rcpts = g_ptr_array_new_with_free_func(g_free);
	for (size_t i = 0; i < maint_file_nr_entries(map->mf); i++) {
		const struct maint_entry *e = maint_file_entry(map->mf, i);

		for (size_t f = 0; f < e->nr_fields; f++) {
			const char *v = e->fields[f].value;

			if (e->fields[f].key == 'L' && strchr(v, '@'))
				list_index(map, g_ascii_strdown(
					v, (gssize)strcspn(v, " \t")));
		}
	}
	map->nr_named = map->lists->len;
	map->hosts = g_hash_table_new(ms_str_hash, g_str_equal);
	for (guint i = 0; i < map->nr_named; i++) {
		const char *at = strrchr(map->lists->pdata[i], '@');
		gpointer n = at ? g_hash_table_lookup(map->hosts, at + 1) : 0;

		if (at)
			g_hash_table_insert(map->hosts, (gpointer)(at + 1),
					    GINT_TO_POINTER(GPOINTER_TO_INT(n)
							    + 1));
	}
}

/*
 * Whether a list MAINTAINERS does not name is at one of the project's
 * own list hosts (MS_REVIEW_HOME_HOST lists named there): a list made
 * after the tree (the kernel's netfs@lists.linux.dev, which
 * linux-source-6.1 lacks) is no sign of another project.
 */
static bool home_host(const struct ms_review_map *map, const char *a)
{
	const char *at = strrchr(a, '@');

	return at && GPOINTER_TO_INT(g_hash_table_lookup(map->hosts, at + 1))
		     >= MS_REVIEW_HOME_HOST;
}

/*
 * Whether an address MAINTAINERS does not name is a list's, by its host:
 * lists.* and *.lists.* (lists.infradead.org, lists.denx.de,
 * lists.sourceforge.net), vger.kernel.org, nongnu.org.  Not
 * googlegroups.com: its lists are bug trackers' (syzkaller-bugs), Cc'd
 * by the fixes of every project.
 */
static bool list_host(const char *a)
{
	static const char *const hosts[] = { "vger.kernel.org", "nongnu.org" };
	const char *at = strrchr(a, '@');

	if (!at)
		return false;
	at++;
	if (g_str_has_prefix(at, "lists.") || strstr(at, ".lists."))
		return true;
	for (size_t i = 0; i < G_N_ELEMENTS(hosts); i++)
		if (!strcmp(at, hosts[i]))
			return true;
	return false;
}

/* The lists patch `m` was sent to, as record `rec`'s. */
static void record_lists(struct ms_review_map *map, const struct ms_mail *m,
			 uint32_t rec)
{
	GPtrArray *to = g_ptr_array_new_with_free_func(g_free);
	GPtrArray *cc = g_ptr_array_new_with_free_func(g_free);
	GArray *ix = g_array_new(FALSE, FALSE, sizeof(uint32_t));
	char *own = ms_mail_list_address(m);
	struct ms_rv_rcpts *r;

	ms_mail_recipients(m, to, cc);
	for (guint k = 0; k < to->len + cc->len; k++) {
		char *a = k < to->len ? to->pdata[k] : cc->pdata[k - to->len];
		uint32_t v;

		if (!g_hash_table_contains(map->list_ix, a) &&
		    (!list_host(a) || home_host(map, a)) &&
		    !(own && !strcmp(a, own)))
			continue;
		v = list_index(map, g_strdup(a)) << 1 | (k < to->len);
		g_array_append_val(ix, v);
	}
	r = g_malloc(sizeof *r + ix->len * sizeof(uint32_t));
	r->own = own ? (int32_t)list_index(map, own) : -1;
	r->n = ix->len;
	if (ix->len)
		memcpy(r->ix, ix->data, ix->len * sizeof(uint32_t));
	while (map->rcpts->len <= rec)
		g_ptr_array_add(map->rcpts, NULL);
	g_free(map->rcpts->pdata[rec]);
	map->rcpts->pdata[rec] = r;
	g_array_free(ix, TRUE);
	g_ptr_array_unref(to);
	g_ptr_array_unref(cc);
}

const struct ms_rv_rcpts *ms_review_map_rcpts(const struct ms_review_map *map,
					      uint32_t rec)
{
	return rec < map->rcpts->len ? map->rcpts->pdata[rec] : NULL;
}

struct ms_review_map *ms_review_map_new(const struct maint_file *mf,
					const struct maint_index *idx,
					struct ms_diags *diags)
{
	struct ms_review_map *map = g_new0(struct ms_review_map, 1);

	map->mf = mf;
	map->idx = idx;
	map->kpats = g_array_new(FALSE, FALSE, sizeof(struct kpat));
	map->recs = g_ptr_array_new();
	map->foreign = g_ptr_array_new();
	map->base = g_ptr_array_new();
	map->people = g_ptr_array_new();
	g_ptr_array_set_size(map->people, (guint)maint_file_nr_entries(mf));
	named_lists(map);
	map->earlier = g_ptr_array_new_with_free_func(
		(GDestroyNotify)g_strfreev);
	map->loaded = g_ptr_array_new_with_free_func(g_free);
	/* b4's "- Link to v1: URL", a changelog's "v2: URL" */
	map->earlier_re = g_regex_new(
		"^[ \t]*[-*]?[ \t]*(?:link to )?v[0-9]+[ \t]*:[ \t]*<?https?://"
		"(?:lore\\.kernel\\.org|lkml\\.kernel\\.org|"
		"patch\\.msgid\\.link)/(?:[^/\\s>]+/)?([^/\\s>@]+@[^/\\s>]+)",
		G_REGEX_CASELESS | G_REGEX_MULTILINE | G_REGEX_OPTIMIZE, 0, NULL);
	for (size_t i = 0; i < maint_file_nr_entries(mf); i++) {
		const struct maint_entry *e = maint_file_entry(mf, i);

		for (size_t f = 0; f < e->nr_fields; f++) {
			GError *err = NULL;
			struct kpat k = { e->index, NULL, NULL, &e->fields[f],
					  0 };
			char *limited;

			if (e->fields[f].key != 'K')
				continue;
			/* the match limits of maint-index.c: a costly K: on
			 * every changed line must not stall the run */
			limited = g_strconcat("(*LIMIT_MATCH=100000)"
					      "(*LIMIT_DEPTH=10000)",
					      e->fields[f].value, NULL);
			/* bytes, as get_maintainer.pl reads MAINTAINERS:
			 * invalid UTF-8 in a pattern or a line is no crash */
			k.re = g_regex_new(limited, G_REGEX_OPTIMIZE |
					   G_REGEX_RAW, 0, &err);
			if (!k.re) {
				g_free(limited);
				ms_diags_add(diags, e->fields[f].file,
					     e->fields[f].line,
					     "invalid K: regex '%s': %s",
					     e->fields[f].value, err->message);
				g_error_free(err);
				continue;
			}
			if (maint_k_joinable(e->fields[f].value))
				k.joined = g_regex_new(limited, G_REGEX_OPTIMIZE
						       | G_REGEX_RAW |
						       G_REGEX_MULTILINE, 0,
						       NULL);
			g_free(limited);
			g_array_append_val(map->kpats, k);
		}
	}
	return map;
}

void ms_review_map_report(const struct ms_review_map *map,
			   struct ms_diags *diags)
{
	for (guint i = 0; map && i < map->kpats->len; i++) {
		const struct kpat *k = &g_array_index(map->kpats, struct kpat,
						      i);
		int n = g_atomic_int_get(&k->limit_hits);

		if (n)
			ms_diags_add(diags, k->field->file, k->field->line,
				     "K: pattern '%s' is too costly to match "
				     "(it hit the regex match limit on %d "
				     "patch line%s): taken as a match there",
				     k->field->value, n, n == 1 ? "" : "s");
	}
}

void ms_review_map_free(struct ms_review_map *map)
{
	if (!map)
		return;
	for (guint i = 0; i < map->kpats->len; i++) {
		struct kpat *k = &g_array_index(map->kpats, struct kpat, i);

		g_regex_unref(k->re);
		g_clear_pointer(&k->joined, g_regex_unref);
	}
	g_array_free(map->kpats, TRUE);
	for (guint i = 0; i < map->recs->len; i++)
		if (map->recs->pdata[i])
			g_array_free(map->recs->pdata[i], TRUE);
	g_ptr_array_free(map->recs, TRUE);
	g_ptr_array_free(map->foreign, TRUE);
	g_ptr_array_free(map->base, TRUE);
	for (guint i = 0; i < map->people->len; i++)
		if (map->people->pdata[i])
			g_array_unref(map->people->pdata[i]);
	g_ptr_array_free(map->people, TRUE);
	g_hash_table_unref(map->list_ix);
	g_hash_table_unref(map->hosts);
	g_ptr_array_unref(map->lists);
	g_ptr_array_unref(map->rcpts);
	g_ptr_array_unref(map->earlier);
	g_ptr_array_unref(map->loaded);
	g_clear_pointer(&map->earlier_re, g_regex_unref);
	g_clear_pointer(&map->saved, g_hash_table_unref);
	g_bytes_unref(map->saved_bytes);
	if (map->fresh)
		g_byte_array_free(map->fresh, TRUE);
	g_free(map->kkey);
	g_free(map);
}

static int cmp_size(gconstpointer a, gconstpointer b)
{
	size_t x = *(const size_t *)a, y = *(const size_t *)b;

	return (x > y) - (x < y);
}

static void add_unique(GArray *a, size_t v)
{
	for (guint i = 0; i < a->len; i++)
		if (g_array_index(a, size_t, i) == v)
			return;
	g_array_append_val(a, v);
}

static void map_path(const struct ms_review_map *map, const char *path,
		     GArray *out)
{
	const struct maint_entry *m[64];
	size_t n = maint_index_match(map->idx, path, m, G_N_ELEMENTS(m));

	if (n > G_N_ELEMENTS(m))
		n = G_N_ELEMENTS(m);
	for (size_t i = 0; i < n; i++)
		add_unique(out, m[i]->index);
}

GArray *ms_review_map_paths(const struct ms_review_map *map,
			    char *const *paths, size_t nr_paths)
{
	GArray *out = g_array_new(FALSE, FALSE, sizeof(size_t));

	for (size_t i = 0; i < nr_paths; i++)
		map_path(map, paths[i], out);
	g_array_sort(out, cmp_size);
	return out;
}

/*
 * Does K: pattern `k` match a changed line of the diff in `body`?  A
 * line on which the match limits are hit is unknown: counted, and taken
 * as a match.
 */
/* The changed lines of a diff ("+x", "-x", not "+++ "/"--- "/"---"). */
struct line {
	const char *p;
	size_t len;
};

static void changed_lines(const char *body, GArray *out)
{
	const char *p = body;

	while (p && *p) {
		const char *nl = strchr(p, '\n');
		size_t len = nl ? (size_t)(nl - p) : strlen(p);

		if ((p[0] == '+' || p[0] == '-') && len > 1 &&
		    strncmp(p, "+++ ", 4) && strncmp(p, "--- ", 4) &&
		    strncmp(p, "---\n", 4)) {
			struct line l = { p, len };

			g_array_append_val(out, l);
		}
		p = nl ? nl + 1 : NULL;
	}
}

/*
 * Whether K: pattern `k` matches one of `lines`.  Each line is the
 * subject on its own (its length given: no copy), as the line alone
 * would be.
 */
static bool k_match(struct kpat *k, const GArray *lines, bool *limited)
{
	for (guint i = 0; i < lines->len; i++) {
		const struct line *l = &g_array_index(lines, struct line, i);
		GError *err = NULL;
		bool hit = g_regex_match_full(k->re, l->p, (gssize)l->len, 0,
					      0, NULL, &err);

		if (err) {
			g_error_free(err);
			g_atomic_int_inc(&k->limit_hits);
			*limited = true;
			hit = true;
		}
		if (hit)
			return true;
	}
	return false;
}

/* ---- K: answers kept between runs ---- */

/*
 * What the K: patterns say of a patch depends only on its changed lines
 * and on the patterns with their entries.  So the answers are kept in the
 * store (model kind "review-k", one table), keyed by a digest of the
 * patterns and their entry indexes, each answer under the SHA-1 of the
 * changed lines: a warm run matches only patches no run matched before,
 * and a change of any K: line (or of the entries' order) changes the key,
 * so every patch is matched again.  A record: the 20-byte digest, a count
 * n and n entry indexes (varints, bytes.h).  A patch on which a
 * pattern hit the match limits is not kept: the run that matches it
 * reports it.
 */
#define K_KIND "review-k"
#define K_FORMAT "review-k 2"  /* changed_lines(), k_match(), records */
#define DIGEST_LEN 20

static char *k_key(const struct ms_review_map *map)
{
	GChecksum *c = g_checksum_new(G_CHECKSUM_SHA256);
	char num[64];
	char *key;

	g_checksum_update(c, (const guchar *)K_FORMAT, sizeof(K_FORMAT));
	snprintf(num, sizeof(num), "glib %u.%u.%u\n", glib_major_version,
		 glib_minor_version, glib_micro_version);
	g_checksum_update(c, (const guchar *)num, -1);
	for (guint i = 0; i < map->kpats->len; i++) {
		const struct kpat *k = &g_array_index(map->kpats, struct kpat,
						      i);

		snprintf(num, sizeof(num), "%zu\n", k->entry);
		g_checksum_update(c, (const guchar *)num, -1);
		g_checksum_update(c, (const guchar *)k->field->value,
				  (gssize)strlen(k->field->value) + 1);
	}
	key = g_strdup(g_checksum_get_string(c));
	g_checksum_free(c);
	return key;
}

void ms_review_map_read_saved(struct ms_review_map *map,
			      struct ms_store *store)
{
	size_t nr_entries = maint_file_nr_entries(map->mf);
	GHashTable *t;
	GBytes *saved = NULL;
	const void *p;
	gsize len;
	struct ms_rd r;

	if (!store || !map->kpats->len || map->kkey)
		return;
	map->kkey = k_key(map);
	map->fresh = g_byte_array_new();
	if (ms_store_model_get(store, K_KIND, map->kkey, &saved) < 0 ||
	    !saved) {
		ms_error_clear();
		return;
	}
	p = g_bytes_get_data(saved, &len);
	r = (struct ms_rd)MS_RD_INIT(p, len);
	t = g_hash_table_new(ms_id_hash, ms_id_equal);
	while (r.ok && r.p < r.end) {
		const uint8_t *rec = ms_get_bytes(&r, DIGEST_LEN);
		uint64_t n = ms_get_var(&r);

		for (uint64_t k = 0; k < n && r.ok; k++)
			r.ok = ms_get_var(&r) < nr_entries;
		if (r.ok)
			g_hash_table_insert(t, (gpointer)rec, (gpointer)rec);
	}
	/* all or nothing: a cut-short or foreign table is not taken */
	if (!ms_rd_done(&r)) {
		g_hash_table_unref(t);
		g_bytes_unref(saved);
		return;
	}
	map->saved = t;
	map->saved_bytes = saved;
}

int ms_review_map_save(struct ms_review_map *map, struct ms_store *store)
{
	struct ms_store_piece p[2] = { { NULL, 0 }, { NULL, 0 } };
	gsize len = 0;
	int rc;

	if (!store || !map->kkey || !map->fresh->len)
		return 0;
	/* the saved table, then the new answers: not joined first */
	if (map->saved_bytes)
		p[0].data = g_bytes_get_data(map->saved_bytes, &len);
	p[0].len = len;
	p[1] = (struct ms_store_piece){ map->fresh->data, map->fresh->len };
	rc = ms_store_model_putv(store, K_KIND, map->kkey, 1, p, 2);
	if (rc == 0)
		g_byte_array_set_size(map->fresh, 0);
	return rc;
}

/* The SHA-1 of the changed lines of body and attachments. */
static void lines_digest(const GArray *body, const GArray *att,
			 guint8 out[DIGEST_LEN])
{
	GChecksum *c = g_checksum_new(G_CHECKSUM_SHA1);
	gsize len = DIGEST_LEN;
	const GArray *parts[2] = { body, att };

	for (int j = 0; j < 2; j++) {
		for (guint i = 0; i < parts[j]->len; i++) {
			const struct line *l = &g_array_index(parts[j],
							      struct line, i);

			g_checksum_update(c, (const guchar *)l->p,
					  (gssize)l->len);
			g_checksum_update(c, (const guchar *)"\n", 1);
		}
		g_checksum_update(c, (const guchar *)"", 1);
	}
	g_checksum_get_digest(c, out, &len);
	g_checksum_free(c);
}

/* The entries whose K: patterns match message `m`'s changed lines, added
 * to `out`: the saved answer when there is one. */
static void k_entries(struct ms_review_map *map, const struct ms_mail *m,
		      GArray *out)
{
	GArray *body = g_array_new(FALSE, FALSE, sizeof(struct line));
	GArray *att = g_array_new(FALSE, FALSE, sizeof(struct line));
	const unsigned char *r = NULL;
	guint8 d[DIGEST_LEN];
	uint32_t e;

	changed_lines(m->body, body);
	if (m->attached_diff)
		changed_lines(m->attached_diff, att);
	if (map->kkey) {
		lines_digest(body, att, d);
		if (map->saved)
			r = g_hash_table_lookup(map->saved, d);
	}
	if (r) {
		/* checked whole when read: the record ends in the table */
		gsize len;
		const uint8_t *t = g_bytes_get_data(map->saved_bytes, &len);
		struct ms_rd rd = MS_RD_INIT(r + DIGEST_LEN,
					     t + len - (r + DIGEST_LEN));
		uint64_t n = ms_get_var(&rd);

		for (uint64_t i = 0; i < n; i++)
			add_unique(out, (size_t)ms_get_var(&rd));
	} else {
		GArray *hit = g_array_new(FALSE, FALSE, sizeof(uint32_t));
		GString *all = g_string_new(NULL);
		bool limited = false;

		for (guint j = 0; j < body->len + att->len; j++) {
			const struct line *l = j < body->len ?
				&g_array_index(body, struct line, j) :
				&g_array_index(att, struct line, j - body->len);

			g_string_append_len(all, l->p, (gssize)l->len);
			g_string_append_c(all, '\n');
		}
		for (guint i = 0; i < map->kpats->len; i++) {
			struct kpat *k = &g_array_index(map->kpats,
							struct kpat, i);

			if (!maint_k_maybe(k->joined, all->str, all->len) ||
			    (!k_match(k, body, &limited) &&
			     !k_match(k, att, &limited)))
				continue;
			e = (uint32_t)k->entry;
			add_unique(out, k->entry);
			if (!hit->len || g_array_index(hit, uint32_t,
						       hit->len - 1) != e)
				g_array_append_val(hit, e);
		}
		if (map->kkey && !limited) {
			g_byte_array_append(map->fresh, d, DIGEST_LEN);
			ms_put_var(map->fresh, hit->len);
			for (guint i = 0; i < hit->len; i++)
				ms_put_var(map->fresh, g_array_index(
					hit, uint32_t, i));
		}
		g_array_free(hit, TRUE);
		g_string_free(all, TRUE);
	}
	g_array_free(body, TRUE);
	g_array_free(att, TRUE);
}

/* The earlier versions `m` (a cover letter or patch) links to. */
static void record_earlier(struct ms_review_map *map, const struct ms_mail *m,
			   uint32_t rec)
{
	GPtrArray *ids;
	GMatchInfo *mi = NULL;
	/* before the diff: a patch's changelog is above it */
	const char *end = strstr(m->body, "\ndiff --git ");
	gssize len = end ? end - m->body : -1;

	if (!map->earlier_re || !strstr(m->body, "://"))
		return;
	ids = g_ptr_array_new();
	g_regex_match_full(map->earlier_re, m->body, len, 0, 0, &mi, NULL);
	while (g_match_info_matches(mi)) {
		g_ptr_array_add(ids, g_match_info_fetch(mi, 1));
		g_match_info_next(mi, NULL);
	}
	g_match_info_free(mi);
	while (map->earlier->len <= rec)
		g_ptr_array_add(map->earlier, NULL);
	if (ids->len) {
		g_ptr_array_add(ids, NULL);
		map->earlier->pdata[rec] = g_ptr_array_free(ids, FALSE);
	} else {
		g_ptr_array_free(ids, TRUE);
	}
}

char *const *ms_review_map_earlier(const struct ms_review_map *map,
				   uint32_t rec)
{
	return rec < map->earlier->len ? map->earlier->pdata[rec] : NULL;
}

/* Record b4's "base-commit:" footer of posting `rec`, when it has one. */
static void record_base(struct ms_review_map *map, const struct ms_mail *m,
			uint32_t rec)
{
	while (map->base->len <= rec)
		g_ptr_array_add(map->base, NULL);
	for (guint i = 0; m->trailers && i < m->trailers->len; i++) {
		const struct ms_mail_trailer *t = m->trailers->pdata[i];

		if (t->kind == MS_TRAILER_BASE_COMMIT) {
			map->base->pdata[rec] = g_strdup(t->value);
			g_ptr_array_add(map->loaded, map->base->pdata[rec]);
			return;
		}
	}
}

const char *ms_review_map_base(const struct ms_review_map *map, uint32_t rec)
{
	return rec < map->base->len ? map->base->pdata[rec] : NULL;
}

void ms_review_map_hook(const struct ms_mail *m, uint32_t rec, void *data)
{
	struct ms_review_map *map = data;
	GArray *out;

	if ((m->kind == MS_MAIL_COVER || m->kind == MS_MAIL_PATCH) && m->body)
		record_earlier(map, m, rec);
	if (m->kind == MS_MAIL_COVER || (m->has_diff &&
					 m->kind == MS_MAIL_PATCH)) {
		/* a cover letter's too: it names its series' project */
		while (map->foreign->len <= rec)
			g_ptr_array_add(map->foreign, NULL);
		map->foreign->pdata[rec] = (gpointer)ms_mail_foreign_project(
			&m->subject, m->subject_raw, map->foreign_re);
		record_base(map, m, rec);
	}
	if (!m->has_diff || m->kind != MS_MAIL_PATCH)
		return;
	record_lists(map, m, rec);
	out = g_array_new(FALSE, FALSE, sizeof(size_t));
	for (guint i = 0; m->files && i < m->files->len; i++)
		map_path(map, m->files->pdata[i], out);
	if (m->body && map->kpats->len)
		k_entries(map, m, out);
	g_array_sort(out, cmp_size);
	while (map->recs->len <= rec)
		g_ptr_array_add(map->recs, NULL);
	if (out->len) {
		map->recs->pdata[rec] = out;
	} else {
		g_array_free(out, TRUE);
	}
}

const GArray *ms_review_map_entries(const struct ms_review_map *map,
				    uint32_t rec)
{
	return rec < map->recs->len ? map->recs->pdata[rec] : NULL;
}

/* Entry `ix`'s M: and R: people with an address, as `ident` resolves
 * them: once per run, for each notice asks (13 resolutions a notice on
 * linux-watchdog's epoch). */
static const GArray *entry_people(const struct ms_review_map *map,
				  size_t ix, struct ms_ident *ident)
{
	const struct maint_entry *e = maint_file_entry(map->mf, ix);
	GArray *p;

	/* an index past the entries has none (maint_file_entry()) */
	if (!e || ix >= map->people->len)
		return NULL;
	p = map->people->pdata[ix];
	if (p)
		return p;
	p = g_array_new(FALSE, FALSE, sizeof(unsigned));
	for (size_t f = 0; f < e->nr_fields; f++) {
		char *name = NULL, *email = NULL;
		unsigned id;

		if (e->fields[f].key != 'M' && e->fields[f].key != 'R')
			continue;
		maint_parse_person(e->fields[f].value, &name, &email);
		if (email) {
			id = ms_ident_resolve(ident, name, email);
			g_array_append_val(p, id);
		}
		g_free(name);
		g_free(email);
	}
	map->people->pdata[ix] = p;
	return p;
}

bool ms_review_map_listed(const struct ms_review_map *map, uint32_t rec,
			  struct ms_ident *ident, const struct ms_mail_rec *r)
{
	const GArray *es = ms_review_map_entries(map, rec);
	unsigned who = ms_ident_resolve(ident, r->sender_name,
					r->sender_email);

	for (guint i = 0; es && i < es->len && who != MS_IDENT_NONE; i++) {
		const GArray *p = entry_people(map,
			g_array_index(es, size_t, i), ident);

		for (guint k = 0; p && k < p->len; k++)
			if (g_array_index(p, unsigned, k) == who)
				return true;
	}
	return false;
}

/* ---- the answers kept with the mail snapshot ---- */

/*
 * What the hook derived from the records read so far (their entries,
 * sibling project, lists and earlier versions: everything it takes from
 * their bodies) is kept with link.c's mail snapshot, so that a warm run
 * hands the hook only the records after it.  Its key: the format, GLib
 * (the regex engine), maint_index_fingerprint() (MAINTAINERS and the
 * tree's answers to the F: patterns' questions), the K: patterns
 * (k_key()) and --foreign-subject.  Bump MAP_FORMAT whenever the hook,
 * or what it calls (ms_mail_foreign_project(), ms_mail_recipients()),
 * changes what it derives.
 */
#define MAP_FORMAT "review-map 3"

static char *map_key(const struct ms_review_map *map)
{
	GChecksum *c = g_checksum_new(G_CHECKSUM_SHA256);
	char *fp = maint_index_fingerprint(map->idx), *k = k_key(map), *key;
	const char *re = map->foreign_re ?
			 g_regex_get_pattern(map->foreign_re) : "";

	g_checksum_update(c, (const guchar *)MAP_FORMAT, sizeof(MAP_FORMAT));
	g_checksum_update(c, (const guchar *)fp, (gssize)strlen(fp) + 1);
	g_checksum_update(c, (const guchar *)k, (gssize)strlen(k) + 1);
	g_checksum_update(c, (const guchar *)(map->foreign_re ? "1" : "0"),
			  1);
	g_checksum_update(c, (const guchar *)re, (gssize)strlen(re) + 1);
	key = g_strdup(g_checksum_get_string(c));
	g_checksum_free(c);
	g_free(fp);
	g_free(k);
	return key;
}

static const void *rec_of(const GPtrArray *a, guint rec)
{
	return rec < a->len ? a->pdata[rec] : NULL;
}

bool ms_review_map_dump(GByteArray *out, void *data)
{
	struct ms_review_map *map = data;
	guint n = MAX(MAX(map->recs->len, map->foreign->len),
		      MAX(map->rcpts->len, map->earlier->len));
	char *key;

	n = MAX(n, map->base->len);

	/* a pattern that hit the match limits is reported by the run that
	 * matches it: such answers are not kept */
	if (maint_index_limit_hits(map->idx))
		return false;
	for (guint i = 0; i < map->kpats->len; i++)
		if (g_atomic_int_get(&g_array_index(map->kpats, struct kpat,
						    i).limit_hits))
			return false;
	key = map_key(map);
	ms_put_str(out, key);
	g_free(key);
	ms_put_var(out, map->lists->len);
	for (guint i = 0; i < map->lists->len; i++)
		ms_put_str(out, map->lists->pdata[i]);
	ms_put_var(out, n);
	for (guint i = 0; i < n; i++) {
		const GArray *es = rec_of(map->recs, i);
		const struct ms_rv_rcpts *r = rec_of(map->rcpts, i);
		char *const *ids = rec_of(map->earlier, i);

		ms_put_var(out, es ? es->len : 0);
		for (guint k = 0; es && k < es->len; k++)
			ms_put_var(out, g_array_index(es, size_t, k));
		ms_put_opt(out, rec_of(map->foreign, i));
		ms_put_opt(out, rec_of(map->base, i));
		ms_put_var(out, r ? r->n + 1 : 0);
		if (r) {
			ms_put_svar(out, r->own);
			for (uint32_t k = 0; k < r->n; k++)
				ms_put_var(out, r->ix[k]);
		}
		ms_put_var(out, ids ? g_strv_length((char **)ids) : 0);
		for (guint k = 0; ids && ids[k]; k++)
			ms_put_str(out, ids[k]);
	}
	return true;
}

/* Forget every record's answers (the map as ms_review_map_new() made
 * it, but for the K: answers read from the store). */
static void map_reset(struct ms_review_map *map)
{
	for (guint i = 0; i < map->recs->len; i++)
		if (map->recs->pdata[i])
			g_array_free(map->recs->pdata[i], TRUE);
	g_ptr_array_set_size(map->recs, 0);
	g_ptr_array_set_size(map->foreign, 0);
	g_ptr_array_set_size(map->base, 0);
	g_ptr_array_set_size(map->rcpts, 0);
	g_ptr_array_set_size(map->earlier, 0);
	g_ptr_array_set_size(map->loaded, 0);
	for (guint i = map->nr_named; i < map->lists->len; i++)
		g_hash_table_remove(map->list_ix, map->lists->pdata[i]);
	g_ptr_array_set_size(map->lists, map->nr_named);
	for (guint i = 0; i < map->kpats->len; i++)
		g_atomic_int_set(&g_array_index(map->kpats, struct kpat,
						i).limit_hits, 0);
	if (map->fresh)
		g_byte_array_set_size(map->fresh, 0);
}

/* One record of ms_review_map_dump() into `map` (at the end of its
 * arrays). */
static void load_rec(struct ms_review_map *map, struct ms_rd *r)
{
	size_t nr_entries = maint_file_nr_entries(map->mf);
	uint64_t n = ms_get_var(r);
	GArray *es = NULL;
	struct ms_rv_rcpts *rc = NULL;
	GPtrArray *ids = NULL;
	char *s;

	for (uint64_t k = 0; k < n && r->ok; k++) {
		size_t e = (size_t)ms_get_var(r);

		r->ok = r->ok && e < nr_entries;
		es = es ? es : g_array_sized_new(FALSE, FALSE, sizeof(size_t),
						 (guint)MIN(n, 16));
		g_array_append_val(es, e);
	}
	g_ptr_array_add(map->recs, es);
	s = ms_get_opt(r);
	if (s)
		g_ptr_array_add(map->loaded, s);
	g_ptr_array_add(map->foreign, s);
	s = ms_get_opt(r);
	if (s)
		g_ptr_array_add(map->loaded, s);
	g_ptr_array_add(map->base, s);
	n = ms_get_var(r);
	if (n && r->ok && n - 1 <= (uint64_t)(r->end - r->p)) {
		rc = g_malloc(sizeof(*rc) + (n - 1) * sizeof(uint32_t));
		rc->own = (int32_t)ms_get_svar(r);
		rc->n = (uint32_t)(n - 1);
		r->ok = r->ok && rc->own >= -1 &&
			rc->own < (int32_t)map->lists->len;
		for (uint32_t k = 0; k < rc->n; k++) {
			rc->ix[k] = (uint32_t)ms_get_var(r);
			r->ok = r->ok && rc->ix[k] >> 1 < map->lists->len;
		}
	} else if (n) {
		r->ok = false;
	}
	g_ptr_array_add(map->rcpts, rc);
	n = ms_get_var(r);
	for (uint64_t k = 0; k < n && r->ok; k++) {
		char *id = ms_get_str(r);

		r->ok = r->ok && id;
		ids = ids ? ids : g_ptr_array_new();
		if (id)
			g_ptr_array_add(ids, id);
	}
	if (ids)
		g_ptr_array_add(ids, NULL);
	g_ptr_array_add(map->earlier, ids ? g_ptr_array_free(ids, FALSE) :
			NULL);
}

bool ms_review_map_load(const uint8_t *p, size_t len, void *data)
{
	struct ms_review_map *map = data;
	struct ms_rd r = MS_RD_INIT(p, len);
	char *key, *want;
	uint64_t n;

	map_reset(map);
	if (!p)
		return true;
	key = ms_get_str(&r);
	want = map_key(map);
	r.ok = r.ok && !g_strcmp0(key, want);
	g_free(key);
	g_free(want);
	n = ms_get_var(&r);
	/* the lists MAINTAINERS names first, as named_lists() made them */
	for (uint64_t i = 0; i < n && r.ok; i++) {
		char *a = ms_get_str(&r);

		if (!a || (i < map->nr_named ?
			   strcmp(a, map->lists->pdata[i]) != 0 :
			   g_hash_table_contains(map->list_ix, a))) {
			r.ok = false;
			g_free(a);
		} else if (i < map->nr_named) {
			g_free(a);
		} else {
			list_index(map, a);
		}
	}
	r.ok = r.ok && n >= map->nr_named;
	n = r.ok ? ms_get_var(&r) : 0;
	for (uint64_t i = 0; i < n && r.ok; i++)
		load_rec(map, &r);
	if (!ms_rd_done(&r)) {
		map_reset(map);
		return false;
	}
	return true;
}
