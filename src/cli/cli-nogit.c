/*
 * cli-nogit.c - what the programs without libgit2, the quick `maintstat`
 * (main-quick.c) and maintstat-mail (main-mail.c), link instead of the
 * git readers the shared code names.  Every command line that needs one
 * goes to maintstat-full (cli_route()), so they only refuse, with an
 * error that says so should a new option ever slip past it.
 */
#include "error.h"
#include "git-common.h"
#include "mail.h"
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

int ms_inbox_read(const char *path, const struct ms_mail_after *after,
		  size_t n_after, ms_mail_raw_fn fn, void *data,
		  struct ms_mail_read_result *result)
{
	(void)after;
	(void)n_after;
	(void)fn;
	(void)data;
	(void)result;
	return ms_error_set(MS_ERROR, "reading the inbox '%s' " NOT_HERE,
			    path);
}
