/*
 * mapped.h - a read-only file mapping shared by threads: whoever holds a
 * reference may read it; the last unref unmaps.  Readers that go through
 * the file front to back hand back what they are done with, so resident
 * memory stays near what is in flight, not the file's size.
 */
#ifndef MS_MAPPED_H
#define MS_MAPPED_H

#include <stdbool.h>
#include <stddef.h>

struct ms_mapped;

/*
 * A file cut short while it is mapped (another program truncating or
 * rewriting it) makes every read past its new end raise SIGBUS, which
 * kills the process.  ms_mapped_catch_cuts() installs a SIGBUS handler
 * that maps zeros over the rest of a mapping of ours and marks it cut
 * (ms_mapped_cut()); a SIGBUS anywhere else goes on to the handler that
 * was there before.  The application calls it once, at start: a library
 * installs no signal handler of its own accord, so until then
 * ms_mapped_new() maps nothing and readers read.  False when the handler
 * could not be installed.
 */
bool ms_mapped_catch_cuts(void);

/*
 * Map the regular, non-empty file open on `fd` (which may be closed
 * afterwards).  NULL, with errno set, when it is not a regular file, is
 * empty or cannot be mapped, or ms_mapped_catch_cuts() was not called
 * (ENOTSUP): the caller then reads it instead.
 */
struct ms_mapped *ms_mapped_new(int fd);

/* Whether the file was cut short while mapped: what lay past its new end
 * read as zeros, and what was read from the mapping cannot be trusted. */
bool ms_mapped_cut(const struct ms_mapped *m);

const char *ms_mapped_data(const struct ms_mapped *m);
size_t ms_mapped_size(const struct ms_mapped *m);

struct ms_mapped *ms_mapped_ref(struct ms_mapped *m);
void ms_mapped_unref(struct ms_mapped *m);

/*
 * Nothing before `upto` (a pointer into the mapping) will be read again:
 * its whole pages may leave resident memory.  Called by one thread, with
 * `upto` never going back; cheap, it acts once per few megabytes.
 */
void ms_mapped_done(struct ms_mapped *m, const char *upto);
/*
 * The reader is at `at`: map the pages of the next few MiB in one call
 * (MADV_POPULATE_READ) rather than a page fault per 16 pages as it goes.
 * For the one thread that reads ahead of the rest; a no-op where the
 * kernel lacks it, and never a SIGBUS (a cut file fails the call).
 */
void ms_mapped_will_read(struct ms_mapped *m, const char *at);

#endif
