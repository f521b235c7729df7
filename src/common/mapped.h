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
 * Map the regular, non-empty file open on `fd` (which may be closed
 * afterwards).  NULL, with errno set, when it is not a regular file, is
 * empty or cannot be mapped: the caller then reads it instead.
 */
struct ms_mapped *ms_mapped_new(int fd);

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

#endif
