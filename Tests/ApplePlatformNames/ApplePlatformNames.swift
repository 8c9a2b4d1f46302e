// Top-level names that an app on Apple platforms imports together with LedgerKit, declared
// as those frameworks declare them (SwiftUI, SwiftData, CryptoKit, Charts, WidgetKit, the
// standard library), for platforms that lack the frameworks. Nothing here runs: the
// consumer tests name each type unqualified, which compiles only while LedgerKit declares
// none of them (two imported modules declaring a name make it ambiguous).

// SwiftUI
public protocol App {}
public protocol Scene {}
public protocol View {}
public struct Text {}
public struct TextField {}
public struct Label {}
public struct Button {}
public struct List {}
public struct Form {}
public struct Section {}
public struct Group {}
public struct Link {}
public struct Image {}
public struct Color {}
public struct Font {}
public struct Table {}
public struct Settings {}
public struct Binding {}
public struct State {}
public struct Environment {}
public struct Path {}
// SwiftData
public final class Schema {}
public final class ModelContainer {}
public struct Query {}
// CryptoKit
public struct SHA256 {}
public struct Insecure {}
// Charts, WidgetKit
public struct Chart {}
public struct PointMark {}
public protocol TimelineEntry {}
public protocol Widget {}
// The standard library (a name LedgerKit declared would shadow it silently, not clash)
public protocol Clock {}
