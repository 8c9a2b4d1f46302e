#ifndef LEDGER_CGIT2_SHIM_H
#define LEDGER_CGIT2_SHIM_H

#include <git2.h>
#include <git2/sys/merge.h>

/* git_libgit2_opts is variadic, which Swift cannot call: one inline wrapper per option used. */
static inline int ledger_git_set_search_path(int level, const char *path) {
    return git_libgit2_opts(GIT_OPT_SET_SEARCH_PATH, level, path);
}

static inline int ledger_git_set_owner_validation(int enabled) {
    return git_libgit2_opts(GIT_OPT_SET_OWNER_VALIDATION, enabled);
}

static inline int ledger_git_set_ssl_cert_file(const char *file) {
    return git_libgit2_opts(GIT_OPT_SET_SSL_CERT_LOCATIONS, file, (const char *)0);
}

static inline int ledger_git_set_cache_object_limit(git_object_t type, size_t size) {
    return git_libgit2_opts(GIT_OPT_SET_CACHE_OBJECT_LIMIT, type, size);
}

#endif
