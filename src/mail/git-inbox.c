/*
 * git-inbox.c - public-inbox archives read straight from git objects with
 * libgit2.  v2: INBOX/git/N.git epochs, one commit per message, the message
 * in blob "m" of the commit's tree.  v1: the inbox is one bare repository
 * and each commit adds the message under a hashed path.  Commits are read
 * oldest first; a resume point hides a commit and its ancestors.
 */
#include "error.h"
#include "git-common.h"
#include "mail.h"
#include "pack.h"

#include <git2.h>
#include <stdlib.h>
#include <string.h>

struct epoch_ctx {
	const char *inbox;
	int epoch;
	bool v1;
	const struct ms_mail_after *after;
	size_t n_after;
	ms_mail_raw_fn fn;
	void *data;
	struct ms_mail_read_result *result;
	struct ms_pack_reader *pr; /* NULL: libgit2 reads every object */
};

static int emit_blob(git_repository *repo, const git_oid *id,
		     struct epoch_ctx *c, const char *commit_hex)
{
	git_blob *blob = NULL;
	struct ms_pack_obj *po = NULL;
	struct ms_mail_source src = { 0 };
	const char *raw;
	size_t len;
	git_odb *odb = NULL;
	git_object_t type;
	size_t size = 0;
	int rc;

	src.path = c->inbox;
	src.format = c->v1 ? MS_MAIL_FMT_INBOX_V1 : MS_MAIL_FMT_INBOX_V2;
	src.epoch = c->epoch;
	src.commit = commit_hex;
	/* the size from the object header, before libgit2 inflates a blob
	 * of gigabytes into memory: an oversized message is not read */
	if (git_repository_odb(&odb, repo) == 0 &&
	    git_odb_read_header(&size, &type, odb, id) == 0 &&
	    size > ms_mail_max_message_size()) {
		git_odb_free(odb);
		src.problems = 1u << MS_MAIL_P_OVERSIZED;
		c->result->messages++;
		return c->fn("", 0, &src, c->data);
	}
	git_odb_free(odb);
	/* the pack reader's cache keeps the messages just read, the bases
	 * of the next ones' deltas, where libgit2 applies each one's whole
	 * chain again (up to 50 links in a git fast-import pack) */
	if (c->pr && ms_pack_read(c->pr, id->id, &po) == 0 &&
	    po->type == MS_PACK_BLOB) {
		raw = (const char *)po->data;
		len = po->len;
	} else {
		ms_error_clear();
		ms_pack_obj_unref(po);
		po = NULL;
		rc = git_blob_lookup(&blob, repo, id);
		if (rc < 0)
			return ms_git_error(rc, "cannot read message %s of "
					    "'%s'", commit_hex, c->inbox);
		raw = git_blob_rawcontent(blob);
		len = (size_t)git_blob_rawsize(blob);
	}
	/* some importers keep the mbox From_ line; drop it */
	if (len > 5 && !memcmp(raw, "From ", 5)) {
		const char *nl = memchr(raw, '\n', len);
		if (nl) {
			len -= (size_t)(nl + 1 - raw);
			raw = nl + 1;
		}
	}
	c->result->messages++;
	c->result->bytes += len;
	rc = c->fn(raw, len, &src, c->data);
	git_blob_free(blob);
	ms_pack_obj_unref(po);
	return rc;
}

/* v1: the blobs a commit added or changed, against its first parent. */
static int emit_v1(git_repository *repo, git_commit *commit,
		   struct epoch_ctx *c, const char *hex)
{
	git_tree *tree = NULL, *parent_tree = NULL;
	git_commit *parent = NULL;
	git_diff *diff = NULL;
	int rc;

	rc = git_commit_tree(&tree, commit);
	if (rc == 0 && git_commit_parentcount(commit) > 0) {
		rc = git_commit_parent(&parent, commit, 0);
		if (rc == 0)
			rc = git_commit_tree(&parent_tree, parent);
	}
	if (rc == 0)
		rc = git_diff_tree_to_tree(&diff, repo, parent_tree, tree,
					   NULL);
	if (rc < 0) {
		rc = ms_git_error(rc, "cannot read commit %s of '%s'", hex,
				  c->inbox);
		goto done;
	}
	for (size_t i = 0; i < git_diff_num_deltas(diff) && !rc; i++) {
		const git_diff_delta *d = git_diff_get_delta(diff, i);
		if (d->status == GIT_DELTA_ADDED ||
		    d->status == GIT_DELTA_MODIFIED)
			rc = emit_blob(repo, &d->new_file.id, c, hex);
	}
done:
	git_diff_free(diff);
	git_tree_free(tree);
	git_tree_free(parent_tree);
	git_commit_free(parent);
	return rc;
}

static int hide_after(git_repository *repo, git_revwalk *walk,
		      struct epoch_ctx *c)
{
	for (size_t i = 0; i < c->n_after; i++) {
		const struct ms_mail_after *a = &c->after[i];
		git_object *obj = NULL;
		int rc;

		if (a->epoch >= 0 && a->epoch != c->epoch)
			continue;
		rc = git_revparse_single(&obj, repo, a->commit);
		if (rc < 0) {
			if (a->epoch < 0)
				continue; /* in another epoch */
			return ms_git_error(rc, "cannot find commit '%s' in "
					    "epoch %d of '%s'", a->commit,
					    c->epoch, c->inbox);
		}
		rc = git_revwalk_hide(walk, git_object_id(obj));
		git_object_free(obj);
		if (rc < 0)
			return ms_git_error(rc, "cannot resume after '%s'",
					    a->commit);
	}
	return 0;
}

static int read_epoch(const char *gitdir, struct epoch_ctx *c)
{
	git_repository *repo = NULL;
	git_revwalk *walk = NULL;
	git_oid oid, last;
	bool any = false;
	char *objdir = g_build_filename(gitdir, "objects", NULL);
	struct ms_packs *ps = NULL;
	int rc;

	rc = git_repository_open_bare(&repo, gitdir);
	if (rc < 0) {
		g_free(objdir);
		return ms_git_error(rc, "cannot open repository '%s'", gitdir);
	}
	if (ms_packs_open(objdir, 0, &ps) < 0)
		ms_error_clear();
	else
		c->pr = ms_pack_reader_new(ps);
	g_free(objdir);
	rc = git_revwalk_new(&walk, repo);
	if (rc == 0)
		git_revwalk_sorting(walk, GIT_SORT_TOPOLOGICAL |
					  GIT_SORT_REVERSE);
	if (rc == 0) {
		rc = git_revwalk_push_head(walk);
		if (rc == GIT_ENOTFOUND || rc == GIT_EUNBORNBRANCH) {
			rc = 0; /* an empty epoch */
			goto done;
		}
	}
	if (rc < 0) {
		rc = ms_git_error(rc, "cannot walk '%s'", gitdir);
		goto done;
	}
	rc = hide_after(repo, walk, c);
	while (rc == 0) {
		git_commit *commit = NULL;
		git_tree *tree = NULL;
		char hex[GIT_OID_HEXSZ + 1];
		int wrc = git_revwalk_next(&oid, walk);

		if (wrc == GIT_ITEROVER)
			break;
		if (wrc < 0) {
			rc = ms_git_error(wrc, "cannot walk '%s'", gitdir);
			break;
		}

		git_oid_tostr(hex, sizeof hex, &oid);
		rc = git_commit_lookup(&commit, repo, &oid);
		if (rc < 0) {
			rc = ms_git_error(rc, "cannot read commit %s of '%s'",
					  hex, gitdir);
			break;
		}
		if (c->v1) {
			rc = emit_v1(repo, commit, c, hex);
		} else {
			rc = git_commit_tree(&tree, commit);
			if (rc < 0) {
				rc = ms_git_error(rc, "cannot read tree of %s",
						  hex);
			} else {
				const git_tree_entry *e =
					git_tree_entry_byname(tree, "m");
				/* deletions leave "d" instead of "m" */
				if (e && git_tree_entry_type(e) ==
						 GIT_OBJECT_BLOB)
					rc = emit_blob(repo,
						       git_tree_entry_id(e),
						       c, hex);
			}
		}
		git_tree_free(tree);
		git_commit_free(commit);
		last = oid;
		any = true;
	}
	if (rc == 0 && any) {
		char hex[GIT_OID_HEXSZ + 1];
		git_oid_tostr(hex, sizeof hex, &last);
		g_ptr_array_add(c->result->heads,
				g_strdup_printf("%d:%s", c->epoch, hex));
	}
done:
	ms_pack_reader_free(c->pr);
	c->pr = NULL;
	ms_packs_free(ps);
	git_revwalk_free(walk);
	git_repository_free(repo);
	return rc;
}

static int compare_epochs(gconstpointer a, gconstpointer b)
{
	int x = GPOINTER_TO_INT(*(gconstpointer *)a);
	int y = GPOINTER_TO_INT(*(gconstpointer *)b);
	return (x > y) - (x < y);
}

/*
 * The epochs of a v2 inbox's git/ directory `dir` (closed here), in
 * order: canonical "N.git" names only, since strtol would also read
 * "00.git", "+0.git" and " 0.git" as epoch 0 and each would re-read
 * 0.git (every message counted again).  Reading and pinning an inbox
 * (ms_inbox_heads()) must see the same epochs.
 */
static GPtrArray *list_epochs(GDir *dir)
{
	GPtrArray *epochs = g_ptr_array_new();
	const char *name;

	while ((name = g_dir_read_name(dir))) {
		size_t digits = strspn(name, "0123456789");

		if (!digits || digits > 5 || strcmp(name + digits, ".git") ||
		    (name[0] == '0' && digits > 1))
			continue;
		g_ptr_array_add(epochs, GINT_TO_POINTER(
					(int)strtol(name, NULL, 10)));
	}
	g_dir_close(dir);
	g_ptr_array_sort(epochs, compare_epochs);
	return epochs;
}

int ms_inbox_read(const char *path, const struct ms_mail_after *after,
		  size_t n_after, ms_mail_raw_fn fn, void *data,
		  struct ms_mail_read_result *result)
{
	struct epoch_ctx c = { path, 0, false, after, n_after, fn, data,
			       result, NULL };
	char *gitdir = g_build_filename(path, "git", NULL);
	GDir *dir;
	GPtrArray *epochs;
	int rc = 0;

	ms_git_init();
	dir = g_dir_open(gitdir, 0, NULL);
	if (!dir) {
		g_free(gitdir);
		c.v1 = true;
		c.epoch = 0;
		result->format = MS_MAIL_FMT_INBOX_V1;
		return read_epoch(path, &c);
	}
	result->format = MS_MAIL_FMT_INBOX_V2;
	epochs = list_epochs(dir);
	for (guint i = 0; i < epochs->len && !rc; i++) {
		char *name_git = g_strdup_printf(
			"%d.git", GPOINTER_TO_INT(epochs->pdata[i]));
		char *epoch_dir = g_build_filename(gitdir, name_git, NULL);
		c.epoch = GPOINTER_TO_INT(epochs->pdata[i]);
		rc = read_epoch(epoch_dir, &c);
		g_free(epoch_dir);
		g_free(name_git);
	}
	if (!epochs->len)
		rc = ms_error_set(MS_ENOTFOUND, "'%s' has no epochs in "
				  "git/", path);
	g_ptr_array_unref(epochs);
	g_free(gitdir);
	return rc;
}

/* "N:HEX" of the epoch at `gitdir`, or "N:-" when it has no commit. */
static int epoch_head(const char *gitdir, int epoch, GPtrArray *out)
{
	git_repository *repo = NULL;
	git_oid oid;
	char hex[GIT_OID_HEXSZ + 1];
	int rc = git_repository_open_bare(&repo, gitdir);

	if (rc < 0)
		return ms_git_error(rc, "cannot open repository '%s'", gitdir);
	rc = git_reference_name_to_id(&oid, repo, "HEAD");
	if (rc == GIT_ENOTFOUND || rc == GIT_EUNBORNBRANCH) {
		g_ptr_array_add(out, g_strdup_printf("%d:-", epoch));
		rc = 0;
	} else if (rc < 0) {
		rc = ms_git_error(rc, "cannot resolve HEAD of '%s'", gitdir);
	} else {
		git_oid_tostr(hex, sizeof hex, &oid);
		g_ptr_array_add(out, g_strdup_printf("%d:%s", epoch, hex));
	}
	git_repository_free(repo);
	return rc;
}

int ms_inbox_heads(const char *path, GPtrArray **out)
{
	char *gitdir = g_build_filename(path, "git", NULL);
	GPtrArray *epochs, *heads = g_ptr_array_new_with_free_func(g_free);
	GDir *dir;
	int rc = 0;

	*out = NULL;
	ms_git_init();
	dir = g_dir_open(gitdir, 0, NULL);
	if (!dir) {
		g_free(gitdir);
		rc = epoch_head(path, 0, heads);
		if (rc < 0)
			g_ptr_array_unref(heads);
		else
			*out = heads;
		return rc;
	}
	epochs = list_epochs(dir);
	for (guint i = 0; i < epochs->len && !rc; i++) {
		int e = GPOINTER_TO_INT(epochs->pdata[i]);
		char *name_git = g_strdup_printf("%d.git", e);
		char *epoch_dir = g_build_filename(gitdir, name_git, NULL);

		rc = epoch_head(epoch_dir, e, heads);
		g_free(epoch_dir);
		g_free(name_git);
	}
	if (!rc && !epochs->len)
		rc = ms_error_set(MS_ENOTFOUND, "'%s' has no epochs in git/",
				  path);
	g_ptr_array_unref(epochs);
	g_free(gitdir);
	if (rc < 0)
		g_ptr_array_unref(heads);
	else
		*out = heads;
	return rc;
}
