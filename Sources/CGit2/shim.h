#ifndef LEDGER_CGIT2_SHIM_H
#define LEDGER_CGIT2_SHIM_H

#include <git2.h>
#include <git2/sys/merge.h>
#include <git2/sys/transport.h>
#include <git2/sys/remote.h>
#include <git2/sys/repository.h>
#include <git2/sys/stream.h>
#include <errno.h>
#include <signal.h>
#include <unistd.h>
#include <sys/prctl.h>
#include <sys/syscall.h>

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

/* Starts `path` with `argv` and `envp` (NULL-terminated), its standard input, output and error
 * on the given descriptors, in `directory` when not NULL. Written in C because only
 * async-signal-safe calls may run between fork and exec in a threaded process. The child:
 * gets SIGKILL when the thread that started it ends (so no child outlives ledger, even when
 * ledger is killed), keeps no other descriptor of ours (not the writer lock's), and has
 * default signal handling. Returns its PID, or -errno when fork fails; a failed exec exits 127. */
static inline pid_t ledger_spawn(const char *path, char *const argv[], char *const envp[], const char *directory,
                                 int in, int out, int err) {
    pid_t parent = getpid();
    pid_t pid = fork();
    if (pid < 0) return -errno;
    if (pid > 0) return pid;
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (getppid() != parent) _exit(127);
    if (dup2(in, 0) < 0 || dup2(out, 1) < 0 || dup2(err, 2) < 0) _exit(127);
#ifdef SYS_close_range
    if (syscall(SYS_close_range, 3, ~0U, 0) != 0)
#endif
    {
        for (int fd = 3; fd < 4096; fd++) close(fd);
    }
    struct sigaction dfl;
    dfl.sa_handler = SIG_DFL;
    dfl.sa_flags = 0;
    sigemptyset(&dfl.sa_mask);
    for (int s = 1; s < 32; s++) {
        if (s != SIGKILL && s != SIGSTOP) sigaction(s, &dfl, 0);
    }
    sigset_t none;
    sigemptyset(&none);
    sigprocmask(SIG_SETMASK, &none, 0);
    if (directory && chdir(directory) != 0) _exit(127);
    execve(path, argv, envp);
    _exit(127);
}

#endif
