/// Decoded images keyed by path, so nothing is decoded twice; counts hits and misses.
public final class ImageCache {
    private var images: [String: RGBAImage] = [:]
    /// Lookups answered from the cache.
    public private(set) var hits = 0
    /// Lookups that had to load.
    public private(set) var misses = 0

    public init() {}

    /// The cached image for `path`, or the result of `load` (which is then cached).
    public func image(for path: String, load: (String) throws -> RGBAImage) rethrows -> RGBAImage {
        if let image = images[path] {
            hits += 1
            return image
        }
        misses += 1
        let image = try load(path)
        images[path] = image
        return image
    }

    /// Caches `image`, decoded elsewhere (a worker thread), as a miss.
    public func store(_ image: RGBAImage, for path: String) {
        misses += 1
        images[path] = image
    }

    /// The cached image for `path`, without loading or counting.
    public func cached(_ path: String) -> RGBAImage? { images[path] }

    /// Number of images held.
    public var count: Int { images.count }

    /// Bytes of decoded pixels held.
    public var byteCount: Int { images.values.reduce(0) { $0 + $1.byteCount } }
}
