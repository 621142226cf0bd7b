import CPNGShim
import LaunchCore
import LaunchImage
import LaunchPipeline
import LaunchManifest

/// Encoding the heavy fixture's launch frame (750×1334) as the snapshot PNG: the app's encoder
/// (``PNGEncoder``'s defaults, through Swift) against libpng called directly from C with the same
/// settings (goal: within 1.1×), and against the settings used before (zlib level 6, every filter,
/// RGBA: libpng's defaults), which it must beat 3× at no more than 1.5× their file size. The three
/// are measured in alternation, sample by sample.
struct SnapshotEncodeBenchmark {
    var samples = 15

    func report() {
        let frame: RGBAImage
        do {
            let pipeline = Pipeline(
                manifest: try ManifestLoader.load(path: "Fixtures/heavy/manifest.json"),
                recorder: PhaseRecorder(clock: .startNow()))
            pipeline.snapshotPath = nil
            try pipeline.launch()
            guard let canvas = pipeline.canvas else { print("encode: the heavy launch drew no frame"); return }
            frame = canvas.image
        } catch {
            print("encode: cannot launch the heavy fixture: \(error)")
            return
        }
        let app = PNGEncoder()
        let before = PNGEncoder(compressionLevel: 6, filters: .all, strategy: .standard)
        var appTimes: [Double] = [], cTimes: [Double] = [], beforeTimes: [Double] = []
        var appBytes = 0, cBytes = 0, beforeBytes = 0
        for _ in 0..<samples {
            appTimes.append(time { appBytes = (try? app.encode(frame))?.count ?? 0 })
            cTimes.append(time { cBytes = Self.encodeInC(frame, app) })
            beforeTimes.append(time { beforeBytes = (try? before.encode(frame))?.count ?? 0 })
        }
        let a = median(appTimes), c = median(cTimes), b = median(beforeTimes)
        print(
            "encode: heavy frame \(frame.width)x\(frame.height), app \(format(a / 1e6)) ms (\(appBytes) bytes), C libpng same settings \(format(c / 1e6)) ms (\(cBytes) bytes), before \(format(b / 1e6)) ms (\(beforeBytes) bytes)"
        )
        let vsC = a / c, speedup = b / a, size = Double(appBytes) / Double(max(1, beforeBytes))
        print("encode: app / C libpng \(format(vsC))x, goal <= 1.10x: \(vsC <= 1.1 ? "met" : "missed")")
        print("encode: speed-up over before \(format(speedup))x, goal >= 3x: \(speedup >= 3 ? "met" : "missed")")
        print("encode: size / before \(format(size))x, goal <= 1.5x: \(size <= 1.5 ? "met" : "missed")")
    }

    /// libpng called directly, with the encoder's settings (the alpha check done in C as well).
    static func encodeInC(_ image: RGBAImage, _ settings: PNGEncoder) -> Int {
        var out: UnsafeMutablePointer<UInt8>? = nil
        var length = 0
        var message = [CChar](repeating: 0, count: 256)
        image.pixels.withUnsafeBufferPointer { buffer in
            var opaque: Int32 = 1
            var i = 3
            while i < buffer.count { if buffer[i] != 255 { opaque = 0; break }; i += 4 }
            _ = lp_png_encode_rgba(
                buffer.baseAddress, UInt32(image.width), UInt32(image.height), Int32(settings.compressionLevel),
                settings.filters.rawValue, settings.strategy.rawValue, opaque, &out, &length, &message, message.count)
        }
        lp_png_free(out)
        return length
    }

    private func time(_ body: () -> Void) -> Double {
        let start = MonotonicClock.nanoseconds()
        body()
        return Double(MonotonicClock.nanoseconds() - start)
    }

    private func median(_ values: [Double]) -> Double { values.sorted()[values.count / 2] }
}
