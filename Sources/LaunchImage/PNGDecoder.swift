import CPNGShim

/// Decodes PNG files to ``RGBAImage`` through libpng.
///
/// Every colour type, bit depth and interlacing becomes 8-bit RGBA: palettes and grey are expanded,
/// `tRNS` becomes alpha, 16-bit samples are stripped to 8. ``Limits`` cap what a header may ask for.
public struct PNGDecoder: Sendable {
    /// Caps on what a PNG header may make the decoder allocate.
    public struct Limits: Sendable, Equatable {
        public var maxWidth: Int
        public var maxHeight: Int
        /// Maximum bytes of decoded RGBA pixels.
        public var maxPixelBytes: Int
        /// Maximum bytes for one ancillary chunk (text, ICC profile, …).
        public var maxChunkBytes: Int

        public init(maxWidth: Int, maxHeight: Int, maxPixelBytes: Int, maxChunkBytes: Int) {
            self.maxWidth = maxWidth
            self.maxHeight = maxHeight
            self.maxPixelBytes = maxPixelBytes
            self.maxChunkBytes = maxChunkBytes
        }

        /// 8192 × 8192 pixels and 256 MiB of decoded pixels at most; 8 MiB per chunk.
        public static let standard = Limits(maxWidth: 8192, maxHeight: 8192,
                                            maxPixelBytes: 256 << 20, maxChunkBytes: 8 << 20)
    }

    /// What the file held before conversion to RGBA8.
    public struct SourceFormat: Sendable, Equatable {
        public var bitDepth: Int
        /// PNG colour type: 0 grey, 2 RGB, 3 palette, 4 grey+alpha, 6 RGBA.
        public var colorType: Int
        public var interlaced: Bool
    }

    public var limits: Limits

    public init(limits: Limits = .standard) {
        self.limits = limits
    }

    /// Decodes the PNG in `bytes`; `file` names it in errors.
    public func decode(_ bytes: [UInt8], file: String = "<memory>") throws(PNGError) -> RGBAImage {
        try decodeWithFormat(bytes, file: file).image
    }

    /// Decodes the PNG in `bytes` and also reports its original format.
    public func decodeWithFormat(_ bytes: [UInt8], file: String = "<memory>") throws(PNGError) -> (image: RGBAImage, format: SourceFormat) {
        var decoded = lp_png_decoded()
        var message = [CChar](repeating: 0, count: 256)
        let cLimits = lp_png_limits(
            max_width: UInt32(clamping: limits.maxWidth), max_height: UInt32(clamping: limits.maxHeight),
            max_pixel_bytes: limits.maxPixelBytes, max_chunk_bytes: limits.maxChunkBytes)
        let status = bytes.withUnsafeBufferPointer { buffer in
            lp_png_decode(buffer.baseAddress, buffer.count, cLimits, &decoded, &message, message.count)
        }
        guard status == 0, let pixels = decoded.pixels else {
            let reason = message.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
            throw PNGError(file: file, reason: reason.isEmpty ? "libpng failed without a message" : reason)
        }
        defer { lp_png_free(pixels) }
        let width = Int(decoded.width), height = Int(decoded.height)
        let image = RGBAImage(width: width, height: height,
                              pixels: Array(UnsafeBufferPointer(start: pixels, count: width * height * 4)))
        let format = SourceFormat(bitDepth: Int(decoded.bit_depth), colorType: Int(decoded.color_type),
                                  interlaced: decoded.interlaced != 0)
        return (image, format)
    }
}
