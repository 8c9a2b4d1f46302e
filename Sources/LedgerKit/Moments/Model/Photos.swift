import Foundation

/// The image types a moment's photo may be, recognised by their first bytes (the "magic
/// numbers"), never by a file name's extension alone.
public enum ImageFormat: String, Sendable, CaseIterable {
    case jpeg, png, gif, webp, heic, avif

    /// The extension a photo of this type is stored with.
    public var fileExtension: String {
        switch self {
        case .jpeg: "jpg"
        case .png: "png"
        case .gif: "gif"
        case .webp: "webp"
        case .heic: "heic"
        case .avif: "avif"
        }
    }

    /// The name people know it by.
    public var displayName: String {
        switch self {
        case .jpeg: "JPEG"
        case .png: "PNG"
        case .gif: "GIF"
        case .webp: "WebP"
        case .heic: "HEIC"
        case .avif: "AVIF"
        }
    }

    /// The format of a stored photo's extension (`jpg`), or nil.
    public init?(fileExtension: String) {
        guard let f = Self.allCases.first(where: { $0.fileExtension == fileExtension }) else { return nil }
        self = f
    }

    /// "JPEG, PNG, GIF, WebP, HEIC or AVIF".
    public static var list: String {
        allCases.dropLast().map(\.displayName).joined(separator: ", ") + " or " + allCases.last!.displayName
    }

    /// The format `bytes` begin like, or nil when they look like none of them.
    public static func detect(_ bytes: [UInt8]) -> ImageFormat? {
        func starts(_ prefix: [UInt8], at offset: Int = 0) -> Bool {
            bytes.count >= offset + prefix.count && bytes[offset..<offset + prefix.count].elementsEqual(prefix)
        }
        func ascii(_ s: String) -> [UInt8] { Array(s.utf8) }
        if starts([0xFF, 0xD8, 0xFF]) { return .jpeg }
        if starts([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) { return .png }
        if starts(ascii("GIF87a")) || starts(ascii("GIF89a")) { return .gif }
        if starts(ascii("RIFF")), starts(ascii("WEBP"), at: 8) { return .webp }
        // ISO base media files: a box `size ftyp major-brand minor-version compatible-brands…`.
        if starts(ascii("ftyp"), at: 4), bytes.count >= 16 {
            let size = Int(bytes[0]) << 24 | Int(bytes[1]) << 16 | Int(bytes[2]) << 8 | Int(bytes[3])
            let end = min(max(size, 16), bytes.count, 256)
            var brands: [String] = [String(decoding: bytes[8..<12], as: UTF8.self)]
            var i = 16
            while i + 4 <= end {
                brands.append(String(decoding: bytes[i..<i + 4], as: UTF8.self))
                i += 4
            }
            let avif: Set = ["avif", "avis"]
            let heic: Set = ["heic", "heix", "heim", "heis", "hevc", "hevx", "mif1", "msf1", "heif"]
            if avif.contains(brands[0]) { return .avif }
            if heic.contains(brands[0]) { return brands.contains(where: avif.contains) && brands[0].hasPrefix("m") ? .avif : .heic }
        }
        return nil
    }
}

/// Photos of moments: files in `moments/photos/`, each named by the SHA-256 of its contents
/// plus the extension of its type, so the same photo added twice (or on two machines) is one
/// file, and two photos never collide or conflict in a sync.
package enum MomentsPhotos {
    /// Where photos live, relative to the ledger root.
    package static let directory = "moments/photos"

    /// The largest photo accepted: 10 MiB, which holds any phone's JPEG or HEIC; larger files
    /// would make every clone of the ledger heavy.
    package static let maximumBytes = 10 * 1024 * 1024

    /// How `ledger check` sees photo files.
    package static let attachmentType = AttachmentType(
        name: "moments.photo", directory: directory, extensions: Set(ImageFormat.allCases.map(\.fileExtension)),
        maximumBytes: maximumBytes, inspect: { name, contents in inspect(name: name, contents: contents) })

    /// The file name a photo with `contents` is stored under (`<sha256>.<ext>`), or nil when
    /// the contents are not an image ledger recognises.
    package static func fileName(for contents: [UInt8]) -> String? {
        guard let format = ImageFormat.detect(contents) else { return nil }
        return SHA256Hash.hexDigest(contents) + "." + format.fileExtension
    }

    /// The path in the ledger a payload names, for an experience's `payload`.
    package static func payload(forFile name: String) -> String { directory + "/" + name }

    /// The file name in a photo payload (`moments/photos/<64 hex>.<ext>`), or nil when the
    /// payload has another shape.
    package static func fileName(fromPayload payload: String) -> String? {
        guard payload.hasPrefix(directory + "/") else { return nil }
        let name = String(payload.dropFirst(directory.count + 1))
        return isStoredName(name) ? name : nil
    }

    /// Whether `name` has the shape of a stored photo's name.
    static func isStoredName(_ name: String) -> Bool {
        let parts = name.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 2, ImageFormat(fileExtension: String(parts[1])) != nil else { return false }
        let hex = parts[0].utf8
        return hex.count == 64 && hex.allSatisfy { ($0 >= 0x30 && $0 <= 0x39) || ($0 >= 0x61 && $0 <= 0x66) }
    }

    /// Problems with one stored photo: its type must be the one its extension names, and its
    /// name the SHA-256 of its contents. (The size limit and the extension list are checked
    /// before this is called.)
    package static func inspect(name: String, contents: [UInt8]) -> [DocumentIssue] {
        let ext = (name as NSString).pathExtension
        guard let format = ImageFormat.detect(contents) else {
            return [.error(.root, "is not a photo ledger recognises: its first bytes are not those of a \(ImageFormat.list) image")]
        }
        let expected = SHA256Hash.hexDigest(contents) + "." + format.fileExtension
        if format.fileExtension != ext {
            return [.error(.root, "is a \(format.displayName) image with a .\(ext) name; photos are named by their content, so rename it to \(expected) and update the experiences that show it")]
        }
        if name != expected {
            return [.error(.root, "its name is not the SHA-256 of its contents: photos are named by their content, so rename it to \(expected) and update the experiences that show it")]
        }
        return []
    }

    /// Why a file of `bytes` bytes cannot be a photo (`source` names it), or nil when it fits.
    package static func sizeProblem(_ source: String, bytes: Int) -> String? {
        guard bytes > maximumBytes else { return nil }
        return "\(source) is \(FileSystem.formatBytes(bytes)), larger than the \(FileSystem.formatBytes(maximumBytes)) a moments photo may be; add a smaller copy (for example `convert \(source) -resize 2048x2048 smaller.jpg`)"
    }

    /// The refusal of a file whose contents are not a recognised image.
    package static func notAnImage(_ source: String) -> String {
        "\(source) is not a photo ledger recognises: its contents do not begin like a \(ImageFormat.list) image"
    }
}
