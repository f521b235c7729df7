/*
 * git-common.h - what every libgit2 adapter file (src/<stage>/git-*.c,
 * and only those include <git2.h>) shares: one-time library set-up and
 * turning libgit2's errors into ours.
 */
#ifndef MS_GIT_COMMON_H
#define MS_GIT_COMMON_H

/* Initialise libgit2 once per process; safe to call from any thread. */
void ms_git_init(void);
/*
 * For a run that reads file contents from all over the packs (patch-ids):
 * libgit2 may keep up to 8 GiB of pack windows mapped, not 256 MiB.
 * Once per process; calls ms_git_init().
 */
void ms_git_map_for_contents(void);

/*
 * Record libgit2's last error for a failed call `what` (e.g. "cannot open
 * repository '/x'") and return the matching MS_E* code: MS_ENOTFOUND for
 * GIT_ENOTFOUND, MS_ERROR otherwise.  `git_code` is the libgit2 return.
 */
int ms_git_error(int git_code, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

struct git_repository;
/*
 * Open the repository at `gitdir` itself (no search upwards), after
 * ms_git_init().  Returns 0, MS_ENOTFOUND ("not a git repository") or
 * MS_ERROR, the error recorded; *out is NULL on failure.
 */
int ms_git_open(const char *gitdir, struct git_repository **out);

/*
 * The user.name and user.email git would use for `gitdir` (its config,
 * then the global and system ones), newly allocated (g_free); NULL when
 * unset.  Returns 0, or a negative code when the repository cannot be
 * opened.
 */
int ms_git_user(const char *gitdir, char **name, char **email);

/*
 * The git repository enclosing directory `start`, as git finds it: its
 * work tree, or the repository itself when bare; newly allocated
 * (g_free).  Returns 0, or MS_ENOTFOUND outside any repository.
 */
int ms_git_discover(const char *start, char **out);

/*
 * A digest (SHA-256, 64 hex digits; g_free) of where every reference of
 * repository `gitdir` points: HEAD and each ref's name with its target
 * (an id, or the name a symbolic ref names), and the shallow file's
 * commits.  Git objects never change, so two equal digests mean every
 * revision names the same history.  Returns 0, or a negative code when
 * the repository or a reference cannot be read.
 */
int ms_git_refs_digest(const char *gitdir, char **out);

#endif
