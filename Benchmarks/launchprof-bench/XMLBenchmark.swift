import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import LaunchCore
import LaunchPipeline

/// The app's XML through libxml2's SAX2 parser (``SafeXMLReader``, tree built) against Foundation's
/// `XMLParser` with an empty delegate (no tree) on the same bytes, alternated sample by sample.
func benchXML() throws {
    for (label, path) in [("heavy theme", "Fixtures/heavy/theme.xml"), ("conversions.xml", "Fixtures/heavy/conversions.xml")] {
        let bytes = try FileIO.read(path)
        let data = Data(bytes)
        final class Empty: NSObject, XMLParserDelegate {}
        let empty = Empty()
        var ours: [Double] = [], foundation: [Double] = []
        for _ in 0..<51 {
            ours.append(measure(samples: 1, operations: 1) { _ = try? SafeXMLReader.parse(bytes, file: path) })
            foundation.append(measure(samples: 1, operations: 1) {
                let parser = XMLParser(data: data)
                parser.delegate = empty
                _ = parser.parse()
            })
        }
        let o = ours.sorted()[25] / 1e6, f = foundation.sorted()[25] / 1e6
        print("xml: \(label) (\(bytes.count) bytes): libxml2 SAX2 + tree \(format(o)) ms, Foundation XMLParser (no tree) \(format(f)) ms (\(format(f / o))x)")
    }
}
