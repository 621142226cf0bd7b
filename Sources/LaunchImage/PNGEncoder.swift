import CPNGShim

/// Encodes ``RGBAImage`` as PNG through libpng, deterministically: the same pixels always give the
/// same bytes (no time stamp or other varying chunk is written).
public struct PNGEncoder: Sendable {
    /// zlib compression level, 0–9.
    public var compressionLevel: Int

    public init(compressionLevel: Int = 6) {
        self.compressionLevel = compressionLevel
    }

    /// The PNG bytes of `image`.
    public func encode(_ image: RGBAImage, file: String = "<memory>") throws(PNGError) -> [UInt8] {
        var out: UnsafeMutablePointer<UInt8>? = nil
        var length = 0
        var message = [CChar](repeating: 0, count: 256)
        let status = image.pixels.withUnsafeBufferPointer { buffer in
            lp_png_encode_rgba(buffer.baseAddress, UInt32(image.width), UInt32(image.height),
                               Int32(max(0, min(9, compressionLevel))), &out, &length, &message, message.count)
        }
        guard status == 0, let out else {
            let reason = message.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
            throw PNGError(file: file, reason: reason)
        }
        defer { lp_png_free(out) }
        return Array(UnsafeBufferPointer(start: out, count: length))
    }
}
