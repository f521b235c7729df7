/*
 * git-follow.c - the libgit2 adapter for what `git log --follow` does at
 * a commit that adds the file it follows (git-follow.h): git 2.39's
 * try_to_follow_renames() (tree-diff.c) runs diffcore_rename() with
 * find_copies_harder, the file the only destination and every file of
 * the parent a source; ported here from diffcore-rename.c (exact
 * matches, then estimate_similarity() on diffcore-delta.c's span
 * hashes, the four best kept per destination, renames before copies).
 */
#include "git-follow.h"
#include "error.h"
#include "git-common.h"

#include <stdbool.h>
#include <string.h>

#define MAX_SCORE 60000.0         /* diffcore.h: a double */
#define MIN_SCORE 30000           /* DEFAULT_RENAME_SCORE: 50% */
#define HASHBASE 107927
#define CANDIDATES 4              /* NUM_CANDIDATE_PER_DST */

struct source {
	char *path;
	git_oid id;
	git_filemode_t mode;
	bool deleted;             /* rename_used 0: a rename, not a copy */
};

struct span {
	unsigned int hash, cnt;
};

/* diffcore-rename.c's struct diff_score; dst < 0: an empty slot */
struct score {
	int src, dst;
	unsigned short score;
	short name;
};

static bool regular(git_filemode_t m)
{
	return m == GIT_FILEMODE_BLOB || m == GIT_FILEMODE_BLOB_EXECUTABLE;
}

static int walk_fn(const char *root, const git_tree_entry *e, void *data)
{
	GArray *srcs = data;
	struct source s = { 0 };

	if (git_tree_entry_type(e) == GIT_OBJECT_TREE)
		return 0;
	s.path = g_strconcat(root, git_tree_entry_name(e), NULL);
	s.id = *git_tree_entry_id(e);
	s.mode = git_tree_entry_filemode(e);
	g_array_append_val(srcs, s);
	return 0;
}

/* The sources in git's order (the parent's files in path order), each
 * marked when the commit deletes it: the diff of the two trees, a type
 * change not a deletion, as git's tree diff pairs them. */
static int sources(git_repository *repo, git_tree *ptree, git_tree *tree,
		   GArray *srcs)
{
	git_diff_options o;
	git_diff *d = NULL;
	GHashTable *gone;
	int rc;

	rc = git_tree_walk(ptree, GIT_TREEWALK_PRE, walk_fn, srcs);
	git_diff_options_init(&o, GIT_DIFF_OPTIONS_VERSION);
	o.flags = GIT_DIFF_INCLUDE_TYPECHANGE;
	if (rc == 0)
		rc = git_diff_tree_to_tree(&d, repo, ptree, tree, &o);
	if (rc < 0)
		return rc;
	gone = g_hash_table_new(g_str_hash, g_str_equal);
	for (size_t i = 0; i < git_diff_num_deltas(d); i++) {
		const git_diff_delta *x = git_diff_get_delta(d, i);

		if (x->status == GIT_DELTA_DELETED)
			g_hash_table_add(gone, (char *)x->old_file.path);
	}
	for (guint i = 0; i < srcs->len; i++) {
		struct source *s = &g_array_index(srcs, struct source, i);

		s->deleted = g_hash_table_contains(gone, s->path);
	}
	g_hash_table_destroy(gone);
	git_diff_free(d);
	return 0;
}

/* basename_same() */
static int same_base(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b);

	while (la && lb) {
		char c1 = a[--la], c2 = b[--lb];

		if (c1 != c2)
			return 0;
		if (c1 == '/')
			return 1;
	}
	return (!la || a[la - 1] == '/') && (!lb || b[lb - 1] == '/');
}

/* find_identical_files(): the first source with the blob (the modes
 * equal unless both are regular), one the commit deletes and of the same
 * basename first, among at most 100; -1: none */
static int identical(GArray *srcs, const git_oid *id, git_filemode_t mode,
		     const char *path)
{
	int best = -1, best_score = -1, left = 100;

	for (guint i = 0; i < srcs->len; i++) {
		struct source *s = &g_array_index(srcs, struct source, i);
		int score;

		if (!git_oid_equal(&s->id, id) ||
		    ((!regular(s->mode) || !regular(mode)) && s->mode != mode))
			continue;
		score = s->deleted + same_base(s->path, path);
		if (score > best_score) {
			best = (int)i;
			best_score = score;
			if (score == 2)
				break;
		}
		if (!--left)
			break;
	}
	return best;
}

static gint span_cmp(gconstpointer a, gconstpointer b)
{
	unsigned int x = ((const struct span *)a)->hash;
	unsigned int y = ((const struct span *)b)->hash;

	return x < y ? -1 : x > y;
}

int ms_git_is_binary(git_repository *repo, const char *path,
		     const git_blob *b, bool *binary)
{
	const char *attr = NULL;
	int rc = git_attr_get(&attr, repo, GIT_ATTR_CHECK_FILE_THEN_INDEX,
			      path, "diff");

	if (rc < 0 || GIT_ATTR_HAS_VALUE(attr))
		return rc < 0 ? rc : 1;
	*binary = GIT_ATTR_IS_FALSE(attr) ||
		  (!GIT_ATTR_IS_TRUE(attr) && b &&
		   memchr(git_blob_rawcontent(b), 0,
			  MIN((size_t)git_blob_rawsize(b), 8000)));
	return 0;
}

/* Whether diff_filespec_is_binary() says text, where it matters: a
 * "\r\n" in the blob (hash_chars() then skips the CR).  1: git must say
 * (a diff driver of the attribute's naming). */
static int is_text(git_repository *repo, const char *path, git_blob *b,
		   bool *text)
{
	bool binary = false;
	int rc = 0;

	if (memmem(git_blob_rawcontent(b), (size_t)git_blob_rawsize(b),
		   "\r\n", 2))
		rc = ms_git_is_binary(repo, path, b, &binary);
	*text = !binary;
	return rc;
}

/* hash_chars(): the blob cut at each LF or 64 bytes (a last piece
 * without either is dropped, as git drops it), each piece's hash with
 * its byte count, sorted by hash, equal hashes added up. */
static GArray *spans(const char *buf, size_t len, bool text)
{
	GArray *a = g_array_new(FALSE, FALSE, sizeof(struct span));
	unsigned int acc1 = 0, acc2 = 0, n = 0;
	guint w = 0;

	for (size_t i = 0; i < len; i++) {
		unsigned int c = (unsigned char)buf[i], old1 = acc1;
		struct span s;

		if (text && c == '\r' && i + 1 < len && buf[i + 1] == '\n')
			continue;
		acc1 = (acc1 << 7) ^ (acc2 >> 25);
		acc2 = (acc2 << 7) ^ (old1 >> 25);
		acc1 += c;
		if (++n < 64 && c != '\n')
			continue;
		s.hash = (acc1 + acc2 * 0x61) % HASHBASE;
		s.cnt = n;
		g_array_append_val(a, s);
		n = acc1 = acc2 = 0;
	}
	g_array_sort(a, span_cmp);
	for (guint i = 0; i < a->len; i++) {
		struct span *s = &g_array_index(a, struct span, i);

		if (w && g_array_index(a, struct span, w - 1).hash == s->hash)
			g_array_index(a, struct span, w - 1).cnt += s->cnt;
		else
			g_array_index(a, struct span, w++) = *s;
	}
	g_array_set_size(a, w);
	return a;
}

/* diffcore_count_changes()'s src_copied */
static unsigned long copied(GArray *src, GArray *dst)
{
	unsigned long sc = 0;
	guint d = 0;

	for (guint s = 0; s < src->len; s++) {
		struct span *x = &g_array_index(src, struct span, s);

		struct span *y;

		while (d < dst->len &&
		       g_array_index(dst, struct span, d).hash < x->hash)
			d++;
		y = d < dst->len ? &g_array_index(dst, struct span, d) : NULL;
		if (y && y->hash == x->hash) {
			sc += MIN(x->cnt, y->cnt);
			d++;
		}
	}
	return sc;
}

/* score_compare() */
static int score_cmp(const struct score *a, const struct score *b)
{
	if (a->dst < 0)
		return 0 <= b->dst;
	if (b->dst < 0)
		return -1;
	if (a->score == b->score)
		return b->name - a->name;
	return b->score - a->score;
}

/* record_if_better() */
static void record(struct score m[CANDIDATES], const struct score *o)
{
	int worst = 0;

	for (int i = 1; i < CANDIDATES; i++)
		if (score_cmp(&m[i], &m[worst]) > 0)
			worst = i;
	if (score_cmp(&m[worst], o) > 0)
		m[worst] = *o;
}

struct dst {
	const char *path;
	size_t size;
	GArray *spans;            /* NULL until needed */
};

/* estimate_similarity() of source `s` of size `size` (read: it exists) */
static int similarity(git_repository *repo, const struct source *s,
		      size_t size, const git_oid *dst_id, struct dst *d,
		      int *score)
{
	double max = MAX(size, d->size), base = MIN(size, d->size);
	git_blob *b = NULL;
	GArray *sp;
	bool text;
	int rc;

	*score = 0;
	if (max * (MAX_SCORE - MIN_SCORE) < (max - base) * MAX_SCORE)
		return 0;
	if (!d->spans) {
		rc = git_blob_lookup(&b, repo, dst_id);
		if (rc == 0)
			rc = is_text(repo, d->path, b, &text);
		if (rc == 0)
			d->spans = spans(git_blob_rawcontent(b),
					 (size_t)git_blob_rawsize(b), text);
		git_blob_free(b);
		if (rc)
			return rc;
	}
	rc = git_blob_lookup(&b, repo, &s->id);
	if (rc == 0)
		rc = is_text(repo, s->path, b, &text);
	if (rc == 0) {
		sp = spans(git_blob_rawcontent(b), size, text);
		if (d->size)
			*score = (int)(copied(sp, d->spans) * MAX_SCORE / max);
		g_array_free(sp, TRUE);
	}
	git_blob_free(b);
	return rc;
}

/* The sizes of the regular sources and of the destination, as
 * estimate_similarity() reads them; MS_GIT_LOG_DIES when one is missing
 * (git's diff_populate_filespec() dies: no promisor remote to ask). */
static int sizes(git_repository *repo, GArray *srcs, const git_oid *dst_id,
		 size_t *dst_size, size_t *size)
{
	git_odb *odb = NULL;
	git_object_t t;
	bool any = false;
	int rc = git_repository_odb(&odb, repo);

	/* whether one is missing first: a look-up in the pack indexes,
	 * where a header read inflates (U-Boot's parents all lack one) */
	for (guint i = 0; rc == 0 && i < srcs->len; i++) {
		struct source *s = &g_array_index(srcs, struct source, i);

		if (regular(s->mode) && !git_odb_exists(odb, &s->id))
			rc = GIT_ENOTFOUND;
		any |= regular(s->mode);
	}
	if (rc == 0 && any && !git_odb_exists(odb, dst_id))
		rc = GIT_ENOTFOUND;
	for (guint i = 0; rc == 0 && i < srcs->len; i++) {
		struct source *s = &g_array_index(srcs, struct source, i);

		if (regular(s->mode))
			rc = git_odb_read_header(&size[i], &t, odb, &s->id);
	}
	if (rc == 0 && any)
		rc = git_odb_read_header(dst_size, &t, odb, dst_id);
	git_odb_free(odb);
	return rc == GIT_ENOTFOUND ? MS_GIT_LOG_DIES : rc;
}

/* The inexact pass: the index of the source taken, -1 for none */
static int inexact(git_repository *repo, GArray *srcs, const git_oid *id,
		   const char *path, int *found)
{
	struct score m[CANDIDATES];
	size_t *size = g_new0(size_t, srcs->len);
	struct dst d = { .path = path };
	int rc;

	*found = -1;
	for (int i = 0; i < CANDIDATES; i++)
		m[i].dst = -1;
	rc = sizes(repo, srcs, id, &d.size, size);
	for (guint i = 0; rc == 0 && i < srcs->len; i++) {
		struct source *s = &g_array_index(srcs, struct source, i);
		struct score o = { .src = (int)i, .dst = 0 };
		int score = 0;

		if (regular(s->mode))
			rc = similarity(repo, s, size[i], id, &d, &score);
		o.score = (unsigned short)score;
		o.name = (short)same_base(s->path, path);
		record(m, &o);
	}
	/* STABLE_QSORT() of four, then find_renames() twice: a source the
	 * commit deletes first (a rename), then any (a copy) */
	for (int i = 1; i < CANDIDATES; i++)
		for (int j = i; j > 0 && score_cmp(&m[j - 1], &m[j]) > 0; j--) {
			struct score x = m[j];

			m[j] = m[j - 1];
			m[j - 1] = x;
		}
	for (int copies = 0; rc == 0 && copies < 2 && *found < 0; copies++)
		for (int i = 0; i < CANDIDATES; i++) {
			if (m[i].dst < 0 || m[i].score < MIN_SCORE)
				break;
			if (copies || g_array_index(srcs, struct source,
						    m[i].src).deleted) {
				*found = m[i].src;
				break;
			}
		}
	if (d.spans)
		g_array_free(d.spans, TRUE);
	g_free(size);
	return rc;
}

/* diff.renameLimit: git's default of 1000 unless the configuration says */
static int rename_limit(git_repository *repo, gint64 *limit)
{
	git_config *cfg = NULL;
	int32_t v;
	int rc = git_repository_config_snapshot(&cfg, repo);

	*limit = 1000;
	if (rc == 0 && git_config_get_int32(&v, cfg, "diff.renameLimit") == 0)
		*limit = v;
	git_config_free(cfg);
	return rc;
}

/* find_basename_matches() for one destination: the one source left of
 * its basename, taken at 75% similar (minimum_score + (MAX - minimum)
 * / 2); -1 when there is none, or more than one */
static int by_basename(git_repository *repo, GArray *srcs, const git_oid *id,
		       const char *path, int *found)
{
	const char *base = strrchr(path, '/');
	struct dst d = { .path = path };
	GArray *one = g_array_new(FALSE, FALSE, sizeof(struct source));
	size_t size = 0;
	int rc = 0, score = 0, at = -1;

	base = base ? base + 1 : path;
	for (guint i = 0; i < srcs->len; i++) {
		const char *p = g_array_index(srcs, struct source, i).path;
		const char *b = strrchr(p, '/');

		if (!strcmp(b ? b + 1 : p, base))
			at = at < 0 ? (int)i : -2;
	}
	*found = -1;
	if (at >= 0 && regular(g_array_index(srcs, struct source, at).mode)) {
		g_array_append_val(one, g_array_index(srcs, struct source, at));
		rc = sizes(repo, one, id, &d.size, &size);
		if (rc == 0)
			rc = similarity(repo, &g_array_index(one, struct source,
							     0), size, id, &d,
					&score);
		if (rc == 0 && score >= MIN_SCORE + (int)(0.5 * (MAX_SCORE -
								 MIN_SCORE)))
			*found = at;
	}
	if (d.spans)
		g_array_free(d.spans, TRUE);
	g_array_free(one, TRUE);
	return rc;
}

/* Only the sources the commit deletes, as rename (not copy) detection
 * registers them. */
static void keep_deleted(GArray *srcs)
{
	guint w = 0;

	for (guint i = 0; i < srcs->len; i++) {
		struct source *s = &g_array_index(srcs, struct source, i);

		if (s->deleted)
			g_array_index(srcs, struct source, w++) = *s;
		else
			g_free(s->path);
	}
	g_array_set_size(srcs, w);
}

int ms_git_follow(git_repository *repo, git_tree *ptree, git_tree *tree,
		  const char *path, const git_tree_entry *dst, bool renames,
		  char **src)
{
	GArray *srcs = g_array_new(FALSE, FALSE, sizeof(struct source));
	const git_oid *id = git_tree_entry_id(dst);
	gint64 limit;
	int rc, found;
	bool over;

	*src = NULL;
	rc = rename_limit(repo, &limit);
	if (rc == 0)
		rc = sources(repo, ptree, tree, srcs);
	if (rc == 0 && renames)
		keep_deleted(srcs);
	found = rc ? -1 : identical(srcs, id, git_tree_entry_filemode(dst),
				    path);
	if (rc == 0 && found < 0 && renames &&
	    regular(git_tree_entry_filemode(dst)))
		rc = by_basename(repo, srcs, id, path, &found);
	/* too_many_rename_candidates(): renames alone over the limit are
	 * not looked for; -C -C over it drops the unmodified sources, or
	 * the inexact pass */
	over = limit > 0 && (gint64)srcs->len > limit * limit;
	if (rc == 0 && found < 0 && over && !renames)
		rc = 1;
	if (rc == 0 && found < 0 && !over &&
	    regular(git_tree_entry_filemode(dst)))
		rc = inexact(repo, srcs, id, path, &found);
	if (rc == 0 && found >= 0)
		*src = g_strdup(g_array_index(srcs, struct source, found).path);
	for (guint i = 0; i < srcs->len; i++)
		g_free(g_array_index(srcs, struct source, i).path);
	g_array_free(srcs, TRUE);
	return rc < 0 ? ms_git_error(rc, "cannot follow '%s'", path) : rc;
}
