import CLinux
import Foundation

/// A `timerfd` on `CLOCK_REALTIME`, armed at an absolute instant with
/// `TFD_TIMER_CANCEL_ON_SET`: it becomes readable when the instant comes, and also when the
/// system clock is set (`date -s`, NTP stepping it, a resume from suspend), which a read reports
/// as `ECANCELED`.
final class WakeTimer {
    let fd: Int32

    /// What a read of the timer found.
    enum Reading {
        /// Nothing happened since it was armed (or last read).
        case nothing
        /// The instant it was armed for came.
        case expired
        /// The system clock was set since it was armed.
        case clockWasSet
    }

    init() throws(RemindError) {
        fd = timerfd_create(CLOCK_REALTIME, Int32(TFD_CLOEXEC | TFD_NONBLOCK))
        guard fd >= 0 else { throw RemindError.system("timerfd_create") }
    }

    deinit { close(fd) }

    /// Arms the timer for the real instant `nanoseconds` since 1970 (one in the past fires at
    /// once). Returns true when the system clock was set since the timer was last armed or read:
    /// the kernel keeps that news on the timer — also after it expired — and refuses the first
    /// arming after it with `ECANCELED`.
    func arm(atRealNanoseconds nanoseconds: Int64) throws(RemindError) -> Bool {
        let at = max(nanoseconds, 1)
        var spec = itimerspec()
        spec.it_value.tv_sec = Int(at / 1_000_000_000)
        spec.it_value.tv_nsec = Int(at % 1_000_000_000)
        var clockWasSet = false
        while timerfd_settime(fd, Int32(TFD_TIMER_ABSTIME | TFD_TIMER_CANCEL_ON_SET), &spec, nil) != 0 {
            guard errno == ECANCELED || errno == EINTR else { throw RemindError.system("timerfd_settime") }
            clockWasSet = clockWasSet || errno == ECANCELED
        }
        return clockWasSet
    }

    /// Reads the timer without blocking.
    func read() throws(RemindError) -> Reading {
        var expirations: UInt64 = 0
        while true {
            if Glibc.read(fd, &expirations, 8) == 8 { return .expired }
            switch errno {
            case EINTR: continue
            case EAGAIN: return .nothing
            case ECANCELED: return .clockWasSet
            default: throw RemindError.system("reading the timer")
            }
        }
    }
}
