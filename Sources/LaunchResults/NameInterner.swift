#if canImport(Glibc)
import Glibc
#endif
import LaunchCore

/// Phase names interned by their bytes: one `String` per distinct name, and names that are equal as
/// Swift strings (canonically equivalent Unicode) share one number, as they share a path in
/// ``PhaseTable/init(_:)``.
struct NameInterner {
    private(set) var strings: [String] = []
    private var byString: [String: Int32] = [:]
    // Open addressing over the raw bytes: (hash, offset, length, id) slots into `arena`.
    private var arena: [UInt8] = []
    private var slots: [Slot] = Array(repeating: Slot(), count: 1024)
    private var used = 0

    private struct Slot {
        var hash: UInt64 = 0
        var offset: Int32 = 0
        var count: Int32 = -1
        var id: Int32 = -1
    }

    mutating func intern(_ token: JSONScanner.StringToken, scanner: JSONScanner, scratch: inout [UInt8]) -> Int32 {
        if token.hasEscapes {
            let bytes = scanner.decoded(token, into: &scratch)
            return bytes.withUnsafeBufferPointer { intern(bytes: $0) }
        }
        return intern(bytes: UnsafeBufferPointer(start: scanner.input.base + token.start, count: token.count))
    }

    mutating func intern(bytes: UnsafeBufferPointer<UInt8>) -> Int32 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in bytes { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
        var i = Int(truncatingIfNeeded: hash) & (slots.count - 1)
        while slots[i].count >= 0 {
            let slot = slots[i]
            if slot.hash == hash && Int(slot.count) == bytes.count {
                let same = arena.withUnsafeBufferPointer { arena in
                    bytes.count == 0 || memcmp(arena.baseAddress! + Int(slot.offset), bytes.baseAddress!, bytes.count) == 0
                }
                if same { return slot.id }
            }
            i = (i + 1) & (slots.count - 1)
        }
        let text = String(decoding: bytes, as: UTF8.self)
        let id: Int32
        if let existing = byString[text] {
            id = existing
        } else {
            id = Int32(strings.count)
            strings.append(text)
            byString[text] = id
        }
        slots[i] = Slot(hash: hash, offset: Int32(arena.count), count: Int32(bytes.count), id: id)
        arena.append(contentsOf: bytes)
        used += 1
        if used * 2 > slots.count { grow() }
        return id
    }

    private mutating func grow() {
        let old = slots
        slots = Array(repeating: Slot(), count: old.count * 2)
        for slot in old where slot.count >= 0 {
            var i = Int(truncatingIfNeeded: slot.hash) & (slots.count - 1)
            while slots[i].count >= 0 { i = (i + 1) & (slots.count - 1) }
            slots[i] = slot
        }
    }
}
