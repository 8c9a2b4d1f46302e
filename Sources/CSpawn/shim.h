#ifndef LEDGER_CSPAWN_SHIM_H
#define LEDGER_CSPAWN_SHIM_H

#include <errno.h>
#include <signal.h>
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
 * ledger is killed), and, when `new_group` is set, leads a process group of its own (so that
 * killpg reaches whatever it starts). Returns its PID, or -errno when fork fails; a failed exec
 * exits 127. */
static inline pid_t ledger_spawn(const char *path, char *const argv[], char *const envp[], const char *directory,
                                 int in, int out, int err, int die_with_parent, int keep_signals, int new_group) {
    pid_t parent = getpid();
    pid_t pid = fork();
    if (pid < 0) return -errno;
    if (pid > 0) {
        if (new_group) setpgid(pid, pid); /* as the child does: whichever runs first */
        return pid;
    }
    if (new_group) setpgid(0, 0);
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

#endif
