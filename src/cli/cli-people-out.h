/*
 * cli-people-out.h - the people page of `maintstat report` (people.h's
 * figures as two sortable tables), beside `maintstat people`'s text and
 * JSON in cmd-people.c.
 */
#ifndef MS_CLI_PEOPLE_OUT_H
#define MS_CLI_PEOPLE_OUT_H

#include <stdio.h>

struct ms_people;

/* The page: everyone and every company of `pp`, by reviewer score. */
void cli_people_page(FILE *fp, const struct ms_people *pp);

#endif
