/*
 * link.c - linking commits to the messages that posted them (link.h).
 */
#include "link-internal.h"
#include "history.h"
#include "ident.h"
#include "patchid.h"
#include "person.h"
#include "store.h"

#include <string.h>

#define DAY 86400
/* A posting more than this before its commit is not matched by subject. */
#define SUBJECT_WINDOW (2 * 365 * DAY)
/* Tolerated clock skew between a posting and its commit: a posting dated
 * this much after the commit date still counts as posted before it. */
#define SKEW 3600

/* ---- linking ---- */

const char *ms_link_method_name(enum ms_link_method m)
{
	switch (m) {
	case MS_LINK_TRAILER: return "link-trailer";
	case MS_LINK_MSGID_TRAILER: return "message-id-trailer";
	case MS_LINK_PATCH_ID: return "patch-id";
	case MS_LINK_SUBJECT: return "subject";
	case MS_LINK_AUTHOR_DATE: return "author-date";
	default: return "unknown";
	}
}

void ms_link_evidence_names(unsigned evidence,
			    void (*fn)(const char *name, void *data),
			    void *data)
{
	static const char *const names[] = {
		"patch-id", "author-date", "subject", "author", "files",
	};

	for (unsigned i = 0; i < G_N_ELEMENTS(names); i++)
		if (evidence & (1u << i))
			fn(names[i], data);
}

#define NONE UINT32_MAX             /* no key */
#define UNSET (UINT32_MAX - 1)      /* key not computed yet */
#define UNKNOWN (UINT32_MAX - 2)    /* subject_id(): not among the keys */

/*
 * Records grouped by a key: group g holds recs[start[g] .. start[g + 1])
 * in increasing record order, the order candidates are tried in (ties
 * go to the first one).  One flat array for all keys rather than an
 * array per key: every run groups every posting four ways.
 */
struct groups {
	uint32_t *start;            /* nr + 1 offsets into recs */
	uint32_t *recs;
	uint32_t nr;
};

/* The records of one group (borrowed); len 0 when there are none. */
struct span {
	const uint32_t *v;
	uint32_t len;
};

/* Group records 0 .. n-1 by gid[i] (below nr, or NONE): a counting sort. */
static void groups_build(struct groups *g, const uint32_t *gid, size_t n,
			 uint32_t nr)
{
	g->nr = nr;
	g->start = g_new0(uint32_t, (gsize)nr + 1);
	for (size_t i = 0; i < n; i++)
		if (gid[i] < nr)
			g->start[gid[i]]++;
	for (uint32_t k = 1; k < nr; k++)
		g->start[k] += g->start[k - 1];
	g->start[nr] = nr ? g->start[nr - 1] : 0;
	g->recs = g_new(uint32_t, g->start[nr] ? g->start[nr] : 1);
	/* start[k] is now the end of group k: filling backwards leaves it
	 * at the group's beginning, records in increasing order */
	for (size_t i = n; i-- > 0;)
		if (gid[i] < nr)
			g->recs[--g->start[gid[i]]] = (uint32_t)i;
}

static struct span groups_get(const struct groups *g, uint32_t id)
{
	struct span s = { NULL, 0 };

	if (id < g->nr) {
		s.v = g->recs + g->start[id];
		s.len = g->start[id + 1] - g->start[id];
	}
	return s;
}

static void groups_release(struct groups *g)
{
	g_free(g->start);
	g_free(g->recs);
}

struct matcher {
	const struct ms_link_mail *lm;
	const struct ms_mail_index *idx;
	const struct ms_mail_rec *recs;  /* record 0 of the index's array */
	size_t n;
	/* postings (is_posting()) by key; the tables map a key to its
	 * group + 1 */
	GHashTable *patch_ids;      /* patch-id (borrowed) */
	GHashTable *senders;        /* sender address (borrowed) */
	GHashTable *dates;          /* gint64 * into date_keys */
	gint64 *date_keys;
	uint32_t *patch_id_of;      /* posting -> by_patch_id group, NONE */
	struct groups by_patch_id, by_sender, by_subject, by_date;
	/* subject keys (subject_key()), interned: equal keys, equal ids;
	 * ids below by_subject.nr are those of postings */
	GHashTable *subjects;       /* key text -> id + 1 */
	GPtrArray *key_text;        /* id -> key text */
	uint32_t *subject_of;       /* record -> key id, NONE or UNSET */
	/* record -> folded sender name (fold_name()), NULL until needed */
	const char **name_of;
	GStringChunk *strings;      /* the text of keys and folded names */
	GString *buf;
	/* earlier_versions(): records seen in the current call */
	uint32_t *seen, stamp;
	/* the subject keys are shared by matching threads: none is added
	 * (rec_subject() looks a record's up without keeping it) */
	bool frozen;
	const struct ms_link_people *people;  /* NULL: none */
};

/* A posting carrying a diff: what a commit can be linked to by content. */
static bool is_posting(const struct ms_mail_rec *r)
{
	return !r->duplicate && r->patch_id && *r->patch_id &&
	       (r->kind == MS_MAIL_PATCH || r->kind == MS_MAIL_OTHER);
}

static bool is_ascii(const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if ((unsigned char)s[i] >= 0x80)
			return false;
	return true;
}

/*
 * Append ms_casefold(s, n) to `out`.  ASCII text (nearly all of it)
 * folds to its lowercase without allocating: Unicode case folding maps
 * only A-Z among ASCII characters.
 */
static void casefold_into(GString *out, const char *s, size_t n)
{
	if (is_ascii(s, n)) {
		size_t at = out->len;

		g_string_append_len(out, s, (gssize)n);
		for (size_t i = at; i < out->len; i++)
			out->str[i] = g_ascii_tolower(out->str[i]);
	} else {
		char *f = ms_casefold(s, (gssize)n);

		g_string_append(out, f);
		g_free(f);
	}
}

/*
 * The id of the form subjects are compared in: casefolded, without
 * trailing dots and blanks (maintainers drop a final '.' on the way in).
 */
static uint32_t subject_id(struct matcher *m, const char *s)
{
	gpointer v;
	const char *k;

	g_string_truncate(m->buf, 0);
	casefold_into(m->buf, s, strlen(s));
	while (m->buf->len && (m->buf->str[m->buf->len - 1] == '.' ||
			       m->buf->str[m->buf->len - 1] == ' '))
		g_string_truncate(m->buf, m->buf->len - 1);
	v = g_hash_table_lookup(m->subjects, m->buf->str);
	if (v)
		return GPOINTER_TO_UINT(v) - 1;
	/* a key no posting and no commit has: equal to none of theirs,
	 * and of no group (ids of postings are below by_subject.nr) */
	if (m->frozen)
		return UNKNOWN;
	k = g_string_chunk_insert_len(m->strings, m->buf->str,
				      (gssize)m->buf->len);
	g_ptr_array_add(m->key_text, (gpointer)k);
	g_hash_table_insert(m->subjects, (gpointer)k,
			    GUINT_TO_POINTER(m->key_text->len));
	return m->key_text->len - 1;
}

/* A subject's key id; NONE for no subject (never equal to another). */
static uint32_t subject_id_or_none(struct matcher *m, const char *s)
{
	return s && *s ? subject_id(m, s) : NONE;
}

static uint32_t rec_subject(struct matcher *m, uint32_t rec)
{
	if (m->subject_of[rec] != UNSET)
		return m->subject_of[rec];
	/* shared by threads: a record no posting (matcher_init() keyed
	 * those), found by a trailer, is looked up each time */
	if (m->frozen)
		return subject_id_or_none(m, m->recs[rec].subject);
	m->subject_of[rec] = subject_id_or_none(m, m->recs[rec].subject);
	return m->subject_of[rec];
}

/*
 * A name as same_name() compares it: casefolded, without the " via LIST"
 * a mailing list's DMARC rewriting appends (such From: lines end up as
 * commit authors); NULL for no name.  Kept in m->strings.
 */
static const char *fold_name(struct matcher *m, const char *name)
{
	const char *via;

	if (!name || !*name)
		return NULL;
	via = strstr(name, " via ");
	g_string_truncate(m->buf, 0);
	casefold_into(m->buf, name, via ? (size_t)(via - name) : strlen(name));
	return g_string_chunk_insert_len(m->strings, m->buf->str,
					 (gssize)m->buf->len);
}

static const char no_name[] = "";

static const char *rec_name(struct matcher *m, uint32_t rec)
{
	if (!m->name_of[rec]) {
		const char *f = fold_name(m, m->recs[rec].sender_name);

		m->name_of[rec] = f ? f : no_name;
	}
	return m->name_of[rec] == no_name ? NULL : m->name_of[rec];
}

/* Whether folded names `fa` and `fb` are one name (g_utf8_collate). */
static bool same_name(const char *fa, const char *fb)
{
	size_t la, lb;

	if (!fa || !fb || !*fa)
		return false;
	if (!strcmp(fa, fb))
		return true;
	/* distinct ASCII strings never collate equal in the C collation
	 * (the CLI sets only LC_CTYPE): spare g_utf8_collate() its
	 * normalizing copies */
	la = strlen(fa);
	lb = strlen(fb);
	if (is_ascii(fa, la) && is_ascii(fb, lb))
		return false;
	return !g_utf8_collate(fa, fb);
}

/* What the matcher compares of a commit, computed once. */
struct ckey {
	const struct ms_link_commit *c;
	uint32_t subject;           /* subject key id, or NONE */
	const char *author, *committer;  /* fold_name() */
	unsigned author_p, committer_p;  /* ms_link_people groups */
	bool self;                  /* self_committed() */
	GHashTable *paths;          /* c->paths as a set, once needed */
	/* common_files() of record `memo_rec` (NONE: none yet), as the
	 * method that found it counted them: evidence() asks again */
	uint32_t memo_rec;
	size_t memo_common;
};

/* How many of `files` the commit touches (each counted once per
 * occurrence in `files`). */
static size_t common_files(const GPtrArray *files, struct ckey *k)
{
	char *const *paths = k->c->paths;
	size_t nr_paths = k->c->nr_paths, n = 0;

	if (!files)
		return 0;
	/* a tree-wide posting against a tree-wide commit: a set of the
	 * commit's paths rather than every pair */
	if ((size_t)files->len * nr_paths > 64) {
		if (!k->paths) {
			k->paths = g_hash_table_new(g_str_hash, g_str_equal);
			for (size_t j = 0; j < nr_paths; j++)
				g_hash_table_add(k->paths, paths[j]);
		}
		for (guint i = 0; i < files->len; i++)
			if (g_hash_table_contains(k->paths, files->pdata[i]))
				n++;
		return n;
	}
	for (guint i = 0; i < files->len; i++)
		for (size_t j = 0; j < nr_paths; j++)
			if (!strcmp(files->pdata[i], paths[j])) {
				n++;
				break;
			}
	return n;
}

/* Whether the sender of `rec` is person `p` (a ms_link_people group)
 * through the identity model. */
static bool same_person(const struct matcher *m, uint32_t rec, unsigned p)
{
	return m->people && p != MS_IDENT_NONE && rec < m->people->nr_recs &&
	       m->people->sender[rec] == p;
}

/* Whether the sender is the author: 1 by address or name, 2 only through
 * a join of the identity model (another address of the author's), 0
 * not. */
static int same_author(struct matcher *m, uint32_t rec,
		       const struct ckey *k)
{
	const struct ms_mail_rec *r = &m->recs[rec];

	if (r->sender_email && *k->c->author_email &&
	    !g_ascii_strcasecmp(r->sender_email, k->c->author_email))
		return 1;
	if (same_name(rec_name(m, rec), k->author))
		return 1;
	return same_person(m, rec, k->author_p) ? 2 : 0;
}

/* The sender is the committer: a maintainer posting someone's patch
 * (its author named in an in-body From:) that they then apply. */
static bool same_committer(struct matcher *m, uint32_t rec,
			   const struct ckey *k)
{
	const struct ms_mail_rec *r = &m->recs[rec];

	if (r->sender_email && *k->c->committer_email &&
	    !g_ascii_strcasecmp(r->sender_email, k->c->committer_email))
		return true;
	return same_name(rec_name(m, rec), k->committer) ||
	       same_person(m, rec, k->committer_p);
}

static bool exact_date(const struct ms_mail_rec *r,
		       const struct ms_link_commit *c)
{
	return r->date_valid && r->date == c->author_time;
}

/*
 * Whether the author committed the change themselves.  Then the author
 * date is when they first wrote it (rebases keep it), not the Date of
 * the posting `git am` applied, so it names their first posting rather
 * than the applied version.
 */
static bool self_committed(const struct ckey *k)
{
	if (*k->c->author_email &&
	    !strcmp(k->c->author_email, k->c->committer_email))
		return true;
	return same_name(k->author, k->committer);
}

static void ckey_init(struct matcher *m, struct ckey *k,
		      const struct ms_link_commit *c, guint ci)
{
	const struct ms_link_people *p = m->people;
	bool known = p && ci < p->nr_commits;

	k->c = c;
	k->author_p = known ? p->author[ci] : MS_IDENT_NONE;
	k->committer_p = known ? p->committer[ci] : MS_IDENT_NONE;
	k->paths = NULL;
	k->memo_rec = NONE;
	k->subject = subject_id_or_none(m, c->subject);
	k->author = fold_name(m, c->author_name);
	k->committer = fold_name(m, c->committer_name);
	k->self = self_committed(k);
}

/*
 * The applied posting among candidates, the first of:
 * - when someone else committed it and the candidates share a patch-id
 *   (not only a subject): the committer's own newest posting, no later
 *   than the commit date (plus SKEW) and not before the author date.  A
 *   maintainer who reposts a patch (say inside a series of his) pushes
 *   what he posted; git am kept the author's Date, so the author's
 *   posting is the one at the author date;
 * - when someone else committed it: the one dated exactly at the
 *   commit's author date (git am keeps the posting's Date);
 * - the newest posted no later than the commit date (plus SKEW);
 * - the oldest after it.
 * With `by_subject`, only the author's (or the committer's) postings
 * within SUBJECT_WINDOW whose files overlap the commit's (when both are
 * known), the best overlap first.
 */
static int64_t pick(struct matcher *m, struct span cand,
		    struct ckey *k, bool by_subject)
{
	const struct ms_link_commit *c = k->c;
	int64_t best = -1, after = -1, exact = -1, repost = -1;
	int64_t best_date = 0, after_date = 0, repost_date = 0;
	size_t best_common = 0, exact_common = 0;

	for (uint32_t i = 0; i < cand.len; i++) {
		uint32_t rec = cand.v[i];
		const struct ms_mail_rec *r = &m->recs[rec];
		int64_t d = r->date_valid ? r->date : 0;
		size_t common = 0;

		if (by_subject) {
			const GPtrArray *f = ms_link_mail_files(m->lm, rec);

			if (!same_author(m, rec, k) &&
			    !same_committer(m, rec, k))
				continue;
			if (d < c->commit_time - SUBJECT_WINDOW)
				continue;
			common = common_files(f, k);
			if (f && f->len && c->nr_paths && !common)
				continue;
		}
		if (!k->self && !by_subject && r->date_valid &&
		    d <= c->commit_time + SKEW && same_committer(m, rec, k) &&
		    (repost < 0 || d > repost_date)) {
			repost = rec;
			repost_date = d;
		}
		if (exact_date(r, c) && !k->self) {
			if (exact < 0 || common > exact_common) {
				exact = rec;
				exact_common = common;
			}
		} else if (d <= c->commit_time + SKEW) {
			if (best < 0 || common > best_common ||
			    (common == best_common && d > best_date)) {
				best = rec;
				best_date = d;
				best_common = common;
			}
		} else if (after < 0 || d < after_date) {
			after = rec;
			after_date = d;
		}
	}
	if (by_subject && exact >= 0) {
		k->memo_rec = (uint32_t)exact;
		k->memo_common = exact_common;
	} else if (by_subject && best >= 0) {
		k->memo_rec = (uint32_t)best;
		k->memo_common = best_common;
	}
	if (repost >= 0 && repost_date >= c->author_time)
		return repost;
	if (exact >= 0)
		return exact;
	return best >= 0 ? best : after;
}

/* The group of `key` in `h` (key -> group + 1); empty when absent. */
static struct span lookup(GHashTable *h, const struct groups *g,
			  gconstpointer key)
{
	gpointer v = g_hash_table_lookup(h, key);

	return groups_get(g, v ? GPOINTER_TO_UINT(v) - 1 : NONE);
}

/* Whether postings `a` and `b` are patches of one series posting
 * (siblings, never versions of each other: a series of seven patches
 * all named "lib: silence INTEGER_OVERFLOW"). */
static bool siblings(const struct ms_mail_rec *a, const struct ms_mail_rec *b)
{
	return a != b && a->series >= 0 && a->series == b->series;
}

/* The postings that may be other versions of `r`: those with its subject
 * key (lists[0]) and those with its patch-id (lists[1]). */
static void version_lists(struct matcher *m, uint32_t rec,
			  struct span lists[2])
{
	const struct ms_mail_rec *r = &m->recs[rec];

	lists[0] = groups_get(&m->by_subject, rec_subject(m, rec));
	lists[1] = groups_get(&m->by_patch_id, m->patch_id_of[rec]);
	if (m->patch_id_of[rec] == NONE && r->patch_id)
		lists[1] = lookup(m->patch_ids, &m->by_patch_id, r->patch_id);
}

/*
 * The newest later version of posting `rec` (same patch-id, or same
 * sender and subject) posted no later than the commit date plus SKEW;
 * `rec` itself when there is none.
 */
static uint32_t latest_version(struct matcher *m, uint32_t rec,
			       const struct ms_link_commit *c)
{
	const struct ms_mail_rec *r = &m->recs[rec];
	struct span lists[2];
	uint32_t best = rec;
	int64_t best_date = r->date;

	version_lists(m, rec, lists);
	for (int l = 0; l < 2; l++)
		for (uint32_t i = 0; i < lists[l].len; i++) {
			uint32_t o = lists[l].v[i];
			const struct ms_mail_rec *or = &m->recs[o];

			if (!or->date_valid || or->date <= best_date ||
			    or->date > c->commit_time + SKEW ||
			    siblings(r, or))
				continue;
			if (l == 0 && !(or->sender_email && r->sender_email &&
					!strcmp(or->sender_email,
						r->sender_email)))
				continue;
			best = o;
			best_date = or->date;
		}
	return best;
}

/*
 * A posting dated exactly at the commit's author date, confirmed by an
 * equal subject, a touched file in common or the same sender: the
 * subject best, then files, then the sender.  Disjoint files (when both
 * sides name some) reject a candidate unless the subjects are equal.
 */
static int64_t by_author_date(struct matcher *m, struct ckey *k)
{
	const struct ms_link_commit *c = k->c;
	gint64 key = c->author_time;
	struct span cand = lookup(m->dates, &m->by_date, &key);
	int64_t best = -1;
	unsigned best_score = 0;
	size_t best_common = 0;

	for (uint32_t i = 0; i < cand.len; i++) {
		uint32_t rec = cand.v[i];
		const GPtrArray *f = ms_link_mail_files(m->lm, rec);
		size_t common = common_files(f, k);
		bool subj = k->subject != NONE &&
			    rec_subject(m, rec) == k->subject;
		unsigned score = (subj ? 4 : 0) + (common ? 2 : 0) +
				 (same_author(m, rec, k) ? 1 : 0);

		if (!score)
			continue;
		if (!subj && f && f->len && c->nr_paths && !common)
			continue;
		if (score > best_score ||
		    (score == best_score && common > best_common)) {
			best = rec;
			best_score = score;
			best_common = common;
		}
	}
	if (best >= 0) {
		k->memo_rec = (uint32_t)best;
		k->memo_common = best_common;
	}
	return best;
}

static unsigned evidence(struct matcher *m, uint32_t rec,
			 struct ckey *k)
{
	const struct ms_link_commit *c = k->c;
	const struct ms_mail_rec *r = &m->recs[rec];
	unsigned ev = 0;

	if (r->patch_id && *c->patch_id && !strcmp(r->patch_id, c->patch_id))
		ev |= MS_LINK_EV_PATCH_ID;
	if (exact_date(r, c))
		ev |= MS_LINK_EV_AUTHOR_DATE;
	if (k->subject != NONE && rec_subject(m, rec) == k->subject)
		ev |= MS_LINK_EV_SUBJECT;
	switch (same_author(m, rec, k)) {
	case 2:
		ev |= MS_LINK_EV_AUTHOR_JOINED;
		/* fall through */
	case 1:
		ev |= MS_LINK_EV_AUTHOR;
		break;
	}
	if (rec == k->memo_rec ? k->memo_common != 0 :
	    common_files(ms_link_mail_files(m->lm, rec), k) != 0)
		ev |= MS_LINK_EV_FILES;
	return ev;
}

static int cmp_by_date(gconstpointer a, gconstpointer b, gpointer data)
{
	const struct ms_mail_rec *recs = data;
	const struct ms_mail_rec *ra = &recs[*(const uint32_t *)a];
	const struct ms_mail_rec *rb = &recs[*(const uint32_t *)b];

	return (ra->date > rb->date) - (ra->date < rb->date);
}

/* The earlier postings of the patch applied as `rec`. */
static GArray *earlier_versions(struct matcher *m, uint32_t rec)
{
	const struct ms_mail_rec *r = &m->recs[rec];
	GArray *out = g_array_new(FALSE, FALSE, sizeof(uint32_t));
	struct span lists[2];

	if (++m->stamp == 0) {
		memset(m->seen, 0, m->n * sizeof(*m->seen));
		m->stamp = 1;
	}
	version_lists(m, rec, lists);
	for (int l = 0; l < 2; l++)
		for (uint32_t i = 0; i < lists[l].len; i++) {
			uint32_t o = lists[l].v[i];
			const struct ms_mail_rec *or = &m->recs[o];

			if (o == rec || or->date > r->date ||
			    siblings(r, or))
				continue;
			if (l == 0 && !(or->sender_email && r->sender_email &&
					!strcmp(or->sender_email,
						r->sender_email)))
				continue;
			if (m->seen[o] == m->stamp)
				continue;
			m->seen[o] = m->stamp;
			g_array_append_val(out, o);
		}
	/* stable: postings of one date stay in record order */
	g_array_sort_with_data(out, cmp_by_date, (gpointer)m->recs);
	return out;
}

static int64_t by_trailer_ids(const struct matcher *m, char *const *ids,
			      size_t nr_ids)
{
	for (size_t i = 0; i < nr_ids; i++) {
		const struct ms_mail_rec *r =
			ms_mail_index_find(m->idx, ids[i]);

		if (r) {
			uint32_t rec = (uint32_t)(r - m->recs);

			g_assert(ms_mail_index_get(m->idx, rec) == r);
			return rec;
		}
	}
	return -1;
}

/* The group of `key` in `h` (key -> group + 1), a new group when absent;
 * `key` must live as long as the table. */
static uint32_t group_of(GHashTable *h, gpointer key, uint32_t *nr)
{
	gpointer v = g_hash_table_lookup(h, key);

	if (v)
		return GPOINTER_TO_UINT(v) - 1;
	g_hash_table_insert(h, key, GUINT_TO_POINTER(++*nr));
	return *nr - 1;
}

static void matcher_init(struct matcher *m, const struct ms_link_mail *lm)
{
	size_t n = ms_mail_index_count(lm->idx);
	uint32_t *gid = g_new(uint32_t, 4 * (n ? n : 1));
	uint32_t *pid = gid, *snd = gid + n, *sub = gid + 2 * n,
		 *day = gid + 3 * n;
	uint32_t nr_pid = 0, nr_snd = 0, nr_day = 0;

	m->lm = lm;
	m->idx = lm->idx;
	m->recs = n ? ms_mail_index_get(lm->idx, 0) : NULL;
	m->n = n;
	m->patch_ids = g_hash_table_new(g_str_hash, g_str_equal);
	m->senders = g_hash_table_new(g_str_hash, g_str_equal);
	m->dates = g_hash_table_new(g_int64_hash, g_int64_equal);
	m->date_keys = g_new(gint64, n ? n : 1);
	m->subjects = g_hash_table_new(g_str_hash, g_str_equal);
	m->key_text = g_ptr_array_new();
	m->subject_of = g_new(uint32_t, n ? n : 1);
	m->name_of = g_new0(const char *, n ? n : 1);
	m->strings = g_string_chunk_new(64 * 1024);
	m->buf = g_string_sized_new(256);
	m->seen = g_new0(uint32_t, n ? n : 1);
	m->stamp = 0;
	m->frozen = false;
	for (size_t i = 0; i < n; i++) {
		const struct ms_mail_rec *r = &m->recs[i];

		g_assert(ms_mail_index_get(lm->idx, (uint32_t)i) == r);
		m->subject_of[i] = UNSET;
		pid[i] = snd[i] = sub[i] = day[i] = NONE;
		if (!is_posting(r))
			continue;
		pid[i] = group_of(m->patch_ids, (gpointer)r->patch_id,
				  &nr_pid);
		if (r->sender_email)
			snd[i] = group_of(m->senders,
					  (gpointer)r->sender_email, &nr_snd);
		sub[i] = rec_subject(m, (uint32_t)i);
		if (r->date_valid) {
			gint64 key = r->date;
			gpointer v = g_hash_table_lookup(m->dates, &key);

			if (v) {
				day[i] = GPOINTER_TO_UINT(v) - 1;
			} else {
				m->date_keys[nr_day] = key;
				g_hash_table_insert(m->dates,
						    &m->date_keys[nr_day],
						    GUINT_TO_POINTER(nr_day +
								     1));
				day[i] = nr_day++;
			}
		}
	}
	groups_build(&m->by_patch_id, pid, n, nr_pid);
	groups_build(&m->by_sender, snd, n, nr_snd);
	/* only postings have subject keys yet: ids below this are theirs */
	groups_build(&m->by_subject, sub, n, m->key_text->len);
	groups_build(&m->by_date, day, n, nr_day);
	/* kept: version_lists() reads it */
	m->patch_id_of = g_renew(uint32_t, gid, n ? n : 1);
}

static void matcher_release(struct matcher *m)
{
	g_hash_table_unref(m->patch_ids);
	g_hash_table_unref(m->senders);
	g_hash_table_unref(m->dates);
	g_free(m->date_keys);
	g_free(m->patch_id_of);
	groups_release(&m->by_patch_id);
	groups_release(&m->by_sender);
	groups_release(&m->by_subject);
	groups_release(&m->by_date);
	g_hash_table_unref(m->subjects);
	g_ptr_array_unref(m->key_text);
	g_free(m->subject_of);
	g_free(m->name_of);
	g_string_chunk_free(m->strings);
	g_string_free(m->buf, TRUE);
	g_free(m->seen);
}

/* The words of a subject key (split on blanks), as a set. */
static GHashTable *subject_words(const char *key)
{
	GHashTable *set = g_hash_table_new_full(g_str_hash, g_str_equal,
						g_free, NULL);
	char **words = g_strsplit_set(key, " \t", -1);

	for (char **w = words; *w; w++)
		if (**w)
			g_hash_table_add(set, g_strdup(*w));
	g_strfreev(words);
	return set;
}

/* Jaccard similarity of two word sets. */
static double jaccard(GHashTable *a, GHashTable *b)
{
	GHashTableIter it;
	gpointer w;
	size_t both = 0, all;

	g_hash_table_iter_init(&it, a);
	while (g_hash_table_iter_next(&it, &w, NULL))
		if (g_hash_table_contains(b, w))
			both++;
	all = g_hash_table_size(a) + g_hash_table_size(b) - both;
	return all ? (double)both / (double)all : 0;
}

/* Whether a posting's diff touches exactly the commit's files. */
static bool same_files(const GPtrArray *files, struct ckey *k)
{
	return files && files->len && files->len == k->c->nr_paths &&
	       common_files(files, k) == k->c->nr_paths;
}

/*
 * The last resort, for commits no other method linked: a posting not
 * linked to any commit (`taken`), by the author or the committer, posted
 * before the commit within SUBJECT_WINDOW, touching exactly the
 * commit's files, whose subject shares at least half of its words with
 * the commit's (Jaccard >= SIMILAR): a maintainer reworded the subject
 * and edited the code on the way in.  The most similar, then the newest.
 */
#define SIMILAR 0.5
static int64_t by_similar_subject(struct matcher *m, struct ckey *k,
				  const guint8 *taken)
{
	const struct ms_link_commit *c = k->c;
	const char *who[2] = { c->author_email, c->committer_email };
	GHashTable *cw;
	int64_t best = -1, best_date = 0;
	double best_sim = 0;

	if (!*c->subject || !c->nr_paths)
		return -1;
	cw = subject_words(m->key_text->pdata[k->subject]);
	for (int w = 0; w < 2; w++) {
		struct span cand = groups_get(&m->by_sender, NONE);

		if (w == 1 && !strcmp(who[0], who[1]))
			break;
		if (*who[w])
			cand = lookup(m->senders, &m->by_sender, who[w]);
		for (uint32_t i = 0; i < cand.len; i++) {
			uint32_t rec = cand.v[i];
			const struct ms_mail_rec *r = &m->recs[rec];
			uint32_t sid;
			GHashTable *rw;
			double sim;

			if (taken[rec] || !r->date_valid || !r->subject ||
			    r->date > c->commit_time + SKEW ||
			    r->date < c->commit_time - SUBJECT_WINDOW ||
			    !same_files(ms_link_mail_files(m->lm, rec), k))
				continue;
			/* an empty subject has no words: similarity 0 */
			sid = rec_subject(m, rec);
			if (sid >= m->key_text->len)
				continue;
			rw = subject_words(m->key_text->pdata[sid]);
			sim = jaccard(cw, rw);
			g_hash_table_unref(rw);
			if (sim < SIMILAR)
				continue;
			if (best < 0 || sim > best_sim ||
			    (sim == best_sim && r->date > best_date)) {
				best = rec;
				best_sim = sim;
				best_date = r->date;
			}
		}
	}
	g_hash_table_unref(cw);
	if (best >= 0) {
		/* same_files(): every path in common */
		k->memo_rec = (uint32_t)best;
		k->memo_common = c->nr_paths;
	}
	return best;
}

static void take(guint8 *taken, uint32_t rec, const GArray *earlier)
{
	taken[rec] = 1;
	for (guint k = 0; k < earlier->len; k++)
		taken[g_array_index(earlier, uint32_t, k)] = 1;
}

/*
 * The first methods for commits [from, to) (their keys made): found[ci]
 * with its earlier versions and evidence, or nothing.  Each commit's
 * link depends only on the messages and the commit, so ranges of them
 * are matched on threads of their own (every matcher with its own
 * scratch, the keys frozen).
 */
struct first_pass {
	struct matcher *m;
	const GPtrArray *commits;
	struct ckey *keys;
	struct ms_link *found;
	const struct ms_link_opts *opts;
	guint from, to;
};

static gpointer match_range(gpointer data)
{
	const struct first_pass *p = data;
	struct matcher *m = p->m;

	for (guint ci = p->from; ci < p->to; ci++) {
		const struct ms_link_commit *c = p->commits->pdata[ci];
		struct ckey *k = &p->keys[ci];
		struct ms_link *l = &p->found[ci];
		int64_t rec = -1;

		l->commit = ci;
		if (!p->opts->ignore_link_trailers) {
			rec = by_trailer_ids(m, c->link_ids, c->nr_link_ids);
			l->method = MS_LINK_TRAILER;
			if (rec < 0) {
				rec = by_trailer_ids(m, c->msgid_ids,
						    c->nr_msgid_ids);
				l->method = MS_LINK_MSGID_TRAILER;
			}
		}
		if (rec < 0 && *c->patch_id) {
			rec = pick(m, lookup(m->patch_ids, &m->by_patch_id,
					     c->patch_id), k, false);
			l->method = MS_LINK_PATCH_ID;
		}
		if (rec < 0) {
			rec = by_author_date(m, k);
			if (rec >= 0 && k->self)
				rec = latest_version(m, (uint32_t)rec, c);
			l->method = MS_LINK_AUTHOR_DATE;
		}
		if (rec < 0 && *c->subject) {
			rec = pick(m, groups_get(&m->by_subject, k->subject),
				   k, true);
			l->method = MS_LINK_SUBJECT;
		}
		if (rec < 0)
			continue;
		l->rec = (uint32_t)rec;
		l->earlier = earlier_versions(m, l->rec);
		l->evidence = evidence(m, l->rec, k);
	}
	return NULL;
}

/* A second matcher sharing `m`'s tables, with scratch of its own. */
static void matcher_fork(struct matcher *to, const struct matcher *m)
{
	*to = *m;
	to->name_of = g_new0(const char *, m->n ? m->n : 1);
	to->strings = g_string_chunk_new(64 * 1024);
	to->buf = g_string_sized_new(256);
	to->seen = g_new0(uint32_t, m->n ? m->n : 1);
	to->stamp = 0;
}

static void matcher_fork_release(struct matcher *to)
{
	g_free(to->name_of);
	g_string_chunk_free(to->strings);
	g_string_free(to->buf, TRUE);
	g_free(to->seen);
}

struct ms_link_result *ms_link_run(const struct ms_link_mail *lm,
				   const GPtrArray *commits,
				   const struct ms_link_opts *opts)
{
	struct ms_link_result *res = g_new0(struct ms_link_result, 1);
	struct ms_link *found = g_new0(struct ms_link, commits->len ?
				       commits->len : 1);
	struct ckey *keys = g_new(struct ckey, commits->len ?
				  commits->len : 1);
	struct first_pass mine, other;
	struct matcher m, m2;
	GThread *t = NULL;
	guint8 *taken;

	res->links = g_array_sized_new(FALSE, FALSE, sizeof(struct ms_link),
				       commits->len);
	res->unlinked = g_array_new(FALSE, FALSE, sizeof(uint32_t));
	res->by_rec = g_hash_table_new(NULL, NULL);
	matcher_init(&m, lm);
	m.people = opts ? opts->people : NULL;
	taken = g_new0(guint8, m.n ? m.n : 1);
	for (guint ci = 0; ci < commits->len; ci++)
		ckey_init(&m, &keys[ci], commits->pdata[ci], ci);
	/* the first methods: the later half of the commits on a second
	 * thread */
	m.frozen = true;
	mine.m = &m;
	mine.commits = commits;
	mine.keys = keys;
	mine.found = found;
	mine.opts = opts;
	mine.from = 0;
	mine.to = commits->len;
	other = mine;
	if (commits->len >= 2) {
		matcher_fork(&m2, &m);
		other.m = &m2;
		other.from = mine.to = commits->len / 2;
		t = g_thread_try_new("ms-match", match_range, &other, NULL);
		if (!t) {
			matcher_fork_release(&m2);
			mine.to = commits->len;
		}
	}
	match_range(&mine);
	if (t) {
		g_thread_join(t);
		matcher_fork_release(&m2);
	}
	m.frozen = false;
	for (guint ci = 0; ci < commits->len; ci++)
		if (found[ci].earlier)
			take(taken, found[ci].rec, found[ci].earlier);
	/* the last resort sees what every other commit took */
	for (guint ci = 0; ci < commits->len; ci++) {
		struct ms_link *l = &found[ci];
		int64_t rec;

		if (l->earlier)
			continue;
		rec = by_similar_subject(&m, &keys[ci], taken);
		if (rec < 0)
			continue;
		l->method = MS_LINK_SUBJECT;
		l->rec = (uint32_t)rec;
		l->earlier = earlier_versions(&m, l->rec);
		l->evidence = evidence(&m, l->rec, &keys[ci]);
		take(taken, l->rec, l->earlier);
	}
	for (guint ci = 0; ci < commits->len; ci++) {
		struct ms_link l = found[ci];

		if (!l.earlier) {
			g_array_append_val(res->unlinked, ci);
			continue;
		}
		res->counts[l.method]++;
		g_array_append_val(res->links, l);
		g_hash_table_insert(res->by_rec, GUINT_TO_POINTER(l.rec),
				    GUINT_TO_POINTER(res->links->len));
		for (guint k = 0; k < l.earlier->len; k++) {
			gpointer key = GUINT_TO_POINTER(
				g_array_index(l.earlier, uint32_t, k));

			if (!g_hash_table_contains(res->by_rec, key))
				g_hash_table_insert(res->by_rec, key,
					GUINT_TO_POINTER(res->links->len));
		}
	}
	for (guint ci = 0; ci < commits->len; ci++)
		g_clear_pointer(&keys[ci].paths, g_hash_table_unref);
	g_free(taken);
	g_free(keys);
	g_free(found);
	matcher_release(&m);
	return res;
}

void ms_link_result_free(struct ms_link_result *r)
{
	if (!r)
		return;
	for (guint i = 0; i < r->links->len; i++)
		g_array_free(g_array_index(r->links, struct ms_link,
					   i).earlier, TRUE);
	g_array_free(r->links, TRUE);
	g_array_free(r->unlinked, TRUE);
	g_hash_table_unref(r->by_rec);
	g_free(r);
}
