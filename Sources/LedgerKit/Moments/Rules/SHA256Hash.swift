/// SHA-256 (FIPS 180-4), in plain Swift so that LedgerKit builds on every platform with
/// Foundation alone. Photos are stored under the hash of their contents.
///
/// Tested against the standard FIPS 180-4 test vectors.
package struct SHA256Hash: Sendable {
    private var state: [UInt32] = [
        0x6A09_E667, 0xBB67_AE85, 0x3C6E_F372, 0xA54F_F53A, 0x510E_527F, 0x9B05_688C, 0x1F83_D9AB, 0x5BE0_CD19,
    ]
    private var buffer: [UInt8] = []
    private var length: UInt64 = 0

    package init() {
        buffer.reserveCapacity(64)
    }

    /// The 32-byte digest of `bytes`.
    package static func hash(_ bytes: some Collection<UInt8>) -> [UInt8] {
        var h = SHA256Hash()
        h.update(bytes)
        return h.finalize()
    }

    /// The digest of `bytes` as 64 lowercase hexadecimal digits.
    package static func hexDigest(_ bytes: some Collection<UInt8>) -> String {
        hex(hash(bytes))
    }

    /// Lowercase hexadecimal digits of `bytes`.
    package static func hex(_ bytes: [UInt8]) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var out = [UInt8]()
        out.reserveCapacity(bytes.count * 2)
        for b in bytes {
            out.append(digits[Int(b >> 4)])
            out.append(digits[Int(b & 0x0F)])
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// Feeds more bytes.
    package mutating func update(_ bytes: some Collection<UInt8>) {
        length &+= UInt64(bytes.count)
        var rest = Array(bytes)[...]
        if !buffer.isEmpty {
            let take = min(64 - buffer.count, rest.count)
            buffer += rest.prefix(take)
            rest = rest.dropFirst(take)
            if buffer.count < 64 { return }
            compress(buffer[...])
            buffer.removeAll(keepingCapacity: true)
        }
        while rest.count >= 64 {
            compress(rest.prefix(64))
            rest = rest.dropFirst(64)
        }
        buffer += rest
    }

    /// The digest of everything fed so far.
    package mutating func finalize() -> [UInt8] {
        let bitLength = length &* 8
        buffer.append(0x80)
        if buffer.count > 56 {
            buffer += [UInt8](repeating: 0, count: 64 - buffer.count)
            compress(buffer[...])
            buffer.removeAll(keepingCapacity: true)
        }
        buffer += [UInt8](repeating: 0, count: 56 - buffer.count)
        for i in (0..<8).reversed() { buffer.append(UInt8(truncatingIfNeeded: bitLength >> (UInt64(i) * 8))) }
        compress(buffer[...])
        buffer.removeAll()
        var out: [UInt8] = []
        out.reserveCapacity(32)
        for word in state {
            out += [UInt8(word >> 24), UInt8(truncatingIfNeeded: word >> 16), UInt8(truncatingIfNeeded: word >> 8), UInt8(truncatingIfNeeded: word)]
        }
        return out
    }

    private static let k: [UInt32] = [
        0x428A_2F98, 0x7137_4491, 0xB5C0_FBCF, 0xE9B5_DBA5, 0x3956_C25B, 0x59F1_11F1, 0x923F_82A4, 0xAB1C_5ED5,
        0xD807_AA98, 0x1283_5B01, 0x2431_85BE, 0x550C_7DC3, 0x72BE_5D74, 0x80DE_B1FE, 0x9BDC_06A7, 0xC19B_F174,
        0xE49B_69C1, 0xEFBE_4786, 0x0FC1_9DC6, 0x240C_A1CC, 0x2DE9_2C6F, 0x4A74_84AA, 0x5CB0_A9DC, 0x76F9_88DA,
        0x983E_5152, 0xA831_C66D, 0xB003_27C8, 0xBF59_7FC7, 0xC6E0_0BF3, 0xD5A7_9147, 0x06CA_6351, 0x1429_2967,
        0x27B7_0A85, 0x2E1B_2138, 0x4D2C_6DFC, 0x5338_0D13, 0x650A_7354, 0x766A_0ABB, 0x81C2_C92E, 0x9272_2C85,
        0xA2BF_E8A1, 0xA81A_664B, 0xC24B_8B70, 0xC76C_51A3, 0xD192_E819, 0xD699_0624, 0xF40E_3585, 0x106A_A070,
        0x19A4_C116, 0x1E37_6C08, 0x2748_774C, 0x34B0_BCB5, 0x391C_0CB3, 0x4ED8_AA4A, 0x5B9C_CA4F, 0x682E_6FF3,
        0x748F_82EE, 0x78A5_636F, 0x84C8_7814, 0x8CC7_0208, 0x90BE_FFFA, 0xA450_6CEB, 0xBEF9_A3F7, 0xC671_78F2,
    ]

    private mutating func compress(_ block: ArraySlice<UInt8>) {
        withUnsafeTemporaryAllocation(of: UInt32.self, capacity: 64) { w in
            block.withUnsafeBufferPointer { p in
                for i in 0..<16 {
                    w[i] = UInt32(p[i * 4]) << 24 | UInt32(p[i * 4 + 1]) << 16 | UInt32(p[i * 4 + 2]) << 8 | UInt32(p[i * 4 + 3])
                }
            }
            for i in 16..<64 {
                let s0 = w[i - 15].rotatedRight(7) ^ w[i - 15].rotatedRight(18) ^ (w[i - 15] >> 3)
                let s1 = w[i - 2].rotatedRight(17) ^ w[i - 2].rotatedRight(19) ^ (w[i - 2] >> 10)
                w[i] = w[i - 16] &+ s0 &+ w[i - 7] &+ s1
            }
            compressRounds(w)
        }
    }

    private mutating func compressRounds(_ w: UnsafeMutableBufferPointer<UInt32>) {
        var a = state[0], b = state[1], c = state[2], d = state[3]
        var e = state[4], f = state[5], g = state[6], h = state[7]
        for i in 0..<64 {
            let s1 = e.rotatedRight(6) ^ e.rotatedRight(11) ^ e.rotatedRight(25)
            let ch = (e & f) ^ (~e & g)
            let t1 = h &+ s1 &+ ch &+ Self.k[i] &+ w[i]
            let s0 = a.rotatedRight(2) ^ a.rotatedRight(13) ^ a.rotatedRight(22)
            let maj = (a & b) ^ (a & c) ^ (b & c)
            let t2 = s0 &+ maj
            h = g; g = f; f = e; e = d &+ t1
            d = c; c = b; b = a; a = t1 &+ t2
        }
        state[0] &+= a; state[1] &+= b; state[2] &+= c; state[3] &+= d
        state[4] &+= e; state[5] &+= f; state[6] &+= g; state[7] &+= h
    }
}

extension UInt32 {
    fileprivate func rotatedRight(_ n: UInt32) -> UInt32 { (self >> n) | (self << (32 - n)) }
}
