/// The post-brew adjustment hints (BrewGuide §3.8.4): one static sentence per taste tag,
/// never personalised.
extension TasteTag {
    /// The seed's hint for the tag; static, never personalised.
    public var hint: String {
        switch self {
        case .tooSour: "try slightly finer or hotter"
        case .tooBitter: "try slightly coarser or cooler"
        case .tooWeak: "try higher dose or finer"
        case .tooStrong: "try lower dose or coarser"
        case .perfect: "great job - no tips!"
        }
    }
}

extension BrewLog {
    /// The hint for the log's taste tag, when it has one.
    public var hint: String? { tasteTag?.hint }
}
