import LedgerKit

extension LedgerStore {
    /// A ledger in a plain folder, as an app linking LedgerKit keeps one: its device-local
    /// state in the hidden `.local` folder inside it (which `check` ignores).
    static func plain(_ root: String) -> LedgerStore {
        LedgerStore(root: root, localStateDirectory: root + "/.local")
    }
}
