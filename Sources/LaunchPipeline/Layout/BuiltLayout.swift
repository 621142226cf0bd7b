import LaunchManifest

/// The frames of every view of one orientation, in points.
public struct BuiltLayout: Equatable, Sendable {
    /// One key and where it stands.
    public struct Key: Equatable, Sendable {
        public var spec: KeySpec
        public var frame: Rect
    }

    public var orientation: Orientation
    /// Screen size in points for this orientation.
    public var screenWidth: Double
    public var screenHeight: Double
    public var display: Rect
    public var keys: [Key]
    /// The size every one-cell key has.
    public var cellWidth: Double
    public var cellHeight: Double

    /// Number of views: the display plus every key.
    public var viewCount: Int { 1 + keys.count }
}
