/*
 * cli-nogit.c - what the quick `maintstat` (main-quick.c), which has no
 * libgit2, links instead of the git readers the shared code names.
 * Every command line that needs one goes to maintstat-full (cli_route()),
 * so they only refuse, with an error that says so should a new option
 * ever slip past it.
 */
#include "error.h"
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
