/*
 * commands.h - every maintstat command is one file, src/cli/cmd-<name>.c,
 * exporting one function.  It returns the process exit code (0 ok,
 * 1 runtime failure, 2 usage error); argv[0] is the command name.
 */
#ifndef MS_COMMANDS_H
#define MS_COMMANDS_H

int cmd_sections(int argc, char **argv);
int cmd_maintainers(int argc, char **argv);
int cmd_entries(int argc, char **argv);
int cmd_coverage(int argc, char **argv);
int cmd_mail(int argc, char **argv);
int cmd_activity(int argc, char **argv);
int cmd_areas(int argc, char **argv);
int cmd_recruit(int argc, char **argv);
int cmd_urgent(int argc, char **argv);
int cmd_retire(int argc, char **argv);
int cmd_fetch(int argc, char **argv);
int cmd_store(int argc, char **argv);
int cmd_link(int argc, char **argv);
int cmd_review(int argc, char **argv);
int cmd_report(int argc, char **argv);
int cmd_pending(int argc, char **argv);
int cmd_people(int argc, char **argv);
int cmd_identities(int argc, char **argv);

/*
 * The one command table, in groups by task (`maintstat help` prints the
 * headings): X(name, program, summary) per command.  `program` is QUICK
 * for the commands the quick `maintstat` answers itself (main-quick.c;
 * an option flagged CLI_OPT_FULL still sends the line on) and FULL for
 * those only maintstat-full has.  main.c, main-quick.c and cli_route()
 * read it; a new command is one row here.
 */
#define MS_FILE_COMMANDS(X) \
	X(sections, QUICK, \
	  "list the MAINTAINERS entries that match each path") \
	X(maintainers, QUICK, \
	  "who to Cc for some paths or a patch (get_maintainer.pl)") \
	X(entries, QUICK, \
	  "list the MAINTAINERS entries, their status and reach") \
	X(coverage, FULL, "report on the MAINTAINERS file's own health")

#define MS_HISTORY_COMMANDS(X) \
	X(activity, FULL, \
	  "who really authors, commits and reviews in each entry") \
	X(areas, FULL, "who really looks after each part of a broad entry") \
	X(urgent, FULL, "busy entries with no active maintainer") \
	X(retire, FULL, \
	  "write the patch series retiring inactive maintainers") \
	X(recruit, FULL, \
	  "write the patch series proposing the de-facto people") \
	X(identities, FULL, \
	  "who is who: each person's addresses and why they are joined") \
	X(store, FULL, "look at the incremental store of extracted history")

#define MS_LIST_COMMANDS(X) \
	X(fetch, FULL, "mirror public-inbox archives (lore) over HTTP") \
	X(mail, FULL, \
	  "parse mailing-list archives: patches, series, reviews") \
	X(link, FULL, "which list message posted each commit") \
	X(review, FULL, "how each entry's patches are answered on the list") \
	X(report, FULL, "the review as a static HTML site with plots") \
	X(pending, FULL, "the open patches of each entry, oldest wait first") \
	X(people, FULL, \
	  "the list's people and companies, ranked as netdev's report")

#define MS_COMMANDS(X) \
	MS_FILE_COMMANDS(X) MS_HISTORY_COMMANDS(X) MS_LIST_COMMANDS(X)

#endif
