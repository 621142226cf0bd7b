/// A single-channel coverage mask, used for soft shadows: a shape rasterised to alpha, then blurred.
public struct AlphaMask: Equatable, Sendable {
    public let width: Int
    public let height: Int
    public var values: [Float]

    public init(width: Int, height: Int) {
        self.width = width
        self.height = height
        values = [Float](repeating: 0, count: width * height)
    }

    /// Adds the anti-aliased coverage of a rounded rectangle (pixel coordinates of the mask).
    public mutating func addRoundedRect(_ rect: Rect, radius: Double) {
        let r = max(0, min(radius, min(rect.width, rect.height) / 2))
        let x0 = max(0, rect.x.rounded(.down).pixel - 1), x1 = min(width, rect.maxX.rounded(.up).pixel + 1)
        let y0 = max(0, rect.y.rounded(.down).pixel - 1), y1 = min(height, rect.maxY.rounded(.up).pixel + 1)
        guard x0 < x1, y0 < y1 else { return }
        for y in y0..<y1 {
            for x in x0..<x1 {
                let c = Canvas.coverage(distance: Canvas.roundedRectDistance(x, y, rect, r))
                if c > 0 { values[y * width + x] = min(1, values[y * width + x] + Float(c)) }
            }
        }
    }

    /// Blurs the mask with three passes of a box filter of `radius` pixels (close to a Gaussian).
    public mutating func blur(radius: Int) {
        guard radius > 0, width > 0, height > 0 else { return }
        for _ in 0..<3 {
            boxPass(horizontal: true, radius: radius)
            boxPass(horizontal: false, radius: radius)
        }
    }

    private mutating func boxPass(horizontal: Bool, radius: Int) {
        let lines = horizontal ? height : width
        let length = horizontal ? width : height
        let stride = horizontal ? 1 : width
        let window = Float(2 * radius + 1)
        var line = [Float](repeating: 0, count: length)
        values.withUnsafeMutableBufferPointer { v in
            for l in 0..<lines {
                let base = horizontal ? l * width : l
                for i in 0..<length { line[i] = v[base + i * stride] }
                var sum: Float = 0
                for i in -radius...radius where i >= 0 && i < length { sum += line[i] }
                for i in 0..<length {
                    v[base + i * stride] = sum / window
                    let outgoing = i - radius, incoming = i + radius + 1
                    if outgoing >= 0 { sum -= line[outgoing] }
                    if incoming < length { sum += line[incoming] }
                }
            }
        }
    }
}
