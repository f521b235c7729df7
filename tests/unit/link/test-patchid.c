/*
 * test-patchid.c - commit patch-ids against git's own: a repository built
 * here with git (a root commit, edits, whitespace-only changes, a new and
 * a deleted file, a rename (git show detects it), several files, an empty commit), every commit's
 * `git show C | git patch-id --stable` compared with ms_commit_patchid(),
 * and with the mail side's ms_patch_id() over `git format-patch` text so
 * that mail and commits agree.  Also the summary and the error cases.
 */
#include "test.h"
#include "mail.h"
#include "patchid.h"

#include <git2.h>
#include <glib.h>
#include <glib/gstdio.h>

static char *run(const char *dir, const char *cmd)
{
	char *full = g_strdup_printf("sh -c 'cd \"%s\" && %s'", dir, cmd);
	char *out = NULL;
	int status = 0;

	if (!g_spawn_command_line_sync(full, &out, NULL, &status, NULL) ||
	    status != 0) {
		printf("# command failed: %s\n", cmd);
		g_free(out);
		out = NULL;
	}
	g_free(full);
	return out;
}

static const char setup[] =
	"git init -q -b main . && "
	"git config user.name T && git config user.email t@example.org && "
	"printf \"a\\nb\\nc\\n\" > one.c && git add one.c && "
	"git commit -q -m root && "
	"printf \"a\\nB\\nc\\nd\\n\" > one.c && git commit -qam \"edit one\" && "
	"printf \"a\\n  B\\nc\\nd\\n\" > one.c && git commit -qam \"ws only\" && "
	"mkdir -p dir && printf \"x\\n\" > dir/two.h && "
	"printf \"e\\n\" >> one.c && git add -A && "
	"git commit -qm \"two files\" && "
	"seq 1 40 > long.txt && git add long.txt && git commit -qm long && "
	"git mv long.txt moved.txt && "
	"git commit -qam rename && "
	"git rm -q dir/two.h && git commit -qm \"delete two\" && "
	"git commit -q --allow-empty -m \"empty\"";

int main(void)
{
	char *dir = g_dir_make_tmp("ms-patchid-XXXXXX", NULL);
	char *log, **ids;
	char hex[41];
	char *summary = NULL;
	int rc;

	ok(dir != NULL, "temporary directory");
	g_free(run(dir, setup));
	log = run(dir, "git rev-list --reverse main");
	ok(log != NULL, "repository built");
	ids = g_strsplit(log ? g_strstrip(log) : "", "\n", -1);
	is_int(g_strv_length(ids), 8, "eight commits");
	for (size_t i = 0; ids[i]; i++) {
		char *cmd = g_strdup_printf("git show %s | "
					    "git patch-id --stable", ids[i]);
		char *want = run(dir, cmd);
		char *fp;
		char mail_hex[41] = "";

		g_free(cmd);
		rc = ms_commit_patchid(dir, ids[i], NULL, 0, hex, &summary);
		is_int(rc, 0, "patch-id computed");
		if (want && *want) {
			want[40] = 0;
			is_str(hex, want, "same patch-id as git");
		} else {
			is_str(hex, "", "no diff, no patch-id");
		}
		/* limited to the touched paths, as the history walk lists
		 * them: the same patch-id */
		cmd = g_strdup_printf("git diff-tree --no-renames --root -r "
				      "--name-only --no-commit-id %s", ids[i]);
		fp = run(dir, cmd);
		g_free(cmd);
		if (fp) {
			char **paths = g_strsplit(g_strstrip(fp), "\n", -1);
			char lim[41];

			rc = ms_commit_patchid(dir, ids[i],
					       (const char *const *)paths,
					       g_strv_length(paths), lim,
					       NULL);
			is_str(lim, hex, "limited to its paths: same id");
			g_strfreev(paths);
		}
		g_free(fp);
		cmd = g_strdup_printf("git format-patch --stdout -1 %s",
				      ids[i]);
		fp = run(dir, cmd);
		g_free(cmd);
		if (fp && ms_patch_id(fp, strlen(fp), mail_hex))
			is_str(mail_hex, hex, "mail patch-id agrees");
		g_free(fp);
		g_free(want);
		g_free(summary);
	}
	rc = ms_commit_patchid(dir, ids[1], NULL, 0, hex, &summary);
	is_str(summary, "edit one", "summary line");
	g_free(summary);
	rc = ms_commit_patchid(dir, "0123456789012345678901234567890123456789",
			       NULL, 0, hex, NULL);
	is_int(rc, MS_ENOTFOUND, "unknown commit");
	rc = ms_commit_patchid("/nonexistent/repo", ids[0], NULL, 0, hex,
			       NULL);
	is_int(rc, MS_ENOTFOUND, "not a repository");
	ok(strstr(ms_error_last(), "/nonexistent/repo") != NULL,
	   "error names the path", ms_error_last());
	/* patch-ids read blobs from all over the pack: libgit2 may keep
	 * 8 GiB of it mapped, not the 256 MiB the walk alone gets (a
	 * million-commit pack was unmapped and mapped again per read) */
	{
		size_t limit = 0;

		git_libgit2_opts(GIT_OPT_GET_MWINDOW_MAPPED_LIMIT, &limit);
		is_int(limit >> 20, 8192, "patch-ids: pack windows up to "
		       "8 GiB (MiB)");
	}

	g_strfreev(ids);
	g_free(log);
	g_free(run(dir, "rm -rf .git one.c dir"));
	g_rmdir(dir);
	g_free(dir);
	return test_done();
}
