import ApplePlatformNames
import LedgerKit
import Testing

/// The names an app on Apple platforms imports beside LedgerKit — declared by
/// `ApplePlatformNames` as SwiftUI, SwiftData, CryptoKit, Charts, WidgetKit and the standard
/// library declare them, or by Swift Testing — each in a type position, where a name that
/// LedgerKit declared too would be ambiguous and this would not compile.
typealias ApplePlatformTypes = (
    any App, any Scene, any View, Text, TextField, Label, Button, List, Form, Section, Group, Link, Image, Color, Font,
    Table, Settings, Binding, State, Environment, Path,
    Schema, ModelContainer, Query,
    SHA256, Insecure,
    Chart, PointMark, any TimelineEntry, any Widget,
    any Clock,
    Issue, Test, Tag, Comment, SourceLocation
)

@Suite struct NameTests {
    @Test func noPublicNameOfLedgerKitClashesWithAnAppleFrameworkOrSwiftTesting() {
        let names = String(reflecting: ApplePlatformTypes.self)
        #expect(names.contains("ApplePlatformNames.TextField") && names.contains("Testing.Issue"))
        #expect(!names.contains("LedgerKit."), "\(names)")
    }
}
