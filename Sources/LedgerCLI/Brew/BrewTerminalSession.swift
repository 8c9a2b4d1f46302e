import LedgerKit

/// One terminal brew: draws the flow, reads keys, and has the façade carry out its effects.
struct BrewTerminalSession {
    let env: CommandEnvironment

    /// Runs `flow` until it is done or the terminal goes away; true when it was interrupted
    /// (a signal, a closed terminal), in which case the brew stays in progress.
    func run(_ flow: inout BrewFlow) throws -> Bool {
        let clock = BrewClock(origin: env.now)
        let environment = CLIContext.current.environment
        let locale = environment["LC_ALL"] ?? environment["LC_CTYPE"] ?? environment["LANG"] ?? ""
        let terminal = try RawTerminal()
        defer { terminal.restore() }
        var screen = BrewScreen()
        screen.unicode = locale.lowercased().replacingOccurrences(of: "-", with: "").contains("utf8")
        screen.color = environment["NO_COLOR"] == nil && environment["TERM"] != "dumb"
        let brew = BrewStore(env.store)
        var lastFrame: [String] = []
        var wasReady = false
        while true {
            // Done (saved, discarded, left, quit): nothing more is drawn, the screen is left.
            if case .done = flow.phase { return false }
            let now = clock.now
            (screen.rows, screen.columns) = terminal.size
            let frame = screen.lines(flow, at: now)
            if frame != lastFrame {
                terminal.write("\u{1B}[H" + frame.joined(separator: "\u{1B}[K\r\n") + "\u{1B}[K\u{1B}[J")
                lastFrame = frame
            }
            let ready = flow.phase == .brewing && flow.progress?.isReady(at: now) == true
            if ready, !wasReady { terminal.write("\u{07}") }
            wasReady = ready
            let input = terminal.poll(timeout: 0.1)
            for key in input.keys {
                guard let event = BrewKeys.event(for: key, in: flow, at: clock.now) else { continue }
                try brew.perform(flow.handle(event, at: clock.now), now: clock.now)
                if case .done = flow.phase { break }
            }
            if input.hangUp { return true }
            try brew.perform(flow.handle(.tick, at: clock.now), now: clock.now)
        }
    }
}
