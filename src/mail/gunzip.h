/*
 * gunzip.h - a gzip file inflated by a thread of its own (ISA-L's igzip),
 * so that inflating runs beside the mbox reader that splits the output
 * into messages instead of before it, on the same thread.
 */
#ifndef MS_GUNZIP_H
#define MS_GUNZIP_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

struct ms_gunzip;

/*
 * Start inflating the gzip file open on `fd` (read from its current
 * offset), whose first `n` bytes `head` were read already (they are
 * copied).  Concatenated gzip members are read as one stream; padding
 * after the last is ignored.  `fd` stays the caller's, open until
 * ms_gunzip_free().  Never fails (a thread that cannot start aborts, as
 * everywhere in GLib).
 */
struct ms_gunzip *ms_gunzip_start(int fd, const uint8_t *head, size_t n);

/*
 * Up to `n` inflated bytes into `dst`, waiting for the thread when it has
 * none ready: the count, 0 at the end of the stream, -1 when the file
 * cannot be read or its gzip data is corrupt or ends inside a stream
 * (then again -1).  What was inflated before the bad data is returned
 * first.
 */
ssize_t ms_gunzip_read(struct ms_gunzip *g, char *dst, size_t n);

/* Stop the thread (wherever it is) and free `g`; NULL is a no-op. */
void ms_gunzip_free(struct ms_gunzip *g);

#endif
