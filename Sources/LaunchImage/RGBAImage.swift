/// An 8-bit RGBA image, row-major, 4 bytes per pixel, no row padding, straight (non-premultiplied) alpha.
public struct RGBAImage: Equatable, Sendable {
    public let width: Int
    public let height: Int
    public var pixels: [UInt8]

    /// An image filled with one colour.
    public init(width: Int, height: Int, fill: RGBA = RGBA(0, 0, 0, 0)) {
        precondition(width >= 0 && height >= 0, "image size must not be negative")
        self.width = width
        self.height = height
        let count = width * height
        let word = UInt32(fill.r) | UInt32(fill.g) << 8 | UInt32(fill.b) << 16 | UInt32(fill.a) << 24
        // One 32-bit store per pixel in a plain loop (vectorised), the channels in memory order.
        let pixels = [UInt8](unsafeUninitializedCapacity: count * 4) { bytes, initialized in
            if let base = bytes.baseAddress {
                let raw = UnsafeMutableRawPointer(base), value = UInt32(littleEndian: word)
                for i in 0..<count { raw.storeBytes(of: value, toByteOffset: i &* 4, as: UInt32.self) }
            }
            initialized = count * 4
        }
        self.pixels = pixels
    }

    /// Wraps existing pixels; `pixels.count` must be `width * height * 4`.
    public init(width: Int, height: Int, pixels: [UInt8]) {
        precondition(pixels.count == width * height * 4, "pixel buffer does not match the image size")
        self.width = width
        self.height = height
        self.pixels = pixels
    }

    /// Bytes held by the pixels.
    public var byteCount: Int { pixels.count }

    /// The pixel at (`x`, `y`).
    public subscript(x: Int, y: Int) -> RGBA {
        get {
            let i = (y * width + x) * 4
            return RGBA(pixels[i], pixels[i + 1], pixels[i + 2], pixels[i + 3])
        }
        set {
            let i = (y * width + x) * 4
            pixels[i] = newValue.r; pixels[i + 1] = newValue.g; pixels[i + 2] = newValue.b; pixels[i + 3] = newValue.a
        }
    }
}

/// An 8-bit straight-alpha colour.
public struct RGBA: Equatable, Hashable, Sendable, CustomStringConvertible {
    public var r: UInt8
    public var g: UInt8
    public var b: UInt8
    public var a: UInt8

    public init(_ r: UInt8, _ g: UInt8, _ b: UInt8, _ a: UInt8 = 255) {
        self.r = r
        self.g = g
        self.b = b
        self.a = a
    }

    /// `#rrggbbaa`.
    public var description: String {
        let digits = Array("0123456789abcdef")
        return "#" + [r, g, b, a].map { "\(digits[Int($0 >> 4)])\(digits[Int($0 & 15)])" }.joined()
    }
}
