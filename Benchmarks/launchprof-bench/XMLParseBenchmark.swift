import CXMLShim
import LaunchCore
import LaunchPipeline

/// Parse time of the heavy fixture's theme and data XML through ``SafeXMLReader`` (libxml2's SAX2
/// parser plus the element tree), against libxml2 alone on the same bytes and the same safe options
/// (the shim with callbacks that do nothing), measured in alternation. Goal (issue 16): ≤ 1.5×.
struct XMLParseBenchmark {
    static let goal = 1.5

    func report() {
        for file in ["Fixtures/heavy/theme.xml", "Fixtures/heavy/conversions.xml"] {
            do {
                try report(file)
            } catch {
                print("xml: \(file): \(error)")
            }
        }
    }

    private func report(_ path: String) throws {
        let bytes = try FileIO.read(path, limit: path.hasSuffix("theme.xml") ? .theme : .data)
        let samples = 201
        var tree: [Double] = [], sax: [Double] = []
        for _ in 0..<samples {
            tree.append(measure(samples: 1, operations: 1) { _ = try? SafeXMLReader.parse(bytes, file: path) })
            sax.append(measure(samples: 1, operations: 1) { Self.saxOnly(bytes) })
        }
        let t = tree.sorted()[samples / 2], s = sax.sorted()[samples / 2]
        let ratio = t / s
        print(
            "xml: \(path) (\(bytes.count) bytes)  parse + tree \(format(t / 1e6)) ms, libxml2 SAX alone \(format(s / 1e6)) ms"
                + "  (ratio \(format(ratio))x, goal <= \(format(Self.goal))x: \(ratio <= Self.goal ? "met" : "missed"))")
    }

    /// libxml2's SAX2 parse with the reader's options and callbacks that do nothing.
    private static func saxOnly(_ bytes: [UInt8]) {
        var callbacks = lp_xml_callbacks(start: { _, _, _, _, _, _ in }, end: { _ in }, text: { _, _, _ in })
        var error = lp_xml_error()
        let status = bytes.withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) { chars in
                lp_xml_parse(chars.baseAddress, Int32(chars.count), Int32(SafeXMLReader.maximumDepth), &callbacks, nil, &error)
            }
        }
        if status != 0 { print("xml: libxml2 refused the file (code \(error.code))") }
    }
}
