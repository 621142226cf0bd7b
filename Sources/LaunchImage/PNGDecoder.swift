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

        /// 8192 × 8192 pixels and 256 MiB of decoded pixels at most; 8 MiB per chunk.
        public static let standard = Limits(
            maxWidth: 8192, maxHeight: 8192,
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
        // libpng's message, if any, goes to the stack, not to a heap array made for every decode.
        try withUnsafeTemporaryAllocation(of: CChar.self, capacity: 256) { message throws(PNGError) in
            message.initialize(repeating: 0)
            return try decodeWithFormat(bytes, file: file, message: message)
        }
    }

    private func decodeWithFormat(_ bytes: [UInt8], file: String, message: UnsafeMutableBufferPointer<CChar>) throws(PNGError) -> (
        image: RGBAImage, format: SourceFormat
    ) {
        var decoded = lp_png_decoded()
        let cLimits = lp_png_limits(
            max_width: UInt32(clamping: limits.maxWidth), max_height: UInt32(clamping: limits.maxHeight),
            max_pixel_bytes: limits.maxPixelBytes, max_chunk_bytes: limits.maxChunkBytes)
        // The usual case: the header's size is within the limits, so the pixels are decoded straight
        // into the image's array (no second buffer, no copy: for a small file that inflates to
        // megabytes, the copy cost more than the decoding). libpng checks the header again.
        if let size = headerSize(bytes) {
            var status: Int32 = 1
            let pixels = [UInt8](unsafeUninitializedCapacity: size.width * size.height * 4) { destination, count in
                status = bytes.withUnsafeBufferPointer { buffer in
                    lp_png_decode_to(
                        buffer.baseAddress, buffer.count, cLimits, destination.baseAddress, destination.count,
                        &decoded, message.baseAddress, message.count)
                }
                count = status == 0 ? destination.count : 0
            }
            guard status == 0 else {
                let reason = String(cString: message.baseAddress!)
                throw PNGError.undecodable(file: file, reason: reason.isEmpty ? "libpng failed without a message" : reason)
            }
            let format = SourceFormat(
                bitDepth: Int(decoded.bit_depth), colorType: Int(decoded.color_type),
                interlaced: decoded.interlaced != 0)
            return (RGBAImage(width: Int(decoded.width), height: Int(decoded.height), pixels: pixels), format)
        }
        let status = bytes.withUnsafeBufferPointer { buffer in
            lp_png_decode(buffer.baseAddress, buffer.count, cLimits, &decoded, message.baseAddress, message.count)
        }
        guard status == 0, let pixels = decoded.pixels else {
            let reason = String(cString: message.baseAddress!)
            throw PNGError.undecodable(file: file, reason: reason.isEmpty ? "libpng failed without a message" : reason)
        }
        defer { lp_png_free(pixels) }
        let width = Int(decoded.width), height = Int(decoded.height)
        let image = RGBAImage(
            width: width, height: height,
            pixels: Array(UnsafeBufferPointer(start: pixels, count: width * height * 4)))
        let format = SourceFormat(
            bitDepth: Int(decoded.bit_depth), colorType: Int(decoded.color_type),
            interlaced: decoded.interlaced != 0)
        return (image, format)
    }

    /// The width and height in the IHDR chunk (which a PNG must begin with), when they are non-zero
    /// and within ``limits``; `nil` otherwise (the shim then decodes into its own buffer and reports
    /// what is wrong).
    private func headerSize(_ bytes: [UInt8]) -> (width: Int, height: Int)? {
        guard bytes.count >= 24, bytes[12] == 0x49, bytes[13] == 0x48, bytes[14] == 0x44, bytes[15] == 0x52 else { return nil }
        func word(_ at: Int) -> Int { Int(bytes[at]) << 24 | Int(bytes[at + 1]) << 16 | Int(bytes[at + 2]) << 8 | Int(bytes[at + 3]) }
        let width = word(16), height = word(20)
        guard width > 0, height > 0, width <= limits.maxWidth, height <= limits.maxHeight,
            width <= limits.maxPixelBytes / 4 / height
        else { return nil }
        return (width, height)
    }
}
