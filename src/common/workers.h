/*
 * workers.h - how many worker threads the parallel stages start: the
 * history walk's diff workers, the store's commit workers, the mail
 * parser's workers and coverage's file matching.  One setting for all of
 * them, so that --threads N means the same on every command.
 *
 * The program sets it once, before any stage runs (main thread); stages
 * read it.  Unset, it is the number of processors.
 */
#ifndef MS_WORKERS_H
#define MS_WORKERS_H

/* The most worker threads any stage starts. */
#define MS_WORKERS_MAX 1024

/*
 * Use `n` worker threads from now on (1..MS_WORKERS_MAX); 0 goes back to
 * one per processor.  Returns 0, or MS_EUSAGE (message set) out of range.
 */
int ms_workers_set(unsigned n);

/* The number of worker threads a parallel stage starts: at least 1. */
unsigned ms_workers(void);

#endif
