#ifndef LEDGER_CGIT2_SHIM_H
#define LEDGER_CGIT2_SHIM_H

#include <git2.h>

/* git_libgit2_opts is variadic, which Swift cannot call: one inline wrapper per option used. */
static inline int ledger_git_set_search_path(int level, const char *path) {
    return git_libgit2_opts(GIT_OPT_SET_SEARCH_PATH, level, path);
}

static inline int ledger_git_set_owner_validation(int enabled) {
    return git_libgit2_opts(GIT_OPT_SET_OWNER_VALIDATION, enabled);
}

#endif
