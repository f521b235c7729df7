/*
 * git-log.c - the libgit2 adapter for one commit's lines of
 * get_maintainer.pl's git log (git-log.h).  The message is cut as git's
 * pretty.c cuts it (format_subject(), skip_blank_lines()), the author
 * as split_ident_line() splits it, the date as show_date()'s RFC 2822.
 */
#include "git-log.h"
#include "diff.h"
#include "error.h"
#include "git-common.h"
#include "git-follow.h"

#include <git2.h>
#include <stdbool.h>
#include <string.h>

struct ms_git_log {
	git_repository *repo;
};

int ms_git_log_open(const char *gitdir, struct ms_git_log **out)
{
	git_repository *repo = NULL;
	int rc;

	*out = NULL;
	rc = ms_git_open(gitdir, &repo);
	if (rc < 0)
		return rc;
	*out = g_new0(struct ms_git_log, 1);
	(*out)->repo = repo;
	return 0;
}

void ms_git_log_free(struct ms_git_log *g)
{
	if (!g)
		return;
	git_repository_free(g->repo);
	g_free(g);
}

/* git's isspace() (sane_ctype's GIT_SPACE) */
static bool gspace(char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

/* get_one_line(): the length of the line at `m`, its '\n' included. */
static size_t one_line(const char *m)
{
	const char *nl = strchr(m, '\n');

	return nl ? (size_t)(nl - m) + 1 : strlen(m);
}

/* is_blank_line(): trims *len of trailing blanks; whether none is left */
static bool blank(const char *l, size_t *len)
{
	while (*len && gspace(l[*len - 1]))
		--*len;
	return !*len;
}

static const char *skip_blank_lines(const char *m)
{
	for (;;) {
		size_t n = one_line(m), ll = n;

		if (!n || !blank(m, &ll))
			return m;
		m += n;
	}
}

/* %s then, with `body`, %b%n of message `m`, and tformat's '\n' */
static void subject_body(GString *out, const char *m, bool body)
{
	bool first = true;

	m = skip_blank_lines(m);
	g_string_append(out, "GitSubject: ");
	for (;;) {
		const char *l = m;
		size_t n = one_line(l);

		m += n;
		if (!n || blank(l, &n))
			break;
		if (!first)
			g_string_append_c(out, ' ');
		g_string_append_len(out, l, (gssize)n);
		first = false;
	}
	g_string_append_c(out, '\n');
	if (body) {
		g_string_append(out, skip_blank_lines(m));
		g_string_append_c(out, '\n');
	}
	g_string_append_c(out, '\n');
}

/* "GitAuthor: %an <%ae>" from the raw header, as split_ident_line()
 * reads the author line; false when it does not parse */
static bool author(GString *out, const char *hdr)
{
	const char *l = strncmp(hdr, "author ", 7) ? strstr(hdr, "\nauthor ")
		: hdr - 1;
	const char *end, *lt, *gt, *ne;

	if (!l)
		return false;
	l += 8;
	end = strchr(l, '\n');
	if (!end)
		end = l + strlen(l);
	lt = memchr(l, '<', (size_t)(end - l));
	if (!lt)
		return false;
	gt = memchr(lt, '>', (size_t)(end - lt));
	if (!gt)
		return false;
	for (ne = lt - 1; ne >= l && gspace(*ne); ne--)
		;
	g_string_append(out, "GitAuthor: ");
	g_string_append_len(out, l, ne + 1 - l);
	g_string_append(out, " <");
	g_string_append_len(out, lt + 1, gt - lt - 1);
	g_string_append(out, ">\n");
	return true;
}

/* "GitDate: %aD" */
static void date(GString *out, const git_signature *a)
{
	g_string_append(out, "GitDate: ");
	ms_append_date_rfc2822(out, a->when.time, a->when.offset);
	g_string_append_c(out, '\n');
}

/* Whether git prints commit `c`'s message as it is: no encoding but
 * UTF-8 declared */
static bool utf8(const git_commit *c)
{
	const char *enc = git_commit_message_encoding(c);

	return !enc || !g_ascii_strcasecmp(enc, "utf-8") ||
	       !g_ascii_strcasecmp(enc, "utf8");
}

/* The format's lines for commit `c`; false when its author line does not
 * parse */
static bool header(GString *out, git_commit *c, bool body)
{
	g_string_append_printf(out, "GitCommit: %s\n",
			       git_oid_tostr_s(git_commit_id(c)));
	if (!author(out, git_commit_raw_header(c)))
		return false;
	date(out, git_commit_author(c));
	subject_body(out, git_commit_message_raw(c), body);
	return true;
}

/* The entry of `path` in `tree` (NULL: none); false when it is no file
 * or symbolic link. */
static bool entry(git_tree *tree, const char *path, git_tree_entry **e)
{
	git_filemode_t m;

	*e = NULL;
	if (!tree || git_tree_entry_bypath(e, tree, path) < 0)
		return true;
	m = git_tree_entry_filemode(*e);
	return m == GIT_FILEMODE_BLOB || m == GIT_FILEMODE_BLOB_EXECUTABLE ||
	       m == GIT_FILEMODE_LINK;
}

/* pprint_rename(): "pfx{a => b}sfx", the common prefix and suffix cut
 * at a '/' */
static void rename_name(GString *out, const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b), pfx = 0, sfx = 0, adj;
	const char *x = a, *y = b;
	ptrdiff_t am, bm;

	for (; *x && *y && *x == *y; x++, y++)
		if (*x == '/')
			pfx = (size_t)(x - a) + 1;
	adj = pfx ? 1 : 0;
	x = a + la;
	y = b + lb;
	while (a + pfx - adj <= x && b + pfx - adj <= y && *x == *y) {
		if (*x == '/')
			sfx = la - (size_t)(x - a);
		if (x == a || y == b)
			break;    /* git reads a byte before; it stops too */
		x--;
		y--;
	}
	am = MAX((ptrdiff_t)(la - pfx - sfx), 0);
	bm = MAX((ptrdiff_t)(lb - pfx - sfx), 0);
	if (pfx + sfx) {
		g_string_append_len(out, a, (gssize)pfx);
		g_string_append_c(out, '{');
	}
	g_string_append_len(out, a + pfx, am);
	g_string_append(out, " => ");
	g_string_append_len(out, b + pfx, bm);
	if (pfx + sfx) {
		g_string_append_c(out, '}');
		g_string_append_len(out, a + la - sfx, (gssize)sfx);
	}
}

/* The numstat line of `from` (in the parent, entry `a`) against `path`
 * (entry `b`): a rename or copy when they differ. */
static int numstat(git_repository *repo, const char *from, const char *path,
		   const git_oid *a, const git_oid *b, GString *out)
{
	git_blob *ba = NULL, *bb = NULL;
	git_patch *p = NULL;
	git_diff_options o;
	bool bina = false, binb = false;
	size_t add = 0, del = 0;
	GString *name = g_string_new(NULL);
	int rc;

	if (strcmp(from, path))
		rename_name(name, from, path);
	else
		g_string_append(name, path);
	if ((a && (rc = git_blob_lookup(&ba, repo, a)) < 0) ||
	    (b && (rc = git_blob_lookup(&bb, repo, b)) < 0))
		goto out;
	rc = ms_git_is_binary(repo, path, bb, &binb);
	if (rc == 0)
		rc = ms_git_is_binary(repo, from, ba, &bina);
	if (rc)
		goto out;
	if (bina || binb) {
		g_string_append_printf(out, "-\t-\t%s\n", name->str);
		goto out;
	}
	git_diff_options_init(&o, GIT_DIFF_OPTIONS_VERSION);
	o.flags = GIT_DIFF_FORCE_TEXT;
	rc = git_patch_from_blobs(&p, ba, from, bb, path, &o);
	if (rc == 0)
		rc = git_patch_line_stats(NULL, &add, &del, p);
	if (rc == 0)
		g_string_append_printf(out, "%zu\t%zu\t%s\n", add, del,
				       name->str);
out:
	g_string_free(name, TRUE);
	git_patch_free(p);
	git_blob_free(ba);
	git_blob_free(bb);
	return rc;
}

/* Whether git log would print `path` other than as it is: C quoting */
static bool quoted(const char *path)
{
	for (const unsigned char *p = (const void *)path; *p; p++)
		if (*p < 0x20 || *p >= 0x7f || *p == '"' || *p == '\\')
			return true;
	return false;
}

int ms_git_log_commit(struct ms_git_log *g, const char *id, const char *path,
		      bool stat, GString *out, char **follow)
{
	char *from = NULL;
	git_commit *c = NULL, *parent = NULL;
	git_tree *tree = NULL, *ptree = NULL;
	git_tree_entry *a = NULL, *b = NULL;
	size_t len = out->len;
	git_oid oid;
	int rc;

	*follow = NULL;
	if (quoted(path) || git_oid_fromstr(&oid, id) < 0)
		return 1;
	rc = git_commit_lookup(&c, g->repo, &oid);
	if (rc == 0 && git_commit_parentcount(c) > 1)
		rc = 1;
	if (rc == 0 && git_commit_parentcount(c))
		rc = git_commit_parent(&parent, c, 0);
	if (rc == 0)
		rc = git_commit_tree(&tree, c);
	if (rc == 0 && parent)
		rc = git_commit_tree(&ptree, parent);
	if (rc)
		goto out;
	if (!utf8(c) || !entry(ptree, path, &a) ||
	    !entry(tree, path, &b) || (!a && !b) ||
	    (a && b && (git_tree_entry_filemode(a) == GIT_FILEMODE_LINK) !=
	     (git_tree_entry_filemode(b) == GIT_FILEMODE_LINK))) {
		rc = 1;
		goto out;
	}
	/* added: --follow looks for its source among all files of the
	 * parent, and follows it from here on */
	if (!a && ptree)
		rc = ms_git_follow(g->repo, ptree, tree, path, b, false,
				   &from);
	if (rc == 0 && from && (quoted(from) || !entry(ptree, from, &a) || !a))
		rc = 1;
	if (rc)
		goto out;
	if (!header(out, c, true)) {
		rc = 1;
		goto out;
	}
	if (stat)
		rc = numstat(g->repo, from ? from : path, path,
			     a ? git_tree_entry_id(a) : NULL,
			     b ? git_tree_entry_id(b) : NULL, out);
out:
	if (rc)
		g_string_truncate(out, len);
	if (rc == 0)
		*follow = g_steal_pointer(&from);
	g_free(from);
	if (rc < 0)
		rc = ms_git_error(rc, "cannot read commit %s", id);
	git_tree_entry_free(a);
	git_tree_entry_free(b);
	git_tree_free(tree);
	git_tree_free(ptree);
	git_commit_free(parent);
	git_commit_free(c);
	return rc;
}

/* Configuration that makes git log's output other than this file's: 1 */
static int other_log(git_repository *repo)
{
	static const char *const keys[] = {
		"diff.renames", "diff.algorithm", "diff.orderFile",
		"diff.relative", "log.showRoot", "log.showSignature",
		"i18n.logOutputEncoding", NULL };
	git_config *cfg = NULL;
	git_config_entry *e = NULL;
	int v, rc = git_repository_config_snapshot(&cfg, repo);

	/* any of them set, but diff.renames to its default, true */
	for (const char *const *k = keys; rc == 0 && *k; k++) {
		if (git_config_get_entry(&e, cfg, *k) == 0)
			rc = k != keys || git_config_get_bool(&v, cfg, *k) ||
			     !v;
		git_config_entry_free(e);
		e = NULL;
	}
	git_config_free(cfg);
	return rc;
}

/* get_oid() of `id` (hex): the commit git log shows; 1 when git must
 * say (a ref of that name, an object other than a commit, an
 * abbreviation of several, or of none with a file of that name), 2 when
 * git dies (no such commit; a file of that name beside one) */
static int resolve(git_repository *repo, const char *id, git_commit **c)
{
	size_t n = strlen(id);
	git_reference *ref = NULL;
	const char *top = git_repository_workdir(repo);
	char *file = top ? g_build_filename(top, id, NULL) : NULL;
	bool exists = file && g_file_test(file, G_FILE_TEST_EXISTS);
	git_oid oid;
	int rc = 1;

	*c = NULL;
	g_free(file);
	if (n < 4 || strspn(id, "0123456789abcdefABCDEF") != n ||
	    git_oid_fromstrn(&oid, id, n) < 0)
		return 1;
	if (n < GIT_OID_HEXSZ) {
		rc = git_reference_dwim(&ref, repo, id);
		git_reference_free(ref);
		if (rc != GIT_ENOTFOUND)
			return 1;
	}
	rc = git_object_lookup_prefix((git_object **)c, repo, &oid, n,
				      GIT_OBJECT_ANY);
	if (rc == 0)
		return git_object_type((git_object *)*c) != GIT_OBJECT_COMMIT ?
		       1 : exists ? 2 : 0;
	/* unknown: git then takes a short id for a path, or dies */
	return rc != GIT_ENOTFOUND || (n < GIT_OID_HEXSZ && (!top || exists)) ?
	       1 : 2;
}

/* base_name_compare(): a tree's name as if it ended in '/' */
static int name_cmp(const git_tree_entry *x, const git_tree_entry *y)
{
	const char *p = git_tree_entry_name(x), *q = git_tree_entry_name(y);
	size_t lp = strlen(p), lq = strlen(q), n = MIN(lp, lq);
	int c = memcmp(p, q, n), tx = git_tree_entry_type(x) ==
		GIT_OBJECT_TREE, ty = git_tree_entry_type(y) == GIT_OBJECT_TREE;

	return c ? c : (lp > n ? p[n] : tx ? '/' : 0) -
		       (lq > n ? q[n] : ty ? '/' : 0);
}

/* A walk of a commit's diff for ms_git_log_show() */
struct walk {
	git_repository *repo;
	git_odb *odb;
	GString *at;          /* the numstat lines of paths with an '@' */
	bool added, deleted;  /* some file added, some deleted */
	bool at_new;          /* a path with an '@' added or deleted */
};

static int tree_diff(struct walk *w, const git_tree_entry *x,
		     const git_tree_entry *y, const char *base);

/*
 * diff_tree()'s walk from tree `a` to `b` (NULL: none) under `base`, in
 * git's order, which skips what is unchanged: the numstat lines of the
 * changed paths with an '@' into w->at; 1 when git must say (see
 * tree_diff()).
 */
static int trees(struct walk *w, const git_tree *a, const git_tree *b,
		 const char *base)
{
	size_t i = 0, j = 0, na = a ? git_tree_entrycount(a) : 0,
	       nb = b ? git_tree_entrycount(b) : 0;
	int rc = 0;

	while (rc == 0 && (i < na || j < nb)) {
		const git_tree_entry *x = i < na ?
			git_tree_entry_byindex(a, i) : NULL;
		const git_tree_entry *y = j < nb ?
			git_tree_entry_byindex(b, j) : NULL;
		int c = !x ? 1 : !y ? -1 : name_cmp(x, y);

		if (c < 0)
			y = NULL;
		else if (c > 0)
			x = NULL;
		i += x != NULL;
		j += y != NULL;
		if (!x || !y || !git_oid_equal(git_tree_entry_id(x),
					      git_tree_entry_id(y)) ||
		    git_tree_entry_filemode(x) != git_tree_entry_filemode(y))
			rc = tree_diff(w, x, y, base);
	}
	return rc;
}

static bool is_blob(const git_tree_entry *e)
{
	return e && git_tree_entry_type(e) == GIT_OBJECT_BLOB;
}

/* Whether `e` (or NULL) is a blob the repository lacks */
static bool missing(const struct walk *w, const git_tree_entry *e)
{
	return is_blob(e) && !git_odb_exists(w->odb, git_tree_entry_id(e));
}

/* The change from entry `x` to `y` (either NULL), of the same name: 1
 * when git must say: a blob missing (git dies reading it), or a path
 * with an '@' that git quotes, or that is a submodule or changes type
 * there. */
static int tree_diff(struct walk *w, const git_tree_entry *x,
		     const git_tree_entry *y, const char *base)
{
	const git_tree_entry *e = x ? x : y;
	char *path = g_strconcat(base, git_tree_entry_name(e), NULL);
	git_tree *a = NULL, *b = NULL;
	int rc = 0;

	if (git_tree_entry_type(e) == GIT_OBJECT_TREE) {
		char *sub = g_strconcat(path, "/", NULL);

		if (x)
			rc = git_tree_lookup(&a, w->repo, git_tree_entry_id(x));
		if (rc == 0 && y)
			rc = git_tree_lookup(&b, w->repo, git_tree_entry_id(y));
		if (rc == 0)
			rc = trees(w, a, b, sub);
		git_tree_free(a);
		git_tree_free(b);
		g_free(sub);
	} else if (missing(w, x) || missing(w, y)) {
		rc = 1;
	} else {
		w->added |= !x;
		w->deleted |= !y;
	}
	if (rc || !strchr(path, '@') || git_tree_entry_type(e) ==
	    GIT_OBJECT_TREE) {
		g_free(path);
		return rc;
	}
	w->at_new |= !x || !y;
	if (quoted(path) || (x && !is_blob(x)) || (y && !is_blob(y)) ||
	    (x && y && (git_tree_entry_filemode(x) == GIT_FILEMODE_LINK) !=
	     (git_tree_entry_filemode(y) == GIT_FILEMODE_LINK)))
		rc = 1;
	else
		rc = numstat(w->repo, path, path, x ? git_tree_entry_id(x) :
			     NULL, y ? git_tree_entry_id(y) : NULL, w->at);
	g_free(path);
	return rc;
}

char *ms_git_log_show(struct git_repository *repo, const char *id,
		      bool body, bool stat)
{
	git_commit *c = NULL, *parent = NULL;
	git_tree *tree = NULL, *ptree = NULL;
	struct walk w = { repo, NULL, g_string_new(NULL), false, false, false };
	GString *out = g_string_new(NULL);
	int rc = other_log(repo);

	if (rc == 0)
		rc = resolve(repo, id, &c);
	if (rc == 0 && !(utf8(c) && header(out, c, body)))
		rc = 1;
	/* a merge shows no diff */
	if (rc == 0 && stat && git_commit_parentcount(c) < 2) {
		if (git_commit_parentcount(c))
			rc = git_commit_parent(&parent, c, 0);
		if (rc == 0)
			rc = git_commit_tree(&tree, c);
		if (rc == 0 && parent)
			rc = git_commit_tree(&ptree, parent);
		if (rc == 0)
			rc = git_repository_odb(&w.odb, repo);
		if (rc == 0)
			rc = trees(&w, ptree, tree, "");
		/* git's renames could pair it with another path */
		if (rc == 0 && w.at_new && w.added && w.deleted)
			rc = 1;
		if (rc == 0 && w.at->len)
			g_string_append_printf(out, "\n%s", w.at->str);
	}
	g_string_free(w.at, TRUE);
	git_odb_free(w.odb);
	git_tree_free(tree);
	git_tree_free(ptree);
	git_commit_free(parent);
	git_commit_free(c);
	if (rc == 2)
		g_string_truncate(out, 0);
	if (rc < 0)
		ms_error_clear();
	return g_string_free(out, rc != 0 && rc != 2);
}
