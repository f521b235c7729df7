/*
 * history-repo.h - the small repository that test-history.c and
 * test-store.c walk, built with git fast-import: commit order, a merge,
 * odd signatures (missing email, a Latin-1 name, offsets), trailers
 * (mixed case, a Cc with a comment, a Link) and touched paths, including
 * a file moved.  Included by each test (a static array and function).
 */
#ifndef MS_TEST_HISTORY_REPO_H
#define MS_TEST_HISTORY_REPO_H

#include <glib.h>
#include <stdio.h>
#include <stdlib.h>

static const char history_stream[] =
	"commit refs/heads/main\n"
	"mark :1\n"
	"author Alice Root <alice@example.org> 1600000000 +0000\n"
	"committer Alice Root <alice@example.org> 1600000000 +0000\n"
	"data <<EOF\n"
	"root\n\nSigned-off-by: Alice Root <alice@example.org>\n"
	"EOF\n"
	"M 100644 inline README\ndata <<EOF\nhello\nEOF\n"
	"M 100644 inline drivers/net/a.c\ndata <<EOF\na\nEOF\n"
	"\n"
	"commit refs/heads/main\n"
	"mark :2\n"
	"author Nobody <> 1600000100 +0130\n"
	"committer Carol Commit <carol@example.org> 1600000100 -0700\n"
	"data <<EOF\n"
	"net: change a\n\nBody text.\n\n"
	"Reviewed-by: Rita Review <rita@example.org>\n"
	"acked-by: Bob <BOB@Example.org>\n"
	"Cc: stable@vger.kernel.org # 5.10+\n"
	"Link: https://lore.kernel.org/r/1@x\n"
	"Signed-off-by: Carol Commit <carol@example.org>\n"
	"EOF\n"
	"M 100644 inline drivers/net/a.c\ndata <<EOF\nb\nEOF\n"
	"\n"
	"commit refs/heads/side\n"
	"mark :3\n"
	"author Ren\xe9 Latin <rene@example.org> 1600000200 +0000\n"
	"committer Ren\xe9 Latin <rene@example.org> 1600000200 +0000\n"
	"data 0\n"
	"from :1\n"
	"M 100644 inline lib/x.c\ndata <<EOF\nx\nEOF\n"
	"\n"
	"commit refs/heads/main\n"
	"mark :4\n"
	"author Carol Commit <carol@example.org> 1600000300 +0000\n"
	"committer Carol Commit <carol@example.org> 1600000300 +0000\n"
	"data <<EOF\nMerge side\nEOF\n"
	"from :2\n"
	"merge :3\n"
	"M 100644 inline lib/x.c\ndata <<EOF\nx\nEOF\n"
	"\n"
	"commit refs/heads/main\n"
	"mark :5\n"
	"author Alice Root <alice@example.org> 1600000400 +0000\n"
	"committer Alice Root <alice@example.org> 1600000400 +0000\n"
	"data <<EOF\nmove README\nEOF\n"
	"from :4\n"
	"D README\n"
	"M 100644 inline docs/README\ndata <<EOF\nhello\nEOF\n"
	"\n";

/* Create the bare repository `git` (HEAD: main) from history_stream.
 * 0, or -1 when git init or git fast-import failed. */
static int history_repo_make(const char *git)
{
	char *cmd = g_strdup_printf("git init -q --bare '%s' && "
				    "git --git-dir='%s' symbolic-ref HEAD "
				    "refs/heads/main", git, git);
	FILE *fp;
	int rc = system(cmd);

	g_free(cmd);
	if (rc != 0)
		return -1;
	cmd = g_strdup_printf("git --git-dir='%s' fast-import --quiet", git);
	fp = popen(cmd, "w");
	g_free(cmd);
	if (!fp)
		return -1;
	fwrite(history_stream, 1, sizeof(history_stream) - 1, fp);
	return pclose(fp) == 0 ? 0 : -1;
}

#endif
