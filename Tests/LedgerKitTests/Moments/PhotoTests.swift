import Foundation
import LedgerKit
import LedgerTestSupport
import Testing

/// Tiny real images, written by hand (valid files, a few dozen bytes each).
enum SampleImages {
    /// A 1×1 PNG.
    static let png: [UInt8] = [
        0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0x00, 0x00, 0x00, 0x0D, 0x49, 0x48, 0x44, 0x52,
        0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0x01, 0x08, 0x02, 0x00, 0x00, 0x00, 0x90, 0x77, 0x53,
        0xDE, 0x00, 0x00, 0x00, 0x0C, 0x49, 0x44, 0x41, 0x54, 0x08, 0xD7, 0x63, 0xF8, 0xCF, 0xC0, 0x00,
        0x00, 0x03, 0x01, 0x01, 0x00, 0x18, 0xDD, 0x8D, 0xB0, 0x00, 0x00, 0x00, 0x00, 0x49, 0x45, 0x4E,
        0x44, 0xAE, 0x42, 0x60, 0x82,
    ]
    /// A 1×1 GIF.
    static let gif: [UInt8] = Array("GIF89a".utf8) + [
        0x01, 0x00, 0x01, 0x00, 0x80, 0x00, 0x00, 0xFF, 0xFF, 0xFF, 0x00, 0x00, 0x00, 0x21, 0xF9, 0x04,
        0x01, 0x00, 0x00, 0x00, 0x00, 0x2C, 0x00, 0x00, 0x00, 0x00, 0x01, 0x00, 0x01, 0x00, 0x00, 0x02,
        0x02, 0x44, 0x01, 0x00, 0x3B,
    ]
    /// The start of a JPEG (SOI + JFIF APP0), enough for recognition.
    static let jpeg: [UInt8] = [0xFF, 0xD8, 0xFF, 0xE0, 0x00, 0x10] + Array("JFIF".utf8) + [0x00, 0x01, 0x01, 0x00, 0x00, 0x01, 0x00, 0x01, 0x00, 0x00, 0xFF, 0xD9]
    static func ftyp(_ major: String, _ compatible: [String] = []) -> [UInt8] {
        let body = Array(major.utf8) + [0, 0, 0, 0] + compatible.flatMap { Array($0.utf8) }
        let size = 8 + body.count
        return [0, 0, 0, UInt8(size)] + Array("ftyp".utf8) + body + [0, 0, 0, 8] + Array("mdat".utf8)
    }
    static let webp: [UInt8] = Array("RIFF".utf8) + [0x1A, 0, 0, 0] + Array("WEBPVP8L".utf8) + [0x0D, 0, 0, 0, 0x2F, 0, 0, 0, 0x10, 0x07, 0x10, 0x11, 0x11, 0x88, 0x88, 0xFE, 0x07, 0x00]
}

@Suite struct PhotoTests {
    @Test(arguments: [
        (SampleImages.png, ImageFormat?.some(.png)), (SampleImages.gif, .gif), (SampleImages.jpeg, .jpeg),
        (SampleImages.webp, .webp), (SampleImages.ftyp("heic", ["mif1", "heic"]), .heic),
        (SampleImages.ftyp("mif1", ["heic"]), .heic), (SampleImages.ftyp("avif", ["mif1"]), .avif),
        (SampleImages.ftyp("mif1", ["avif"]), .avif), (SampleImages.ftyp("isom", ["mp41"]), nil),
        (Array("GIF88a".utf8), nil), (Array("hello, world".utf8), nil), ([], nil), ([0xFF, 0xD8], nil),
        (Array("RIFF\u{0}\u{0}\u{0}\u{0}WAVE".utf8), nil), (Array(#"{"id": "x"}"#.utf8), nil),
    ])
    func formatsAreRecognisedByTheirFirstBytes(bytes: [UInt8], format: ImageFormat?) {
        #expect(ImageFormat.detect(bytes) == format)
    }

    @Test func aPhotoIsNamedByTheSHA256OfItsContents() throws {
        let name = try #require(MomentsPhotos.fileName(for: SampleImages.png))
        #expect(name == SHA256Hash.hexDigest(SampleImages.png) + ".png")
        #expect(MomentsPhotos.inspect(name: name, contents: SampleImages.png).isEmpty)
        #expect(MomentsPhotos.fileName(fromPayload: MomentsPhotos.payload(forFile: name)) == name)
    }

    @Test func checkFindsAWrongNameAWrongTypeAndNonImages() throws {
        let right = SHA256Hash.hexDigest(SampleImages.png)
        let renamed = MomentsPhotos.inspect(name: String(repeating: "0", count: 64) + ".png", contents: SampleImages.png)
        #expect(renamed.count == 1 && renamed[0].message.contains("rename it to \(right).png"))
        let wrongType = MomentsPhotos.inspect(name: right + ".jpg", contents: SampleImages.png)
        #expect(wrongType.count == 1 && wrongType[0].message.contains("PNG image with a .jpg name"))
        let text = Array("not really a photo".utf8)
        #expect(MomentsPhotos.inspect(name: SHA256Hash.hexDigest(text) + ".jpg", contents: text).first?.severity == .error)
    }
}
