/*
 * git-log.c - the libgit2 adapter for one commit's lines of
 * get_maintainer.pl's git log (git-log.h).  The message is cut as git's
 * pretty.c cuts it (format_subject(), skip_blank_lines()), the author
 * as split_ident_line() splits it, the date as show_date()'s RFC 2822.
 */
#include "git-log.h"
#include "error.h"
#include "git-common.h"
#include "git-follow.h"

#include <git2.h>
#include <stdbool.h>
#include <string.h>
#include <time.h>

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

/* %s then %b of message `m` */
static void subject_body(GString *out, const char *m)
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
	g_string_append(out, skip_blank_lines(m));
	g_string_append(out, "\n\n");
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
	static const char *const wd[] = { "Sun", "Mon", "Tue", "Wed", "Thu",
					  "Fri", "Sat" };
	static const char *const mo[] = { "Jan", "Feb", "Mar", "Apr", "May",
					  "Jun", "Jul", "Aug", "Sep", "Oct",
					  "Nov", "Dec" };
	time_t t = (time_t)(a->when.time + a->when.offset * 60);
	int off = a->when.offset, tz = off / 60 * 100 + off % 60;
	struct tm tm;

	gmtime_r(&t, &tm);
	g_string_append_printf(out, "GitDate: %s, %d %s %d %02d:%02d:%02d "
			       "%+05d\n", wd[tm.tm_wday], tm.tm_mday,
			       mo[tm.tm_mon], tm.tm_year + 1900, tm.tm_hour,
			       tm.tm_min, tm.tm_sec, tz);
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
static int numstat(struct ms_git_log *g, const char *from, const char *path,
		   git_tree_entry *a, git_tree_entry *b, GString *out)
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
	if ((a && (rc = git_blob_lookup(&ba, g->repo,
					git_tree_entry_id(a))) < 0) ||
	    (b && (rc = git_blob_lookup(&bb, g->repo,
					git_tree_entry_id(b))) < 0))
		goto out;
	rc = ms_git_is_binary(g->repo, path, bb, &binb);
	if (rc == 0)
		rc = ms_git_is_binary(g->repo, from, ba, &bina);
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
	const char *enc;
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
	enc = git_commit_message_encoding(c);
	if ((enc && g_ascii_strcasecmp(enc, "utf-8") &&
	     g_ascii_strcasecmp(enc, "utf8")) || !entry(ptree, path, &a) ||
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
	g_string_append_printf(out, "GitCommit: %s\n", id);
	if (!author(out, git_commit_raw_header(c))) {
		rc = 1;
		goto out;
	}
	date(out, git_commit_author(c));
	subject_body(out, git_commit_message_raw(c));
	if (stat)
		rc = numstat(g, from ? from : path, path, a, b, out);
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
