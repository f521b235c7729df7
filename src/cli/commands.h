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
int cmd_urgent(int argc, char **argv);
int cmd_retire(int argc, char **argv);
int cmd_fetch(int argc, char **argv);
int cmd_store(int argc, char **argv);
int cmd_link(int argc, char **argv);
int cmd_review(int argc, char **argv);
int cmd_report(int argc, char **argv);
int cmd_identities(int argc, char **argv);

#endif
