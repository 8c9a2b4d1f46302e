#ifndef LEDGER_CGIT2_SHIM_H
#define LEDGER_CGIT2_SHIM_H

#include <git2.h>
#include <git2/sys/merge.h>
#include <git2/sys/mempack.h>
#include <git2/sys/transport.h>
#include <git2/sys/remote.h>
#include <git2/sys/repository.h>
#include <git2/sys/stream.h>
#include <errno.h>
#include <signal.h>
#include <unistd.h>
#include <sys/syscall.h>

/* git_libgit2_opts is variadic, which Swift cannot call: one inline wrapper per option used. */
static inline int ledger_git_set_search_path(int level, const char *path) {
    return git_libgit2_opts(GIT_OPT_SET_SEARCH_PATH, level, path);
}

static inline int ledger_git_get_search_path(int level, git_buf *out) {
    return git_libgit2_opts(GIT_OPT_GET_SEARCH_PATH, level, out);
}

static inline int ledger_git_set_owner_validation(int enabled) {
    return git_libgit2_opts(GIT_OPT_SET_OWNER_VALIDATION, enabled);
}

static inline int ledger_git_set_ssl_cert_file(const char *file) {
    return git_libgit2_opts(GIT_OPT_SET_SSL_CERT_LOCATIONS, file, (const char *)0);
}

static inline int ledger_git_set_ssl_cert_locations(const char *file, const char *path) {
    return git_libgit2_opts(GIT_OPT_SET_SSL_CERT_LOCATIONS, file, path);
}

/* fsync of what libgit2 writes inside a git directory: objects, packs, refs, the index. */
static inline int ledger_git_enable_fsync_gitdir(int enabled) {
    return git_libgit2_opts(GIT_OPT_ENABLE_FSYNC_GITDIR, enabled);
}

static inline int ledger_git_set_cache_object_limit(git_object_t type, size_t size) {
    return git_libgit2_opts(GIT_OPT_SET_CACHE_OBJECT_LIMIT, type, size);
}

/* syncfs(2), which Swift's Glibc module leaves out: flushes the file system holding `fd`. */
static inline int ledger_syncfs(int fd) {
    return (int)syscall(SYS_syncfs, fd);
}

/* A smart subtransport and its stream, each followed by the Swift object serving it (the
 * libgit2 struct comes first, so a pointer to one is a pointer to the other). */
typedef struct ledger_subtransport {
    git_smart_subtransport parent;
    void *payload;
} ledger_subtransport;

typedef struct ledger_subtransport_stream {
    git_smart_subtransport_stream parent;
    void *payload;
} ledger_subtransport_stream;

/* A plain TCP stream of ours (see ProxiedHTTP.swift): libgit2's stream, the socket, where it
 * connects, and whether something was read since the last write. */
typedef struct ledger_stream {
    git_stream parent;
    int fd;
    int answered;
    char *host;
    char *port;
} ledger_stream;

#endif
