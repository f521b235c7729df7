/*
 * diff.h - unified diffs of in-memory file versions, as git writes them
 * (libgit2 underneath, in git-diff.c), and patches in git format-patch
 * form, so that `git am` applies what maintstat writes.
 */
#ifndef MS_DIFF_H
#define MS_DIFF_H

#include <glib.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/*
 * Append to `out` the git diff of `path` from `old` to `new` (both
 * `len` bytes), with "diff --git" and "index" lines; set *added and
 * *removed to the line counts.  Identical texts append nothing.  Returns 0
 * or a negative code.
 */
int ms_diff_buffers(const char *path, const char *old, size_t old_len,
		    const char *new, size_t new_len, GString *out,
		    size_t *added, size_t *removed);

/* One file of a patch. */
struct ms_patch_file {
	const char *path;
	const char *old, *new;   /* full texts, NUL-terminated */
};

/* One patch of a series. */
struct ms_patch {
	const char *from;        /* "Name <addr>" */
	int64_t date;            /* seconds since the epoch */
	int date_offset;         /* minutes east of UTC */
	const char *subject;     /* without "[PATCH n/m]" */
	/* the To: header's addresses ("Name <addr>" or "addr"), none: no
	 * such header */
	const char *const *to;
	size_t nr_to;
	unsigned nr, total;      /* 0 and 0: "[PATCH]"; 0 of N: cover */
	const char *body;        /* commit message after the subject */
	const struct ms_patch_file *files;
	size_t nr_files;
	bool stat_only;          /* a cover letter: diffstat, no diff */
};

/*
 * Write `p` in git format-patch form to `out`: the mbox "From " line,
 * From/Date/Subject headers (RFC 2047 where needed), To: as `git
 * format-patch --to` writes it, the body, "---", a
 * diffstat, the diffs and the signature line.  Returns 0 or a negative
 * code.
 */
int ms_format_patch(const struct ms_patch *p, GString *out);

/* Time `t` as seen `offset` minutes east of UTC, as git's %aD (RFC 2822:
 * "Sun, 3 Mar 2024 12:00:00 +0100"), appended to `out`. */
void ms_append_date_rfc2822(GString *out, int64_t t, int offset);

#endif
