/// Reads and writes one `tEXt` chunk of a PNG held in memory (keyword, then Latin-1 text), the way a
/// saved snapshot carries the key of the launch that drew it.
///
/// Only the chunks before the first `IDAT` are looked at, and every length is checked against what
/// the bytes hold before it is used: a truncated or hostile file gives `nil`, never a crash.
public enum PNGTextChunk {
    static let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]

    /// `png` with a `tEXt` chunk `keyword`/`text` inserted after `IHDR`; `nil` when `png` does not
    /// start with a PNG signature and an `IHDR` chunk, or the keyword is not 1–79 printable
    /// Latin-1 characters (the PNG specification's rule).
    public static func inserting(keyword: String, text: String, into png: [UInt8]) -> [UInt8]? {
        let key = Array(keyword.utf8)
        guard (1...79).contains(key.count), key.allSatisfy({ (0x20...0x7E).contains($0) }),
            png.starts(with: signature), png.count >= 33, Array(png[12..<16]) == Array("IHDR".utf8)
        else { return nil }
        let data = key + [0] + Array(text.unicodeScalars.map { $0.value < 256 ? UInt8($0.value) : UInt8(ascii: "?") })
        guard data.count <= 1 << 20 else { return nil }
        let type = Array("tEXt".utf8)
        var chunk = bigEndian(UInt32(data.count)) + type + data
        chunk += bigEndian(crc32(type + data))
        // The signature (8) and the IHDR chunk (4 + 4 + 13 + 4) come first.
        return Array(png[..<33]) + chunk + Array(png[33...])
    }

    /// The text of the first `tEXt` chunk named `keyword` before the image data, or `nil`.
    public static func text(of keyword: String, in png: [UInt8]) -> String? {
        guard png.starts(with: signature) else { return nil }
        let key = Array(keyword.utf8)
        var offset = 8
        while offset + 12 <= png.count {
            let length = Int(png[offset]) << 24 | Int(png[offset + 1]) << 16 | Int(png[offset + 2]) << 8 | Int(png[offset + 3])
            let type = Array(png[(offset + 4)..<(offset + 8)])
            guard length <= png.count - offset - 12 else { return nil }
            let data = png[(offset + 8)..<(offset + 8 + length)]
            if type == Array("IDAT".utf8) { return nil }
            if type == Array("tEXt".utf8), let zero = data.firstIndex(of: 0), Array(data[..<zero]) == key {
                return String(data[(zero + 1)...].map { Character(Unicode.Scalar($0)) })
            }
            offset += 12 + length
        }
        return nil
    }

    static func bigEndian(_ value: UInt32) -> [UInt8] {
        [UInt8(value >> 24), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)]
    }

    /// The CRC-32 PNG chunks carry (ISO 3309, as zlib's `crc32`).
    static func crc32(_ bytes: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 == 1 ? 0xEDB8_8320 ^ (crc >> 1) : crc >> 1 }
        }
        return crc ^ 0xFFFF_FFFF
    }
}
