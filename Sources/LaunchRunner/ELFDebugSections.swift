#if canImport(Glibc)
import Glibc
#endif
import LaunchCore

/// Whether an executable is a Swift binary with debug information (`.debug_*` and `swift5_*`
/// sections), the kind whose DWARF 5 stops Valgrind 3.19: read from its ELF section headers with
/// bounded reads. C and C++ binaries with DWARF 5 make Valgrind warn (`unhandled dwarf2 abbrev
/// form`) but run, so they keep their own path. Anything that is not a 64-bit little-endian ELF file
/// (a script, a 32-bit binary) has none as far as Valgrind's copy is concerned.
enum ELFDebugSections {
    /// The most section headers read (a linked executable has a few dozen).
    static let sectionLimit = 4096

    /// `true` when `path` is a 64-bit little-endian ELF file with a section whose name starts with
    /// `.debug_` and, with `swift`, one whose name starts with `swift5_` (Swift's metadata).
    static func present(in path: String, swift: Bool = false) -> Bool {
        guard let fd = try? FileIO.openRegularFile(path).fd else { return false }
        defer { close(fd) }
        guard let header = read(fd, at: 0, count: 64), header.count == 64,
            header[0] == 0x7f, header[1] == UInt8(ascii: "E"), header[2] == UInt8(ascii: "L"), header[3] == UInt8(ascii: "F"),
            header[4] == 2, header[5] == 1
        else { return false }
        let sectionsAt = Int(truncatingIfNeeded: integer(header, 0x28, 8))
        let entrySize = Int(integer(header, 0x3a, 2))
        let count = Int(integer(header, 0x3c, 2))
        let namesIndex = Int(integer(header, 0x3e, 2))
        guard entrySize >= 64, count > 0, count <= sectionLimit, namesIndex < count, sectionsAt > 0,
            let table = read(fd, at: sectionsAt, count: entrySize * count), table.count == entrySize * count
        else { return false }
        let names = namesIndex * entrySize
        let namesAt = Int(truncatingIfNeeded: integer(table, names + 0x18, 8))
        let namesSize = Int(truncatingIfNeeded: integer(table, names + 0x20, 8))
        guard namesSize > 0, namesSize <= 1 << 20, let text = read(fd, at: namesAt, count: namesSize) else { return false }
        let offsets: [Int] = (0..<count).map { Int(integer(table, $0 * entrySize, 4)) }
        func has(_ prefix: String) -> Bool {
            let bytes: [UInt8] = Array(prefix.utf8)
            for offset in offsets where offset + bytes.count <= text.count {
                if text[offset..<(offset + bytes.count)].elementsEqual(bytes) { return true }
            }
            return false
        }
        return has(".debug_") && (!swift || has("swift5_"))
    }

    /// A little-endian unsigned integer of `size` bytes at `offset`.
    private static func integer(_ bytes: [UInt8], _ offset: Int, _ size: Int) -> UInt64 {
        var value: UInt64 = 0
        for i in (0..<size).reversed() { value = value << 8 | UInt64(bytes[offset + i]) }
        return value
    }

    /// `count` bytes at `offset` (fewer at the end of the file); `nil` on an error.
    private static func read(_ fd: Int32, at offset: Int, count: Int) -> [UInt8]? {
        guard offset >= 0, count > 0 else { return count == 0 ? [] : nil }
        var bytes = [UInt8](repeating: 0, count: count)
        var done = 0
        while done < count {
            let n = bytes.withUnsafeMutableBytes { pread(fd, $0.baseAddress! + done, count - done, off_t(offset + done)) }
            if n < 0, errno == EINTR { continue }
            guard n >= 0 else { return nil }
            if n == 0 { break }
            done += n
        }
        return Array(bytes[0..<done])
    }
}
