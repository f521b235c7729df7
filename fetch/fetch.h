/*
 * fetch.h - the network fetcher: mirrors public-inbox archives over HTTP
 * (libcurl for plain requests, libgit2 for smart-HTTP git fetches).
 *
 * STATUS: the fetcher issue fills this in.  For now it only reports the
 * libcurl version it was built against, so that the layout is final.
 */
#ifndef MS_FETCH_H
#define MS_FETCH_H

/* "libcurl/7.88.1 ..." as curl_version() says; borrowed. */
const char *ms_fetch_curl_version(void);

#endif
