/*
 * cli-quick.c - what the quick program (main-quick.c) links instead of
 * the list stage and `maintainers --activity`: the few of their functions
 * that the shared CLI code names (cli-nogit.c has the git ones).  Every
 * command line that could reach them goes to maintstat-full
 * (cli_route()), so they only refuse, with an error that says so should a
 * new option ever slip past it.
 */
#include "cli-cc-activity.h"
#include "cli.h"
#include "store.h"

#define NOT_HERE "needs maintstat-full (this is the quick maintstat)"

int cc_act_load(const struct cc_act_args *a, struct cc_act **out)
{
	(void)a;
	*out = NULL;
	return cli_error("--activity " NOT_HERE);
}

void cc_act_free(struct cc_act *ac)
{
	(void)ac;
}

void cc_act_compute(struct cc_act *ac, const struct maint_cc *cc)
{
	(void)ac;
	(void)cc;
}

char *cc_act_note(const struct cc_act *ac, const struct maint_cc_line *l,
		  bool *drop)
{
	(void)ac;
	(void)l;
	*drop = false;
	return NULL;
}

void cc_act_defacto(struct cc_act *ac, const struct maint_cc *cc,
		    GPtrArray *items, bool roles, bool to_cc)
{
	(void)ac;
	(void)cc;
	(void)items;
	(void)roles;
	(void)to_cc;
}

void cc_act_json(struct ms_out *o, const struct cc_act *ac,
		 const struct maint_cc_line *l)
{
	(void)o;
	(void)ac;
	(void)l;
}

/* The logs made from the history model: maintstat-full's (the quick
 * program reads the kept ones, ms_store_vcs_saved()). */
GPtrArray *ms_store_vcs_log(const char *file, void *c)
{
	(void)file;
	(void)c;
	return g_ptr_array_new();
}
