import ArgumentParser

/// `ledger doctor`: placeholder while it is written.
struct DoctorCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "doctor", abstract: "Check the setup.")
}
