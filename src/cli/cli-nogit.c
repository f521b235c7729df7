/*
 * cli-nogit.c - what the quick `maintstat` (main-quick.c), which has no
 * libgit2, links instead of the git readers the shared code names.
 * Every command line that needs one goes to maintstat-full (cli_route()),
 * so they only refuse, with an error that says so should a new option
 * ever slip past it.
 */
#include "error.h"
#include "git-blame.h"
#include "git-common.h"
#include "tree.h"

#define NOT_HERE "needs maintstat-full (this program has no libgit2)"

int ms_git_discover(const char *start, char **out)
{
	(void)start;
	*out = NULL;
	return ms_error_set(MS_ERROR, "finding the repository " NOT_HERE);
}

int ms_tree_from_git(const char *gitdir, const char *rev,
		     struct ms_tree **out)
{
	(void)rev;
	*out = NULL;
	return ms_error_set(MS_ERROR, "reading '%s' " NOT_HERE, gitdir);
}

int ms_blame_open(const char *dir, bool bare, const char *rev,
		  struct ms_blame **out)
{
	(void)bare;
	(void)rev;
	*out = NULL;
	return ms_error_set(MS_ERROR, "blaming in '%s' " NOT_HERE, dir);
}

void ms_blame_free(struct ms_blame *b)
{
	(void)b;
}

GPtrArray *ms_blame_lines(const char *file, const char *start,
			  const char *length, void *b)
{
	(void)file;
	(void)start;
	(void)length;
	(void)b;
	return NULL;
}

char *ms_blame_commit_log(const char *id, bool body, bool stat, void *b)
{
	(void)id;
	(void)body;
	(void)stat;
	(void)b;
	return NULL;
}
