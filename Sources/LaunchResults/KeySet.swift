import LaunchCore

/// The keys of one kind of typed object, matched against key tokens without allocating: a small
/// open-addressed table by length and first and last byte, then a byte-wise comparison.
struct KeySet: Sendable {
    let names: [StaticString]
    /// Per slot: the key's index + 1 (0: empty).
    private let slots: [Int]
    /// The keys' bytes, end to end, and where each starts.
    private let bytes: [UInt8]
    private let starts: [Int]

    private static let slotCount = 64

    init(_ names: [StaticString]) {
        self.names = names
        var bytes: [UInt8] = [], starts: [Int] = []
        var slots = [Int](repeating: 0, count: Self.slotCount)
        for (i, name) in names.enumerated() {
            let key = UnsafeBufferPointer(start: name.utf8Start, count: name.utf8CodeUnitCount)
            starts.append(bytes.count)
            bytes += key
            var slot = Self.hash(name.utf8Start, name.utf8CodeUnitCount)
            while slots[slot] != 0 { slot = (slot + 1) & (Self.slotCount - 1) }
            slots[slot] = i + 1
        }
        starts.append(bytes.count)
        self.slots = slots
        self.bytes = bytes
        self.starts = starts
    }

    @inline(__always) private static func hash(_ p: UnsafePointer<UInt8>, _ count: Int) -> Int {
        guard count > 0 else { return 0 }
        return (count &* 7 &+ Int(p[0]) &+ Int(p[count - 1]) &* 3) & (slotCount - 1)
    }

    /// The index of the key `token` spells (without escapes) in `base`, or -1.
    func index(of token: JSONScanner.StringToken, in base: UnsafePointer<UInt8>) -> Int {
        token.hasEscapes ? -1 : index(of: base + token.start, count: token.count)
    }

    /// The index of the key spelled by the `count` bytes at `start`, or -1.
    func index(of start: UnsafePointer<UInt8>, count: Int) -> Int {
        slots.withUnsafeBufferPointer { slots in
            bytes.withUnsafeBufferPointer { bytes in
                starts.withUnsafeBufferPointer { starts in
                    var slot = Self.hash(start, count)
                    while true {
                        let entry = slots[slot]
                        if entry == 0 { return -1 }
                        let i = entry - 1
                        let from = starts[i]
                        if starts[i + 1] - from == count {
                            var k = 0
                            while k < count && bytes[from + k] == start[k] { k += 1 }
                            if k == count { return i }
                        }
                        slot = (slot + 1) & (Self.slotCount - 1)
                    }
                }
            }
        }
    }
}
