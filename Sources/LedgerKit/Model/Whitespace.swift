/// Text without the blanks around it, as Foundation's `trimmingWhitespace()`
/// (or `.whitespacesAndNewlines`) gives it — by Unicode scalar, the same characters — without
/// its bridging to NSString, whose first use costs a quick command a few percent of its start.
extension StringProtocol {
    /// Without leading and trailing spaces (general category Zs, and U+200B as Foundation
    /// counts it) and tabs; with `newlines`,
    /// line and paragraph separators, U+000A–U+000D and U+0085 too.
    package func trimmingWhitespace(newlines: Bool = false) -> String {
        let scalars = Substring(self).unicodeScalars
        func blank(_ s: Unicode.Scalar) -> Bool {
            switch s.value {
            case 0x09, 0x20, 0x200B: return true
            case 0x0A...0x0D, 0x85: return newlines
            case 0..<0x80: return false
            default:
                switch s.properties.generalCategory {
                case .spaceSeparator: return true
                case .lineSeparator, .paragraphSeparator: return newlines
                default: return false
                }
            }
        }
        guard let first = scalars.firstIndex(where: { !blank($0) }), let last = scalars.lastIndex(where: { !blank($0) }) else { return "" }
        return String(scalars[first...last])
    }
}
