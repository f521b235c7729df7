/*
 * review-aside.c - which patch postings the review sets aside
 * (review-internal.h): stable backports, and patches of other projects
 * sharing the list, known by their subject or by paths the project never
 * had (docs/review.md).
 */
#include "review-internal.h"
#include "bytes.h"
#include "git-graph.h"
#include "maintainers.h"
#include "tree.h"

#include <string.h>

struct aside_ctx {
	const struct ms_link_mail *lm;
	const struct ms_mail_index *idx;
	const struct ms_review_map *map;
	const GPtrArray *commits;
	const struct ms_link_result *links;
	const struct ms_review_opts *opts;
	uint8_t *aside;              /* per record: enum aside */
	int32_t own;                 /* the list most patches were sent to */
	GHashTable *self;            /* sibling name -> whether it is the
					analysed project's own */
	GHashTable *blob_of;         /* path -> the tree's blob id of it, ""
					when unreadable */
	bool *strong;                /* per record: its own by evidence no
					path outweighs (applied, its name,
					its pre-image blobs) */
	GHashTable *created;         /* "series:path" of each file a patch
					of a series creates */
	char **why;                  /* per record: what set it aside, or
					NULL */
	GHashTable *on_branch;       /* path -> whether a branch has it */
	GHashTable *listed;          /* path -> path_listed()'s answer */
};

/* Set aside posting `i` as `a`, with `why` (taken) as its evidence. */
static enum aside because(struct aside_ctx *c, uint32_t i, enum aside a,
			  char *why)
{
	g_free(c->why[i]);
	c->why[i] = why;
	return a;
}

static const struct ms_mail_rec *rec_at(const struct aside_ctx *c,
					uint32_t i)
{
	return ms_mail_index_get(c->idx, i);
}

/* Add `path` and each directory above it to `set` (copies). */
static void add_path_and_dirs(GHashTable *set, const char *path)
{
	char *p = g_strdup(path), *slash;

	for (;;) {
		if (g_hash_table_contains(set, p)) {
			g_free(p);
			return;   /* its directories are in already */
		}
		g_hash_table_add(set, p);
		slash = strrchr(p, '/');
		if (!slash)
			return;
		p = g_strndup(p, (size_t)(slash - p));
	}
}

/* Whether the tip of a branch of the repository has `path` (a file or
 * a directory): files added on a branch of their own are the project's
 * (erofs-utils' tests/, on experimental-tests). */
static bool on_branch(const struct aside_ctx *c, const char *path)
{
	gpointer v;

	if (!c->opts->objects || !c->opts->history_paths)
		return false;
	if (!g_hash_table_lookup_extended(c->on_branch, path, NULL, &v)) {
		v = GINT_TO_POINTER(ms_git_graph_branch_path(c->opts->objects,
							     path));
		g_hash_table_insert(c->on_branch, g_strdup(path), v);
	}
	return GPOINTER_TO_INT(v);
}

/* Whether directory `dir` is one of the tree, of `hist` or of a
 * branch. */
static bool dir_known(const struct aside_ctx *c, GHashTable *hist,
		      const char *dir)
{
	return ms_tree_is_dir(c->opts->tree, dir) ||
	       g_hash_table_contains(hist, dir) || on_branch(c, dir);
}

/* Whether an entry other than a catch-all claims `path`: MAINTAINERS
 * names it, so the project has or awaits it (a new driver's directory
 * under an F: line). */
static bool path_listed(const struct aside_ctx *c, const char *path)
{
	const struct maint_entry *m[16];
	size_t n;
	gpointer v;

	/* a path comes back with each version of its patch (1,931 asked,
	 * 553 paths, on linux-watchdog) and each asks every N: regex */
	if (g_hash_table_lookup_extended(c->listed, path, NULL, &v))
		return GPOINTER_TO_INT(v);
	n = maint_index_match(c->map->idx, path, m, G_N_ELEMENTS(m));
	v = GINT_TO_POINTER(0);
	for (size_t i = 0; i < MIN(n, G_N_ELEMENTS(m)); i++)
		if (!maint_entry_catch_all(m[i]))
			v = GINT_TO_POINTER(1);
	g_hash_table_insert(c->listed, g_strdup(path), v);
	return GPOINTER_TO_INT(v);
}

/* What a patch's path says of the project it belongs to. */
enum path_says {
	PATH_FOREIGN,    /* no file nor directory of it in the project */
	PATH_TOP_NEW,    /* a new file right in the root */
	PATH_TOP_DIR,    /* a new file right in a top-level directory */
	PATH_TOP_SUB,    /* a new file in a new directory below a top-level
			    one: the project's, but it keeps no series */
	PATH_KNOWN,      /* the project has or had it, or its directory */
};

/*
 * Whether `path` could be in the analysed project: it is a file of the
 * tree or one a commit touched, an entry other than a catch-all claims
 * it, or a directory above it is known.  With
 * the whole history (--repo), which had every directory: its parent, or
 * any directory above it below the top level (drivers/foo/ for a new
 * drivers/foo/sub/new.c), but a top-level one only for a file right in
 * it, so that a kernel patch to include/linux/ is not a project's with
 * an include/.  With a snapshot only (--tree): its top-level directory,
 * since a snapshot lacks the directories added after it.  A new file
 * right in the root is PATH_TOP_NEW: the root is a directory of every
 * project, so such a file is as much the project's as anyone's.  A new
 * file in a directory the project lacks below a top-level one it has is
 * PATH_TOP_SUB.
 */
static enum path_says path_known(const struct aside_ctx *c, GHashTable *hist,
				 const char *path, bool created)
{
	const char *slash = strrchr(path, '/');
	char *dir;
	bool known;

	if (ms_tree_has_file(c->opts->tree, path) ||
	    g_hash_table_contains(hist, path) || path_listed(c, path) ||
	    on_branch(c, path))
		return PATH_KNOWN;
	if (!slash)
		return PATH_TOP_NEW;
	if (slash == path)
		return PATH_FOREIGN;
	if (!c->opts->history_paths)
		slash = strchr(path, '/');
	dir = g_strndup(path, (size_t)(slash - path));
	known = dir_known(c, hist, dir);
	if (known && !strchr(dir, '/')) {
		char *parent = g_strndup(path, (size_t)(strrchr(path, '/') -
							  path));

		/* a snapshot: a new file in a directory it lacks */
		known = !created || !strcmp(parent, dir) ||
			dir_known(c, hist, parent);
		g_free(parent);
		g_free(dir);
		return known ? PATH_TOP_DIR : PATH_TOP_SUB;
	}
	while (!known && c->opts->history_paths) {
		char *up = strrchr(dir, '/');

		if (!up || !strchr(dir, '/') || up == strchr(dir, '/'))
			break;    /* the next one up is top-level */
		*up = '\0';
		known = dir_known(c, hist, dir);
	}
	if (!known && created && strchr(dir, '/')) {
		/* a new file in a new directory below a top-level one of
		 * the project (LTP's testcases/kexec/) is as much its own as
		 * a new file right in it, but no evidence for the rest of
		 * its series (Gao Xiang's "ez" library: include/ez/ beside a
		 * new top-level lzma/) */
		*strchr(dir, '/') = '\0';
		if (dir_known(c, hist, dir)) {
			g_free(dir);
			return PATH_TOP_SUB;
		}
	}
	g_free(dir);
	return known ? PATH_KNOWN : PATH_FOREIGN;
}

/* The set of paths the project is known to have had: every path (and
 * each directory above it) of `history_paths` and of the window's
 * commits, with a tree to test against. */
static GHashTable *known_paths(const struct aside_ctx *c)
{
	GHashTable *hist = g_hash_table_new_full(ms_str_hash, g_str_equal,
						 g_free, NULL);
	const GPtrArray *hp = c->opts->history_paths;

	for (guint i = 0; c->opts->tree && hp && i < hp->len; i++)
		add_path_and_dirs(hist, hp->pdata[i]);
	for (guint i = 0; c->opts->tree && c->commits &&
	     i < c->commits->len; i++) {
		const struct ms_link_commit *lc = c->commits->pdata[i];

		for (size_t k = 0; k < lc->nr_paths; k++)
			add_path_and_dirs(hist, lc->paths[k]);
	}
	return hist;
}

/*
 * Whether the sibling project `name` (ms_mail_foreign_project) is the
 * analysed project itself: a tenth of the window's commits, and at least
 * five, begin their subjects with "name:" (erofs-utils' own history:
 * 1,058 of 1,072 "erofs-utils: ..."), or the list of its catch-all
 * entry has that name.  Its postings are then the project's, never
 * another's.
 */
static bool names_self(struct aside_ctx *c, const char *name)
{
	gpointer v;
	size_t n = 0, len = strlen(name);
	bool list = false;

	if (g_hash_table_lookup_extended(c->self, name, NULL, &v))
		return GPOINTER_TO_INT(v);
	for (guint i = 0; c->commits && i < c->commits->len; i++) {
		const struct ms_link_commit *lc = c->commits->pdata[i];
		const char *s = lc->summary;

		n += s && !g_ascii_strncasecmp(s, name, len) && s[len] == ':';
	}
	/* or its catch-all entry's list has that name (U-Boot's THE REST:
	 * u-boot@, a list that tagged subjects "[U-Boot]"; not the
	 * kernel's util-linux@, an entry of no files) */
	for (size_t e = 0; e < maint_file_nr_entries(c->map->mf); e++) {
		const struct maint_entry *m = maint_file_entry(c->map->mf, e);

		for (size_t f = 0; maint_entry_catch_all(m) && f < m->nr_fields; f++)
			list |= m->fields[f].key == 'L' &&
				!g_ascii_strncasecmp(m->fields[f].value, name,
						     len) &&
				m->fields[f].value[len] == '@';
	}
	v = GINT_TO_POINTER(list || (n >= 5 && n * 10 >= (c->commits ?
							  c->commits->len :
							  0)));
	g_hash_table_insert(c->self, (gpointer)name, v);
	return GPOINTER_TO_INT(v);
}

/*
 * The sibling project patch posting `i` names: by its own subject, or
 * by its series' cover letter's when it is numbered out of the cover
 * letter's total ("[PATCH 0/8] u-boot: fs: add generic unaligned read
 * handling" over "fs: btrfs: ..." patches; a cover letter over patches
 * of two projects numbers each project's apart).  *cover is that cover
 * letter, or NULL.
 */
static const char *names_project(const struct aside_ctx *c, uint32_t i,
				 const struct ms_mail_rec **cover)
{
	const struct ms_mail_rec *r = rec_at(c, i);
	const struct ms_mail_series *s;
	const char *name = ms_review_map_foreign(c->map, i);

	*cover = NULL;
	if (name || r->series < 0)
		return name;
	s = ms_mail_index_series(c->idx, (uint32_t)r->series);
	if (!s || !s->has_cover || s->root == i || s->total != r->total)
		return NULL;
	name = ms_review_map_foreign(c->map, s->root);
	*cover = name ? rec_at(c, s->root) : NULL;
	return name;
}

/*
 * Whether b4's "base-commit:" footer of patch posting `i`, or of its
 * series' cover letter, names a commit of the analysed repository: the
 * patch was made on the project's history.
 */
static bool based_here(const struct aside_ctx *c, uint32_t i)
{
	const struct ms_mail_rec *r = rec_at(c, i);
	const struct ms_mail_series *s = r->series < 0 ? NULL :
		ms_mail_index_series(c->idx, (uint32_t)r->series);
	const char *base = ms_review_map_base(c->map, i);

	if (!base && s && s->has_cover)
		base = ms_review_map_base(c->map, s->root);
	return base && c->opts->objects &&
	       ms_git_graph_has_object(c->opts->objects, base, true);
}

/*
 * Whether patch posting `i` went to another project's list (docs/
 * review.md, "Set aside"): MAINTAINERS names lists, the patch was sent to
 * none of them but the archive's own (its List-Id, else the list most
 * patches were sent to) and to a list MAINTAINERS never names; with
 * OTHER_TO, that list is in its To: or the archive's own list is not
 * (LTP's kexec tests, To: ltp, Cc: linux-integrity, are LTP's); with
 * OTHER_STRONG, the archive's own list is not in its To: while that
 * other list is (U-Boot's fs/erofs
 * patches: To: u-boot@lists.denx.de, Cc: linux-erofs), or is in its Cc:
 * too when MAINTAINERS names a list besides the archive's own (the
 * project routes its patches to lists of its own, and this one went to
 * none of them).  *which is that other list (one in To: first).
 */
enum other_form { OTHER_ANY, OTHER_TO, OTHER_STRONG };

/* Whether list `l` (an index of c->map->lists) is named by an L: line of
 * an entry patch posting `i` maps to (by its files or K: patterns). */
static bool named_for(const struct aside_ctx *c, uint32_t i, uint32_t l)
{
	const GArray *es = ms_review_map_entries(c->map, i);
	const char *a = c->map->lists->pdata[l];
	size_t n = strlen(a);

	for (guint k = 0; es && k < es->len; k++) {
		const struct maint_entry *e = maint_file_entry(c->map->mf,
			g_array_index(es, size_t, k));

		for (size_t f = 0; f < e->nr_fields; f++)
			if (e->fields[f].key == 'L' &&
			    !g_ascii_strncasecmp(e->fields[f].value, a, n) &&
			    strchr(" \t", e->fields[f].value[n]))
				return true;
	}
	return false;
}

static bool other_list(const struct aside_ctx *c, uint32_t i,
		       enum other_form form, const char **which)
{
	const struct ms_rv_rcpts *r = ms_review_map_rcpts(c->map, i);
	bool unnamed_to = false, unnamed = false, own_to = false;
	int32_t own;

	if (!r || !c->map->nr_named)
		return false;
	*which = NULL;
	own = r->own >= 0 ? r->own : c->own;
	for (uint32_t k = 0; k < r->n; k++) {
		uint32_t l = r->ix[k] >> 1;
		bool to = r->ix[k] & 1;

		if ((int32_t)l == own) {
			own_to |= to;
		} else if (l < c->map->nr_named) {
			/* one of the project's lists; for the strong form,
			 * one named for the patch's own files (U-Boot's fs/fat
			 * patches Cc linux-btrfs, the kernel's for fs/btrfs/) */
			if (form != OTHER_STRONG || named_for(c, i, l))
				return false;
		} else {
			if (!*which || (to && !unnamed_to))
				*which = c->map->lists->pdata[l];
			unnamed = true;
			unnamed_to |= to;
		}
	}
	if (form != OTHER_STRONG)
		return unnamed && (form == OTHER_ANY || unnamed_to || !own_to);
	return unnamed && !own_to &&
	       (unnamed_to || c->map->nr_named > 1 ||
		(own >= 0 && (uint32_t)own >= c->map->nr_named));
}

/*
 * Whether the analysed repository holds a pre-image blob of patch
 * posting `i`, or with `every` each of them (at least one): the patch was
 * made against the project's files.  A missing blob says nothing (a
 * shallow clone, a tree without history, a file of a newer tree or of a
 * fork: LTP's device-drivers/Makefile with TI's device-discovery.sh
 * beside it); but one blob alone is no match for the subject and
 * recipients (a kernel patch on linux-rdma changes a uapi header that
 * rdma-core keeps a copy of).
 */
static bool own_blobs(const struct aside_ctx *c, uint32_t i, bool every)
{
	const GPtrArray *p = c->opts->objects ?
			     ms_link_mail_preimages(c->lm, i) : NULL;
	guint has = 0;

	for (guint k = 0; p && k < p->len; k++) {
		char *id = g_strndup(p->pdata[k],
				     strcspn(p->pdata[k], " "));

		has += ms_git_graph_has_object(c->opts->objects, id, false);
		g_free(id);
	}
	return has && (!every || has == p->len);
}

/* The path of pre-image `pre` ("BLOB PATH", mail.h), or NULL. */
static const char *pre_path(const char *pre)
{
	const char *sp = strchr(pre, ' ');

	return sp && sp[1] ? sp + 1 : NULL;
}

/* The git blob id (40 hex digits) of the tree's file `path`, as git
 * hash-object gives it, or "" when it cannot be read (borrowed). */
static const char *tree_blob(struct aside_ctx *c, const char *path)
{
	const char *id = g_hash_table_lookup(c->blob_of, path);
	char *got = NULL;

	if (id)
		return id;
	if (ms_tree_blob_id(c->opts->tree, path, &got) < 0)
		got = g_strdup("");
	g_hash_table_insert(c->blob_of, g_strdup(path), got);
	return got;
}

/*
 * Whether patch posting `i` was made against the tree's own files: of
 * the files it modifies that the tree has, each pre-image blob is the
 * tree's file as it is (at least one).  A blob that differs says
 * nothing: the list is newer than the tree, and the file may have
 * changed since.  This works for a tree without history (--tree) too.
 */
static bool tree_blobs(struct aside_ctx *c, uint32_t i)
{
	const GPtrArray *p = c->opts->tree ?
			     ms_link_mail_preimages(c->lm, i) : NULL;
	size_t same = 0;

	for (guint k = 0; p && k < p->len; k++) {
		const char *path = pre_path(p->pdata[k]), *id;
		size_t n = strcspn(p->pdata[k], " ");

		if (!path || !ms_tree_has_file(c->opts->tree, path))
			continue;
		id = tree_blob(c, path);
		if (strlen(id) < n || g_ascii_strncasecmp(id, p->pdata[k], n))
			return false;
		same++;
	}
	return same > 0;
}

/* Whether `path` is one that patch posting `i` modifies (it has a
 * pre-image), not one it creates. */
static bool modifies(const GPtrArray *pre, const char *path)
{
	for (guint k = 0; pre && k < pre->len; k++) {
		const char *pp = pre_path(pre->pdata[k]);

		if (pp && !strcmp(pp, path))
			return true;
	}
	return false;
}

/* The key of posting `r`'s series and count ("n/total"), with `path`
 * the key of a file in it (c->created): a cover letter over patches of
 * two projects numbers each project's apart (1/1 for the kernel, 2/3 and
 * 3/3 for rdma-core). */
static char *series_key(const struct ms_mail_rec *r, const char *path)
{
	char n[24], *p = n + sizeof(n);
	uint64_t v = (uint64_t)((gint64)r->series << 16 | r->total);

	/* in hex by hand (g_snprintf() was a ninth of setting aside) */
	*--p = '\0';
	*--p = ':';
	do
		*--p = "0123456789abcdef"[v & 15];
	while (v >>= 4);
	return g_strconcat(p, path ? path : "", NULL);
}

/* Whether another patch of `r`'s series creates `path`: a file modified
 * after its series made it (LTP's new doc_new/, patch 1 of 10 creating
 * what the other nine change) is no other project's file. */
static bool created_in_series(const struct aside_ctx *c,
			      const struct ms_mail_rec *r, const char *path)
{
	char *k = series_key(r, path);
	bool yes = g_hash_table_contains(c->created, k);

	g_free(k);
	return yes;
}

/* Note the files each patch of a series creates (a path it has and no
 * pre-image of). */
static void note_created(struct aside_ctx *c, size_t n)
{
	c->created = g_hash_table_new_full(ms_str_hash, g_str_equal, g_free,
					   NULL);
	for (size_t i = 0; c->opts->tree && i < n; i++) {
		const struct ms_mail_rec *r = rec_at(c, (uint32_t)i);
		const GPtrArray *files, *pre;

		if (r->duplicate || r->kind != MS_MAIL_PATCH || r->series < 0)
			continue;
		files = ms_link_mail_files(c->lm, (uint32_t)i);
		pre = ms_link_mail_preimages(c->lm, (uint32_t)i);
		for (guint k = 0; files && k < files->len; k++)
			if (!modifies(pre, files->pdata[k]))
				g_hash_table_add(c->created,
						 series_key(r,
							    files->pdata[k]));
	}
}

/* Whether patch posting `i` (recipients `r`) went to list `l`, an L:
 * line's value. */
static bool sent_to(const struct aside_ctx *c, const struct ms_rv_rcpts *r,
		    const char *l)
{
	for (uint32_t k = 0; r && k < r->n; k++) {
		const char *a = c->map->lists->pdata[r->ix[k] >> 1];
		size_t n = strlen(a);

		if (!g_ascii_strncasecmp(l, a, n) && strchr(" \t", l[n]))
			return true;
	}
	return false;
}

/*
 * Whether patch posting `i` modifies a file (one its series did not
 * create) and went past its files' lists: the entries matching its files
 * name lists, and it went to none of them (the archive's own counts when
 * one names it): erofs-utils' lib/tar.c, read with the kernel tree, where
 * only THE REST claims it and names linux-kernel@vger.kernel.org, while
 * the patch went to linux-erofs.  *which is a file it modifies.
 */
static bool past_file_lists(const struct aside_ctx *c, uint32_t i,
			    const char **which)
{
	const struct ms_mail_rec *r = rec_at(c, i);
	const struct ms_rv_rcpts *rc = ms_review_map_rcpts(c->map, i);
	const GPtrArray *files = ms_link_mail_files(c->lm, i);
	const GPtrArray *pre = ms_link_mail_preimages(c->lm, i);
	bool named = false, modified = false;

	for (guint k = 0; files && k < files->len; k++) {
		const char *path = files->pdata[k];
		const struct maint_entry *m[16];
		size_t n = maint_index_match(c->map->idx, path, m,
					     G_N_ELEMENTS(m));

		if (modifies(pre, path) &&
		    (r->series < 0 || !created_in_series(c, r, path))) {
			modified = true;
			*which = path;
		}
		for (size_t e = 0; e < MIN(n, G_N_ELEMENTS(m)); e++)
			for (size_t f = 0; f < m[e]->nr_fields; f++) {
				if (m[e]->fields[f].key != 'L')
					continue;
				if (sent_to(c, rc, m[e]->fields[f].value))
					return false;
				named = true;
			}
	}
	return named && modified;
}

/*
 * Whether patch posting `i` modifies a file the project could not have:
 * one right in the root that it lacks (configure.ac), or one that
 * path_known() calls foreign (in a top-level directory the project
 * lacks: fsck/main.c; with the whole history, one in a directory it
 * never had).  The patch's project has that file, so it is another
 * project; a new file says nothing of the kind (every project could
 * add AGENTS.md or agents/).  Returns that file (borrowed), or NULL.
 */
static const char *modifies_foreign(const struct aside_ctx *c,
				    GHashTable *hist, uint32_t i)
{
	const struct ms_mail_rec *r = rec_at(c, i);
	const GPtrArray *p = c->opts->tree ?
			     ms_link_mail_preimages(c->lm, i) : NULL;

	for (guint k = 0; p && k < p->len; k++) {
		const char *path = pre_path(p->pdata[k]);
		enum path_says says;

		if (!path || (r->series >= 0 &&
			      created_in_series(c, r, path)))
			continue;
		says = path_known(c, hist, path, false);
		if (says == PATH_FOREIGN ||
		    (says == PATH_TOP_NEW && !strchr(path, '/')))
			return path;
	}
	return NULL;
}

/*
 * Why patch posting `i` is set aside, the series aside (docs/review.md,
 * "Set aside", in this order).  The project's own, whatever else it
 * shows (c->strong[i]): applied as a commit, a subject naming the
 * project itself, or pre-image blobs of the project (the repository's
 * objects, or the files of the tree as they are).  Then another
 * project's by its subject, its recipients, or a file it modifies that
 * the project could not have (ASIDE_MODIFIED).  Then the paths: a patch
 * is the project's when one of its paths could be: a known one, or a
 * new file right in the root (LTP's AGENTS.md, with its new agents/
 * beside it).  *anchors is set when a known path makes it the project's,
 * so that it carries the rest of its series; a new top-level file does
 * not, since every project could have one, and a patch kept by one alone
 * (ASIDE_TOP_ONLY) follows its series when the others are foreign.
 */
static enum aside aside_of(struct aside_ctx *c, GHashTable *hist,
			   uint32_t i, bool *anchors)
{
	const struct ms_mail_rec *r = rec_at(c, i), *cover;
	const char *sibling = names_project(c, i, &cover);
	const GPtrArray *files, *pre;
	const char *list = NULL, *top = NULL, *path;
	bool top_new = false, top_dir = false, top_sub = false, blobs;
	enum aside said = ASIDE_NONE;

	*anchors = false;
	if (r->stable && !c->opts->include_stable)
		return because(c, i, ASIDE_STABLE, g_strdup(
			"its subject's prefix names a stable tree"));
	if (c->opts->include_foreign)
		return ASIDE_NONE;
	/* applied as a commit of the project: its own, whatever its
	 * subject or recipients say (LTP's IMA tests, To: linux-integrity);
	 * or a subject naming the project itself ("erofs-utils: tests: ..."
	 * with erofs-utils' history): its own, even under paths the history
	 * lacks (a branch of its own: erofs-utils' tests/); or made on a
	 * commit of the repository (b4's base-commit:) */
	if ((c->links && g_hash_table_contains(c->links->by_rec,
					       GUINT_TO_POINTER(i))) ||
	    (sibling && names_self(c, sibling)) || based_here(c, i)) {
		*anchors = c->strong[i] = true;
		return ASIDE_NONE;
	}
	if (sibling)
		said = ASIDE_SUBJECT;
	else if (other_list(c, i, OTHER_STRONG, &list))
		said = ASIDE_RECIPIENTS;
	/* the files of the tree, as they are: its own, whatever its paths */
	if (tree_blobs(c, i)) {
		*anchors = c->strong[i] = true;
		return said ? ASIDE_OWN_BLOBS : ASIDE_NONE;
	}
	/* blobs of the repository's objects: not the subject nor the
	 * recipients, but the paths still decide (a short id may name
	 * another object) */
	blobs = own_blobs(c, i, said != ASIDE_NONE);
	if (said == ASIDE_SUBJECT && !blobs)
		return because(c, i, said, cover ? g_strdup_printf(
			"its cover letter <%s> names the project %s",
			cover->message_id, sibling) : g_strdup_printf(
			"its subject names the project %s", sibling));
	if (said && !blobs)
		return because(c, i, said, g_strdup_printf(
			"sent to %s, a list MAINTAINERS does not name, and to "
			"none it names but the archive's own", list));
	c->strong[i] = *anchors = blobs;
	blobs = blobs && said;   /* kept_by_blobs counts these only */
	if (!c->strong[i] && (path = modifies_foreign(c, hist, i)))
		return because(c, i, ASIDE_MODIFIED, g_strdup_printf(
			"it modifies %s, a file the project could not have",
			path));
	files = c->opts->tree ? ms_link_mail_files(c->lm, i) : NULL;
	if (!files || !files->len)
		return blobs ? ASIDE_OWN_BLOBS : ASIDE_NONE;
	pre = ms_link_mail_preimages(c->lm, i);
	for (guint k = 0; k < files->len; k++) {
		/* a file its series creates is a new one here too */
		switch (path_known(c, hist, files->pdata[k],
				   !modifies(pre, files->pdata[k]) ||
				   (r->series >= 0 &&
				    created_in_series(c, r, files->pdata[k])))) {
		case PATH_KNOWN:
			*anchors = true;
			return blobs ? ASIDE_OWN_BLOBS : ASIDE_NONE;
		case PATH_TOP_DIR: top_dir = true; break;
		case PATH_TOP_SUB: top_sub = true; break;
		case PATH_TOP_NEW: top_new = true; break;
		case PATH_FOREIGN: continue;
		}
		if (!top)   /* the first file that keeps it */
			top = files->pdata[k];
	}
	*anchors = c->strong[i] = false;
	top_sub &= !top_dir;
	/* kept by new files right in the root or by files in a top-level
	 * directory (MAINTAINERS, lib/decompress_unxz.c, names every project
	 * has), and sent to another project's list, or, for a top-level
	 * directory, in its To: or without the archive's own there, or past
	 * its files' lists (erofs-utils' lib/tar.c): as its series says */
	if ((top_dir || top_sub || top_new) && !blobs &&
	    !own_blobs(c, i, true)) {
		if (top_dir || top_sub ? other_list(c, i, OTHER_TO, &list) :
		    other_list(c, i, OTHER_ANY, &list))
			return because(c, i, ASIDE_TOP_RECIPIENTS,
				g_strdup_printf("only %s could be the "
					"project's, and it was sent to %s, a "
					"list MAINTAINERS does not name", top,
					list));
		if ((top_dir || top_sub) && past_file_lists(c, i, &path))
			return because(c, i, ASIDE_TOP_RECIPIENTS,
				g_strdup_printf("only %s could be the "
					"project's, and it modifies %s but "
					"went to none of the lists its "
					"entries name", top, path));
	}
	if (top_dir) {
		*anchors = true;
		return ASIDE_NONE;
	}
	return because(c, i, top_new || top_sub ? ASIDE_TOP_ONLY : ASIDE_PATHS,
		       g_strdup_printf(top_sub ? "only %s could be the "
				       "project's, a new file in a directory "
				       "it lacks" : top_new ? "only %s could "
				       "be the project's, a new file in its "
				       "root" : "no path could be the "
				       "project's: %s",
				       top ? top : (const char *)files->pdata[0]));
}

/* The key of pre-image `pre` ("BLOB PATH") that another posting's
 * pre-image of the same file version shares: the path and the blob id's
 * first seven digits (ids are abbreviated to various lengths), or NULL. */
static char *pre_key(const char *pre)
{
	const char *path = pre_path(pre);
	char *k;

	if (!path || strcspn(pre, " ") < 7)
		return NULL;
	k = g_strconcat("1234567 ", path, NULL);
	memcpy(k, pre, 7);
	return k;
}

/*
 * Note what the archive shows of other projects' files from patch `i`,
 * set aside by its subject, its recipients or a modified file: into
 * `blobs` each of its pre-images (pre_key() -> record + 1); with a
 * modified file, into `files` each file it modifies that the project
 * could not have (path -> record + 1).
 */
static void note_foreign(struct aside_ctx *c, GHashTable *hist, uint32_t i,
			 GHashTable *blobs, GHashTable *files)
{
	const struct ms_mail_rec *r = rec_at(c, i);
	const GPtrArray *p = ms_link_mail_preimages(c->lm, i);

	for (guint k = 0; p && k < p->len; k++) {
		const char *path = pre_path(p->pdata[k]);
		char *key = pre_key(p->pdata[k]);
		enum path_says says;

		if (key && !g_hash_table_contains(blobs, key))
			g_hash_table_insert(blobs, key, GSIZE_TO_POINTER(i + 1));
		else
			g_free(key);
		if (c->aside[i] != ASIDE_MODIFIED || !path ||
		    (r->series >= 0 && created_in_series(c, r, path)))
			continue;
		says = path_known(c, hist, path, false);
		if ((says == PATH_FOREIGN ||
		     (says == PATH_TOP_NEW && !strchr(path, '/'))) &&
		    !g_hash_table_contains(files, path))
			g_hash_table_insert(files, g_strdup(path),
					    GSIZE_TO_POINTER(i + 1));
	}
}

/* Patch `i`, kept by its paths alone, as the archive's other patches
 * show it (follow_archive()): the answer, with anchors[i] cleared, or
 * ASIDE_NONE when they show nothing. */
static enum aside archive_says(struct aside_ctx *c, uint32_t i,
			       GHashTable *blobs, GHashTable *files)
{
	const GPtrArray *p = ms_link_mail_preimages(c->lm, i);
	const GPtrArray *f = ms_link_mail_files(c->lm, i);
	const struct ms_mail_rec *m;
	gsize mate = 0;

	for (guint k = 0; p && !mate && k < p->len; k++) {
		char *key = pre_key(p->pdata[k]);

		mate = key ? GPOINTER_TO_SIZE(g_hash_table_lookup(blobs, key))
			   : 0;
		g_free(key);
		if (mate && mate - 1 != i) {
			m = rec_at(c, (uint32_t)(mate - 1));
			return because(c, i, c->aside[mate - 1],
				g_strdup_printf("it modifies %s as <%s> does "
					"(the same pre-image blob), which is "
					"set aside: %s", pre_path(p->pdata[k]),
					m->message_id, c->why[mate - 1]));
		}
		mate = 0;
	}
	for (guint k = 0; c->aside[i] == ASIDE_TOP_ONLY && f &&
	     k < f->len; k++) {
		mate = GPOINTER_TO_SIZE(g_hash_table_lookup(files,
							    f->pdata[k]));
		if (!mate || modifies(p, f->pdata[k]))
			continue;
		m = rec_at(c, (uint32_t)(mate - 1));
		return because(c, i, ASIDE_MODIFIED, g_strdup_printf(
			"it creates %s, which <%s> modifies as a file the "
			"project could not have", (const char *)f->pdata[k],
			m->message_id));
	}
	return ASIDE_NONE;
}

/*
 * What the archive's other patches show of the patches kept by their
 * paths alone (not applied, named or made against the project's blobs):
 * one that modifies a file from the same pre-image blob as a patch set
 * aside by its subject, its recipients or a modified file is that
 * patch's project's (the same version of a file the tree does not have
 * as it is: erofs-utils' README, read with the kernel tree, below
 * "erofs-utils: fix typos and enhance installation guide"); one kept by
 * new files alone that creates a file another patch modifies as a file
 * the project could not have is another project's (the stress tester's
 * stress.c).
 */
static void follow_archive(struct aside_ctx *c, GHashTable *hist,
			   bool *anchors, size_t n)
{
	GHashTable *blobs = g_hash_table_new_full(ms_str_hash, g_str_equal,
						  g_free, NULL);
	GHashTable *files = g_hash_table_new_full(ms_str_hash, g_str_equal,
						  g_free, NULL);

	for (size_t i = 0; i < n; i++)
		if (c->aside[i] == ASIDE_SUBJECT ||
		    c->aside[i] == ASIDE_RECIPIENTS ||
		    c->aside[i] == ASIDE_MODIFIED)
			note_foreign(c, hist, (uint32_t)i, blobs, files);
	for (size_t i = 0; i < n; i++) {
		const struct ms_mail_rec *r = rec_at(c, (uint32_t)i);
		enum aside a;

		if (r->duplicate || r->kind != MS_MAIL_PATCH ||
		    c->strong[i] || (c->aside[i] != ASIDE_NONE &&
				     c->aside[i] != ASIDE_TOP_ONLY))
			continue;
		a = archive_says(c, (uint32_t)i, blobs, files);
		if (a != ASIDE_NONE) {
			c->aside[i] = (uint8_t)a;
			anchors[i] = false;
		}
	}
	g_hash_table_unref(blobs);
	g_hash_table_unref(files);
}

const char *ms_rv_aside_rule_name(enum ms_rv_aside_rule rule)
{
	static const char *const name[] = {
		[MS_RV_STABLE] = "stable",
		[MS_RV_FOREIGN_SUBJECT] = "foreign_subject",
		[MS_RV_FOREIGN_RECIPIENTS] = "foreign_recipients",
		[MS_RV_FOREIGN_PATHS] = "foreign_paths",
	};

	return rule < G_N_ELEMENTS(name) ? name[rule] : NULL;
}

int ms_rv_aside_rule_of(uint8_t a)
{
	switch (a) {
	case ASIDE_STABLE: return MS_RV_STABLE;
	case ASIDE_SUBJECT: return MS_RV_FOREIGN_SUBJECT;
	case ASIDE_RECIPIENTS: return MS_RV_FOREIGN_RECIPIENTS;
	case ASIDE_PATHS: return MS_RV_FOREIGN_PATHS;
	default: return -1;
	}
}

/* Count in `rv` posting `i` (of the window) set aside or kept by its
 * blobs, and note it (when `rv` keeps a list), by the evidence of
 * posting `by` (itself, or a patch of its series). */
static void note_aside(const struct aside_ctx *c, struct ms_review *rv,
		       uint32_t i, uint32_t by)
{
	int rule = ms_rv_aside_rule_of(c->aside[i]);
	struct ms_rv_aside a;

	rv->own_by_blobs += c->aside[i] == ASIDE_OWN_BLOBS;
	if (rule < 0)
		return;
	rv->aside[rule]++;
	rv->aside_total++;
	if (!rv->aside_list)
		return;
	a.rec = i;
	a.rule = (enum ms_rv_aside_rule)rule;
	a.evidence = g_strdup(c->why[by] ? c->why[by] : "");
	a.by = by;
	g_array_append_val(rv->aside_list, a);
}

static void clear_aside(gpointer p)
{
	g_free(((struct ms_rv_aside *)p)->evidence);
}

GArray *ms_rv_aside_list_new(void)
{
	GArray *a = g_array_new(FALSE, FALSE, sizeof(struct ms_rv_aside));

	g_array_set_clear_func(a, clear_aside);
	return a;
}

/* The list most patch postings were sent to, or -1. */
static int32_t most_sent_to(const struct aside_ctx *c)
{
	GArray *uses = g_array_sized_new(FALSE, TRUE, sizeof(uint32_t),
					 c->map->lists->len);
	int32_t best = -1;

	g_array_set_size(uses, c->map->lists->len);
	for (guint i = 0; i < c->map->rcpts->len; i++) {
		const struct ms_rv_rcpts *r = c->map->rcpts->pdata[i];

		for (uint32_t k = 0; r && k < r->n; k++)
			g_array_index(uses, uint32_t, r->ix[k] >> 1)++;
	}
	for (guint l = 0; l < uses->len; l++)
		if (g_array_index(uses, uint32_t, l) &&
		    (best < 0 || g_array_index(uses, uint32_t, l) >
				 g_array_index(uses, uint32_t, best)))
			best = (int32_t)l;
	g_array_free(uses, TRUE);
	return best;
}

/*
 * Which patch postings are set aside, and why (those of the window
 * counted in `rv`).  A series is one project's: a patch whose own paths
 * are all unknown (a new top-level directory) stays when another patch
 * of its series, numbered out of the same total, touches a known path
 * (a new top-level file keeps its own patch only, and not when the
 * rest of its series is foreign).
 */
static void set_aside(struct aside_ctx *c, struct ms_review *rv)
{
	size_t n = ms_mail_index_count(c->idx);
	GHashTable *hist = known_paths(c);
	GHashTable *kept = g_hash_table_new_full(ms_str_hash, g_str_equal,
						 g_free, NULL);
	GHashTable *foreign = g_hash_table_new_full(ms_str_hash, g_str_equal,
						    g_free, NULL);
	GHashTable *modified = g_hash_table_new_full(ms_str_hash, g_str_equal,
						     g_free, NULL);
	GHashTable *strong = g_hash_table_new_full(ms_str_hash, g_str_equal,
						   g_free, NULL);
	uint8_t *own;                /* each posting's own answer */
	uint32_t *by = g_new(uint32_t, n ? n : 1);  /* whose evidence */
	bool *anchors = g_new0(bool, n ? n : 1);

	c->why = g_new0(char *, n ? n : 1);
	c->aside = g_new0(uint8_t, n ? n : 1);
	c->strong = g_new0(bool, n ? n : 1);
	c->own = most_sent_to(c);
	c->self = g_hash_table_new(ms_str_hash, g_str_equal);
	c->blob_of = g_hash_table_new_full(ms_str_hash, g_str_equal, g_free,
					   g_free);
	c->on_branch = g_hash_table_new_full(ms_str_hash, g_str_equal, g_free,
					     NULL);
	c->listed = g_hash_table_new_full(ms_str_hash, g_str_equal, g_free,
					  NULL);
	note_created(c, n);
	for (size_t i = 0; i < n; i++) {
		const struct ms_mail_rec *r = rec_at(c, (uint32_t)i);

		if (r->duplicate || r->kind != MS_MAIL_PATCH)
			continue;
		c->aside[i] = (uint8_t)aside_of(c, hist, (uint32_t)i,
						&anchors[i]);
	}
	follow_archive(c, hist, anchors, n);
	for (size_t i = 0; i < n; i++) {
		const struct ms_mail_rec *r = rec_at(c, (uint32_t)i);

		if (r->duplicate || r->kind != MS_MAIL_PATCH)
			continue;
		if (anchors[i] && r->series >= 0)
			g_hash_table_add(kept, series_key(r, NULL));
		if ((c->aside[i] == ASIDE_PATHS ||
		     c->aside[i] == ASIDE_RECIPIENTS) && r->series >= 0)
			g_hash_table_insert(foreign, series_key(r, NULL),
					    GSIZE_TO_POINTER(i + 1));
		if ((c->aside[i] == ASIDE_MODIFIED ||
		     c->aside[i] == ASIDE_SUBJECT) && r->series >= 0)
			g_hash_table_insert(modified, series_key(r, NULL),
					    GSIZE_TO_POINTER(i + 1));
		if (c->strong[i] && r->series >= 0)
			g_hash_table_add(strong, series_key(r, NULL));
	}
	own = g_memdup2(c->aside, n ? n : 1);
	for (size_t i = 0; i < n; i++) {
		const struct ms_mail_rec *r = rec_at(c, (uint32_t)i);
		gsize mate;

		by[i] = (uint32_t)i;
		if (r->duplicate || r->kind != MS_MAIL_PATCH)
			continue;   /* a cover letter is no patch to count */
		if ((c->aside[i] == ASIDE_PATHS ||
		     c->aside[i] == ASIDE_TOP_ONLY ||
		     c->aside[i] == ASIDE_TOP_RECIPIENTS) && r->series >= 0) {
			char *k = series_key(r, NULL);

			mate = GPOINTER_TO_SIZE(g_hash_table_lookup(foreign,
								    k));
			if (g_hash_table_contains(kept, k)) {
				c->aside[i] = ASIDE_NONE;
			} else if (c->aside[i] != ASIDE_TOP_RECIPIENTS &&
				   mate && c->aside[i] != ASIDE_PATHS) {
				c->aside[i] = ASIDE_PATHS;
				by[i] = (uint32_t)(mate - 1);
			}
			g_free(k);
		}
		/* a series with a patch that modifies another project's
		 * file, or names another project, is that project's, unless
		 * a patch of it has strong evidence: then the series is the
		 * project's (LTP's
		 * 20200812073529.25715-*: its 2/2 has an LTP blob, its 1/2
		 * modifies TI's device-discovery.sh) */
		if (r->series >= 0 && !c->strong[i] &&
		    (c->aside[i] == ASIDE_NONE ||
		     c->aside[i] == ASIDE_TOP_ONLY ||
		     c->aside[i] == ASIDE_MODIFIED)) {
			char *k = series_key(r, NULL);

			mate = GPOINTER_TO_SIZE(g_hash_table_lookup(modified,
								    k));
			if (g_hash_table_contains(strong, k)) {
				c->aside[i] = ASIDE_NONE;
			} else if (mate) {
				c->aside[i] = own[mate - 1];
				if (mate - 1 != i)
					by[i] = (uint32_t)(mate - 1);
			}
			g_free(k);
		}
		if (c->aside[i] == ASIDE_TOP_ONLY)
			c->aside[i] = ASIDE_NONE;
		else if (c->aside[i] == ASIDE_TOP_RECIPIENTS)
			c->aside[i] = ASIDE_RECIPIENTS;
		else if (c->aside[i] == ASIDE_MODIFIED)
			c->aside[i] = ASIDE_PATHS;
		if (r->date_valid && r->date >= c->opts->since &&
		    r->date <= c->opts->until)
			note_aside(c, rv, (uint32_t)i, by[i]);
	}
	for (size_t i = 0; i < n; i++)
		g_free(c->why[i]);
	g_free(c->why);
	g_free(own);
	g_free(by);
	g_free(anchors);
	g_hash_table_unref(c->self);
	g_hash_table_unref(c->blob_of);
	g_hash_table_unref(c->on_branch);
	g_hash_table_unref(c->listed);
	g_hash_table_unref(c->created);
	g_free(c->strong);
	g_hash_table_unref(modified);
	g_hash_table_unref(strong);
	g_hash_table_unref(foreign);
	g_hash_table_unref(kept);
	g_hash_table_unref(hist);
}

uint8_t *ms_review_set_aside(const struct ms_link_mail *lm,
			     const struct ms_review_map *map,
			     const GPtrArray *commits,
			     const struct ms_link_result *links,
			     const struct ms_review_opts *opts,
			     struct ms_review *rv)
{
	struct aside_ctx c = { 0 };

	c.lm = lm;
	c.idx = ms_link_mail_index(lm);
	c.map = map;
	c.commits = commits;
	c.links = links;
	c.opts = opts;
	set_aside(&c, rv);
	return c.aside;
}
