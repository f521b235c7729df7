/*
 * git-diff.c - the libgit2 adapter for diffs of in-memory buffers.
 */
#include "diff.h"
#include "error.h"
#include "git-common.h"

#include <git2.h>

int ms_diff_buffers(const char *path, const char *old, size_t old_len,
		    const char *new, size_t new_len, GString *out,
		    size_t *added, size_t *removed)
{
	git_diff_options opts;
	git_patch *patch = NULL;
	git_buf buf = { 0 };
	size_t ctx;
	int rc;

	*added = *removed = 0;
	ms_git_init();
	git_diff_options_init(&opts, GIT_DIFF_OPTIONS_VERSION);
	rc = git_patch_from_buffers(&patch, old, old_len, path, new, new_len,
				    path, &opts);
	if (rc < 0)
		return ms_git_error(rc, "cannot diff '%s'", path);
	rc = git_patch_to_buf(&buf, patch);
	if (rc < 0) {
		git_patch_free(patch);
		return ms_git_error(rc, "cannot format the diff of '%s'",
				    path);
	}
	git_patch_line_stats(&ctx, added, removed, patch);
	/* an unchanged file yields only the header: write nothing then */
	if (*added || *removed)
		g_string_append_len(out, buf.ptr, (gssize)buf.size);
	git_buf_dispose(&buf);
	git_patch_free(patch);
	return 0;
}
