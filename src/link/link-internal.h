/*
 * link-internal.h - what the files of the linker (link.h) share: the mail
 * model, loaded in link-mail.c, matched in link.c.
 */
#ifndef MS_LINK_INTERNAL_H
#define MS_LINK_INTERNAL_H

#include "link.h"

struct ms_link_mail {
	struct ms_mail_index *idx;
	GPtrArray *files;     /* per record: GPtrArray of char *, or NULL */
	GPtrArray *preimages; /* per record: GPtrArray of char * (mail.h
				 ->preimages), or NULL */
	GPtrArray *scratch;   /* diff_of()'s answer */
	const struct ms_link_mail_opts *opts;
};

#endif
