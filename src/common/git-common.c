#include "git-common.h"
#include "bytes.h"
#include "error.h"

#include <git2.h>
#include <glib.h>
#include <stdarg.h>
#include <string.h>

#define MS_GIT_WINDOW ((size_t)32 << 20)
#define MS_GIT_MAPPED_LIMIT ((size_t)256 << 20)

static gpointer map_more(gpointer unused)
{
	(void)unused;
	ms_git_init();
	git_libgit2_opts(GIT_OPT_SET_MWINDOW_MAPPED_LIMIT, (size_t)8 << 30);
	return NULL;
}

static gpointer init_once(gpointer unused)
{
	(void)unused;
	git_libgit2_init();
	/* We read object databases a lot and verify nothing we write. */
	git_libgit2_opts(GIT_OPT_ENABLE_STRICT_HASH_VERIFICATION, 0);
	/*
	 * libgit2 maps packs in windows of 1 GiB, up to 8 GiB in all, on
	 * 64-bit: reading every commit of a history (the revwalk) kept the
	 * whole pack mapped and resident beside the history walk's own
	 * mapping of it (src/history/pack.c), 1.5 GB at a million commits.
	 * Smaller windows, and few of them, bound libgit2's part;
	 * docs/performance.md, "Memory of the walk", measures the cost.
	 */
	git_libgit2_opts(GIT_OPT_SET_MWINDOW_SIZE, (size_t)MS_GIT_WINDOW);
	git_libgit2_opts(GIT_OPT_SET_MWINDOW_MAPPED_LIMIT,
			 (size_t)MS_GIT_MAPPED_LIMIT);
	return NULL;
}

/*
 * A walk that reads file contents (the patch-ids of `link` and `review`)
 * reads blobs from all over the pack, through libgit2: with 256 MiB of
 * windows a million-commit pack (1.5 GB) was unmapped and mapped again
 * for most reads, a page fault and a TLB flush each.  Such a run takes
 * libgit2's own default back, 8 GiB in all.
 */
void ms_git_map_for_contents(void)
{
	static GOnce once = G_ONCE_INIT;

	g_once(&once, map_more, NULL);
}

void ms_git_init(void)
{
	static GOnce once = G_ONCE_INIT;

	g_once(&once, init_once, NULL);
}

int ms_git_error(int git_code, const char *fmt, ...)
{
	const git_error *e = git_error_last();
	int code = git_code == GIT_ENOTFOUND ? MS_ENOTFOUND : MS_ERROR;
	va_list ap;
	char *what;

	va_start(ap, fmt);
	what = g_strdup_vprintf(fmt, ap);
	va_end(ap);
	if (e && e->message && *e->message)
		ms_error_set(code, "%s: %s", what, e->message);
	else
		ms_error_set(code, "%s", what);
	g_free(what);
	return code;
}

int ms_git_open(const char *gitdir, git_repository **out)
{
	int rc;

	*out = NULL;
	ms_git_init();
	rc = git_repository_open_ext(out, gitdir,
				     GIT_REPOSITORY_OPEN_NO_SEARCH, NULL);
	if (rc == GIT_ENOTFOUND)
		return ms_error_set(MS_ENOTFOUND,
				    "not a git repository: '%s'", gitdir);
	if (rc < 0)
		return ms_git_error(rc, "cannot open repository '%s'",
				    gitdir);
	return 0;
}

static char *config_string(git_config *cfg, const char *key)
{
	git_buf buf = { 0 };
	char *out = NULL;

	if (git_config_get_string_buf(&buf, cfg, key) == 0)
		out = g_strdup(buf.ptr);
	git_buf_dispose(&buf);
	return out;
}

int ms_git_user(const char *gitdir, char **name, char **email)
{
	git_repository *repo = NULL;
	git_config *cfg = NULL;
	int rc;

	*name = *email = NULL;
	rc = ms_git_open(gitdir, &repo);
	if (rc < 0)
		return rc;
	rc = git_repository_config_snapshot(&cfg, repo);
	if (rc == 0) {
		*name = config_string(cfg, "user.name");
		*email = config_string(cfg, "user.email");
	}
	git_config_free(cfg);
	git_repository_free(repo);
	git_error_clear();
	return 0;
}

int ms_git_discover(const char *start, char **out)
{
	git_buf buf = { 0 };
	git_repository *repo = NULL;
	const char *dir;
	int rc;

	*out = NULL;
	ms_git_init();
	rc = git_repository_discover(&buf, start, 0, NULL);
	if (rc < 0)
		return ms_git_error(rc, "'%s' is not inside a git repository",
				    start);
	rc = git_repository_open(&repo, buf.ptr);
	if (rc < 0) {
		rc = ms_git_error(rc, "cannot open repository '%s'", buf.ptr);
		goto out;
	}
	/* the work tree, as a user names it; a bare repository itself */
	dir = git_repository_workdir(repo);
	*out = g_strdup(dir ? dir : git_repository_path(repo));
	if (strlen(*out) > 1 && (*out)[strlen(*out) - 1] == '/')
		(*out)[strlen(*out) - 1] = '\0';
out:
	git_repository_free(repo);
	git_buf_dispose(&buf);
	return rc;
}

/* "name\ntarget" of a reference (target: an id, or the name a symbolic
 * ref names). */
static char *ref_line(git_reference *ref)
{
	char hex[GIT_OID_HEXSZ + 1] = "";
	const char *target = hex;

	if (git_reference_type(ref) == GIT_REFERENCE_SYMBOLIC)
		target = git_reference_symbolic_target(ref);
	else if (git_reference_target(ref))
		git_oid_tostr(hex, sizeof hex, git_reference_target(ref));
	return g_strdup_printf("%s\n%s", git_reference_name(ref),
			       target ? target : "");
}

/* Every reference's line, HEAD's first and the others sorted (the
 * order of loose refs follows the file system), into `ck`. */
static int digest_refs(git_repository *repo, GChecksum *ck)
{
	git_reference_iterator *it = NULL;
	git_reference *ref = NULL;
	GPtrArray *lines = g_ptr_array_new_with_free_func(g_free);
	int rc;

	if (git_reference_lookup(&ref, repo, "HEAD") == 0) {
		char *l = ref_line(ref);

		g_checksum_update(ck, (const guchar *)l, (gssize)strlen(l) + 1);
		g_free(l);
		git_reference_free(ref);
	}
	rc = git_reference_iterator_new(&it, repo);
	while (rc == 0 && (rc = git_reference_next(&ref, it)) == 0) {
		g_ptr_array_add(lines, ref_line(ref));
		git_reference_free(ref);
	}
	git_reference_iterator_free(it);
	g_ptr_array_sort(lines, ms_cmp_str);
	for (guint i = 0; i < lines->len; i++)
		g_checksum_update(ck, lines->pdata[i],
				  (gssize)strlen(lines->pdata[i]) + 1);
	g_ptr_array_unref(lines);
	return rc == GIT_ITEROVER ? 0 : rc;
}

int ms_git_refs_digest(const char *gitdir, char **out)
{
	git_repository *repo = NULL;
	GChecksum *ck;
	char *shallow;
	gchar *text = NULL;
	gsize len = 0;
	int rc;

	*out = NULL;
	ms_git_init();
	rc = git_repository_open(&repo, gitdir);
	if (rc < 0)
		return ms_git_error(rc, "cannot open repository '%s'", gitdir);
	ck = g_checksum_new(G_CHECKSUM_SHA256);
	rc = digest_refs(repo, ck);
	/* a shallow clone's cut changes its history without a ref */
	shallow = g_build_filename(git_repository_path(repo), "shallow",
				   NULL);
	if (g_file_get_contents(shallow, &text, &len, NULL))
		g_checksum_update(ck, (const guchar *)text, (gssize)len);
	g_free(text);
	g_free(shallow);
	if (rc < 0)
		rc = ms_git_error(rc, "cannot read the references of '%s'",
				  gitdir);
	else
		*out = g_strdup(g_checksum_get_string(ck));
	g_checksum_free(ck);
	git_repository_free(repo);
	return rc;
}
