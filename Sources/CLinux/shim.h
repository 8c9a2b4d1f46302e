#ifndef LEDGER_CLINUX_SHIM_H
#define LEDGER_CLINUX_SHIM_H

/* Linux calls that Swift's Glibc module leaves out: timerfd (the reminder timer), the
   clock step the tests use to check that a clock change wakes that timer, and the allocator's
   statistics (mallinfo2) a test counts memory kept with. */
#include <errno.h>
#include <malloc.h>
#include <string.h>
#include <sys/timerfd.h>
#include <sys/timex.h>
#include <time.h>

/* glibc declares it only under _GNU_SOURCE. */
extern int clock_adjtime(clockid_t clock_id, struct timex *buf);

/* Steps CLOCK_REALTIME by `nanoseconds` (-1e9 < nanoseconds < 1e9), exactly and relative to
   its current value (ADJ_SETOFFSET): a step there and back leaves the clock as it was. Needs
   CAP_SYS_TIME; returns 0 or an errno value. */
static inline int ledger_step_realtime_clock(long nanoseconds) {
    struct timex tx;
    memset(&tx, 0, sizeof tx);
    tx.modes = ADJ_SETOFFSET | ADJ_NANO;
    tx.time.tv_sec = nanoseconds < 0 ? -1 : 0;
    tx.time.tv_usec = nanoseconds < 0 ? 1000000000L + nanoseconds : nanoseconds;
    return clock_adjtime(CLOCK_REALTIME, &tx) < 0 ? errno : 0;
}

#endif
