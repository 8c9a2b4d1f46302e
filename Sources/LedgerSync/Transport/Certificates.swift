import Foundation
import LedgerKit

/// What ledger's TLS library (mbedTLS 2.28, in libgit2 1.5) cannot verify although git's can,
/// recognised in the certificates so the message says exactly that.
enum Certificates {
    /// Whether a DER certificate lists `host` as an IP-address subjectAltName (`[7]` tag
    /// 0x87, then the address's 4 or 16 bytes) and not as a DNS name (`[2]` tag 0x82, then
    /// the text): mbedTLS 2.28 matches only DNS names.
    static func certificate(_ der: [UInt8], listsOnlyAsIPAddress host: String) -> Bool {
        let name = Array(host.utf8)
        return contains(der, [0x82, UInt8(truncatingIfNeeded: name.count)] + name) == false && listsIPAddress(der, host)
    }

    private static func listsIPAddress(_ der: [UInt8], _ host: String) -> Bool {
        var v4 = in_addr(), v6 = in6_addr()
        let address: [UInt8]
        if inet_pton(AF_INET, host, &v4) == 1 {
            address = withUnsafeBytes(of: &v4) { Array($0) }
        } else if inet_pton(AF_INET6, host.trimmingCharacters(in: CharacterSet(charactersIn: "[]")), &v6) == 1 {
            address = withUnsafeBytes(of: &v6) { Array($0) }
        } else {
            return false
        }
        return contains(der, [0x87, UInt8(address.count)] + address)
    }

    private static func contains(_ bytes: [UInt8], _ needle: [UInt8]) -> Bool {
        guard bytes.count >= needle.count else { return false }
        return (0...(bytes.count - needle.count)).contains { bytes[$0..<($0 + needle.count)].elementsEqual(needle) }
    }

    /// Whether a PEM file holds a certificate signed with (or holding) an Ed25519 key
    /// (OID 1.3.101.112), which mbedTLS 2.28 cannot parse.
    static func usesEd25519(pemFile path: String) -> Bool {
        guard let bytes = try? FileSystem.read(path, limit: 1 << 22) else { return false }
        let oid: [UInt8] = [0x06, 0x03, 0x2B, 0x65, 0x70]
        var body = ""
        for line in String(decoding: bytes, as: UTF8.self).split(separator: "\n") {
            if line.hasPrefix("-----END") {
                if let der = Data(base64Encoded: body).map(Array.init), contains(der, oid) { return true }
                body = ""
            } else if !line.hasPrefix("-----") {
                body += line.trimmingWhitespace()
            }
        }
        return false
    }
}
