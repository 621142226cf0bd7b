import CPNGShim

/// Encodes ``RGBAImage`` as PNG through libpng, deterministically: the same pixels always give the
/// same bytes (no time stamp or other varying chunk is written).
///
/// The defaults are chosen for a launch snapshot, which is written on every trip to the background
/// and must fit in its time budget: the `Sub` filter with zlib's run-length strategy. On the heavy
/// fixture's 750×1334 frame that encodes about 9× faster than libpng's defaults (level 6, adaptive
/// filters) and in a smaller file (measured in `make bench`, against a C program calling libpng with
/// the same settings). An image whose every pixel is opaque is written as RGB, a quarter fewer bytes
/// to compress.
public struct PNGEncoder: Sendable {
    /// zlib compression level, 0–9.
    public var compressionLevel: Int
    /// The row filters libpng may choose from.
    public var filters: Filters
    /// zlib's compression strategy.
    public var strategy: Strategy
    /// Writes RGBA even when every pixel is opaque (the file as libpng's defaults would make it).
    public var alwaysRGBA = false

    /// libpng's own settings: zlib level 6, the filters libpng chooses, RGBA (the file as libpng's
    /// defaults would make it).
    public static let libpngDefaults = PNGEncoder(compressionLevel: 6, filters: [], strategy: .standard, alwaysRGBA: true)

    /// A set of PNG row filters (libpng's `PNG_FILTER_*` bits).
    public struct Filters: OptionSet, Sendable {
        public let rawValue: Int32
        public init(rawValue: Int32) { self.rawValue = rawValue }
        public static let none = Filters(rawValue: 0x08)
        public static let sub = Filters(rawValue: 0x10)
        public static let up = Filters(rawValue: 0x20)
        public static let average = Filters(rawValue: 0x40)
        public static let paeth = Filters(rawValue: 0x80)
        /// Every filter, chosen per row by libpng's heuristic. The empty set leaves the choice to libpng.
        public static let all: Filters = [.none, .sub, .up, .average, .paeth]
    }

    /// zlib's compression strategies (`Z_DEFAULT_STRATEGY`, `Z_FILTERED`, `Z_RLE`).
    public enum Strategy: Int32, Sendable {
        case standard = 0
        case filtered = 1
        case runLength = 3
    }

    public init(compressionLevel: Int = 6, filters: Filters = .sub, strategy: Strategy = .runLength, alwaysRGBA: Bool = false) {
        self.compressionLevel = compressionLevel
        self.filters = filters
        self.strategy = strategy
        self.alwaysRGBA = alwaysRGBA
    }

    /// The PNG bytes of `image`.
    public func encode(_ image: RGBAImage, file: String = "<memory>") throws(PNGError) -> [UInt8] {
        var out: UnsafeMutablePointer<UInt8>? = nil
        var length = 0
        var message = [CChar](repeating: 0, count: 256)
        let opaque = !alwaysRGBA && Self.isOpaque(image)
        let status = image.pixels.withUnsafeBufferPointer { buffer in
            lp_png_encode_rgba(
                buffer.baseAddress, UInt32(image.width), UInt32(image.height),
                Int32(max(0, min(9, compressionLevel))), filters.rawValue, strategy.rawValue,
                opaque ? 1 : 0, &out, &length, &message, message.count)
        }
        guard status == 0, let out else {
            let reason = message.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
            throw PNGError.unencodable(file: file, reason: reason)
        }
        defer { lp_png_free(out) }
        return Array(UnsafeBufferPointer(start: out, count: length))
    }

    /// Whether every pixel's alpha is 255.
    static func isOpaque(_ image: RGBAImage) -> Bool {
        image.pixels.withUnsafeBufferPointer { pixels in
            var index = 3
            while index < pixels.count {
                if pixels[index] != 255 { return false }
                index += 4
            }
            return true
        }
    }
}
