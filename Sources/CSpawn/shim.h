#ifndef LEDGER_CSPAWN_SHIM_H
#define LEDGER_CSPAWN_SHIM_H

#include <errno.h>
#include <signal.h>
#include <time.h>
#include <unistd.h>
#include <sys/prctl.h>
#include <sys/syscall.h>

/* Starts `path` with `argv` and `envp` (NULL-terminated), its standard input, output and error
 * on the given descriptors, in `directory` when not NULL. Written in C because only
 * async-signal-safe calls may run between fork and exec in a threaded process. The child keeps
 * no other descriptor of ours (not the writer lock's), has default signal handling and no
 * blocked signal (a test's worker thread blocks most) unless `keep_signals` is set (then it
 * keeps the caller's signal mask and ignored signals), and, when `die_with_parent` is set,
 * gets SIGKILL when the thread that started it ends (so no child outlives ledger, even when
 * ledger is killed). `group`: -1 keeps the caller's process group; 0 makes the child lead one
 * of its own (so that killpg reaches whatever it starts); a process group's id puts the child
 * in that group, before it runs anything. Returns its PID, or -errno when fork fails; a failed
 * exec exits 127. */
static inline pid_t ledger_spawn(const char *path, char *const argv[], char *const envp[], const char *directory,
                                 int in, int out, int err, int die_with_parent, int keep_signals, pid_t group) {
    pid_t parent = getpid();
    pid_t pid = fork();
    if (pid < 0) return -errno;
    if (pid > 0) {
        if (group >= 0) setpgid(pid, group); /* as the child does: whichever runs first */
        return pid;
    }
    if (group >= 0 && setpgid(0, group) != 0) _exit(127);
    if (die_with_parent) {
        prctl(PR_SET_PDEATHSIG, SIGKILL);
        if (getppid() != parent) _exit(127);
    }
    if (dup2(in, 0) < 0 || dup2(out, 1) < 0 || dup2(err, 2) < 0) _exit(127);
#ifdef SYS_close_range
    if (syscall(SYS_close_range, 3, ~0U, 0) != 0)
#endif
    {
        for (int fd = 3; fd < 4096; fd++) close(fd);
    }
    if (!keep_signals) {
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
    }
    if (directory && chdir(directory) != 0) _exit(127);
    execve(path, argv, envp);
    _exit(127);
}

/* Starts the watcher of a process group: a fork of the caller (no exec) that leads a new
 * process group, whose id is its PID; the caller puts its children in it (`ledger_spawn`).
 * The watcher keeps no descriptor but `watch`, the read end of a pipe whose write end only the
 * caller holds (close-on-exec: no child inherits it), and ignores the signals a terminal, a
 * hang-up or a polite kill send. A byte on the pipe means the job is done: it exits. The end
 * of the pipe without that byte means the caller died (even of SIGKILL: the kernel closes its
 * descriptors) or gave the job up: it sends its group SIGTERM (and SIGCONT, which a stopped
 * member needs to act on it), waits `grace_ms`, then ends the group with SIGKILL, itself
 * included. Being in the group it signals, it keeps the group's id from being reused by
 * another: it can only ever signal its own. Returns its PID, or -errno when fork fails. */
static inline pid_t ledger_watch_group(int watch, int grace_ms) {
    pid_t pid = fork();
    if (pid < 0) return -errno;
    if (pid > 0) {
        setpgid(pid, pid); /* as the watcher does: whichever runs first */
        return pid;
    }
    setpgid(0, 0);
    prctl(PR_SET_NAME, "ledger-watcher"); /* what ps and top call it (its command line is ledger's) */
    struct sigaction ignore;
    ignore.sa_handler = SIG_IGN;
    ignore.sa_flags = 0;
    sigemptyset(&ignore.sa_mask);
    const int ignored[] = {SIGINT, SIGQUIT, SIGHUP, SIGTERM, SIGPIPE, SIGTSTP, SIGTTIN, SIGTTOU};
    for (unsigned i = 0; i < sizeof ignored / sizeof ignored[0]; i++) sigaction(ignored[i], &ignore, 0);
    if (watch != 3 && dup2(watch, 3) < 0) _exit(1);
    close(0);
    close(1);
    close(2);
#ifdef SYS_close_range
    if (syscall(SYS_close_range, 4, ~0U, 0) != 0)
#endif
    {
        for (int fd = 4; fd < 4096; fd++) close(fd);
    }
    char byte;
    ssize_t n;
    do n = read(3, &byte, 1); while (n < 0 && errno == EINTR);
    if (n == 1) _exit(0);
    kill(0, SIGTERM);
    kill(0, SIGCONT);
    struct timespec grace = {grace_ms / 1000, (long)(grace_ms % 1000) * 1000000L};
    while (nanosleep(&grace, &grace) != 0 && errno == EINTR) {}
    kill(0, SIGKILL);
    _exit(1);
}

#endif
