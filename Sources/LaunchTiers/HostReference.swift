#if canImport(Glibc)
import Glibc
#endif
import LaunchCore
import LaunchImage
import LaunchPipeline

/// How long this host takes for launchprof's fixed reference workloads, one per kind of cost.
/// Calibrated tiers divide their device's times by these to get this host's factors.
public struct HostReference: Codable, Equatable, Sendable {
    /// Seconds per workload, by kind.
    public var seconds: [PhaseKind: Double]

    public init(seconds: [PhaseKind: Double]) {
        self.seconds = seconds
    }

    /// Measures every reference workload: one untimed warm-up, then the fastest of `repetitions` tries
    /// (the minimum is the estimate least disturbed by other work; about 0.15 s in all on a release build).
    public static func measure(repetitions: Int = 7) throws -> HostReference {
        var seconds: [PhaseKind: Double] = [:]
        let workloads = try ReferenceWorkloads()
        for kind in PhaseKind.allCases {
            var best = Double.infinity
            try workloads.run(kind)
            for _ in 0..<max(1, repetitions) {
                let start = MonotonicClock.nanoseconds()
                try workloads.run(kind)
                best = min(best, LaunchClock.seconds(MonotonicClock.nanoseconds() - start))
            }
            seconds[kind] = best
        }
        return HostReference(seconds: seconds)
    }
}

/// The fixed reference workloads. Changing any of them changes what every calibrated tier means:
/// don't, without recalibrating the built-in table.
struct ReferenceWorkloads {
    private let png: [UInt8]
    private let payload: [UInt8]

    init() throws {
        // A deterministic 256×256 noise image (compresses poorly, so decoding does real work).
        var image = RGBAImage(width: 256, height: 256)
        var state: UInt32 = 2463534242
        for i in stride(from: 0, to: image.pixels.count, by: 4) {
            state ^= state << 13; state ^= state >> 17; state ^= state << 5
            image.pixels[i] = UInt8(truncatingIfNeeded: state)
            image.pixels[i + 1] = UInt8(truncatingIfNeeded: state >> 8)
            image.pixels[i + 2] = UInt8(truncatingIfNeeded: state >> 16)
            image.pixels[i + 3] = 255
        }
        // libpng's defaults, not the app's snapshot settings: the workload must not change with the app.
        png = try PNGEncoder.libpngDefaults.encode(image)
        payload = (0..<(256 * 1024)).map { UInt8(truncatingIfNeeded: $0 &* 2654435761 >> 7) }
    }

    func run(_ kind: PhaseKind) throws {
        switch kind {
        case .cpu:
            // Hashing 256 KiB: integer work with no allocation in the loop.
            _ = SHA256.digest(payload)
        case .io:
            // Write 1 MiB, flush it to the device, drop it from the page cache, read it back.
            let path = "/tmp/launchprof-reference-\(getpid()).bin"
            defer { unlink(path) }
            let chunk = Array(payload[0..<(256 * 1024)])
            try FileIO.writeAtomically(chunk + chunk + chunk + chunk, to: path)
            PageCache.evict([path])
            _ = try FileIO.read(path)
        case .decode:
            _ = try PNGDecoder().decode(png)
        case .draw:
            var canvas = Canvas(width: 256, height: 256, fill: RGBA(0, 0, 0))
            let gradient = LinearGradient(angle: 90, stops: [.init(offset: 0, color: RGBA(200, 120, 40)), .init(offset: 1, color: RGBA(40, 60, 200))])
            for i in 0..<12 {
                let inset = Double(i * 8)
                canvas.fillRoundedRect(Rect(x: inset, y: inset, width: 256 - 2 * inset, height: 256 - 2 * inset),
                                       radius: 12, paint: .linear(gradient), opacity: 0.6)
            }
        }
    }
}
