/// Names no client may garble, with what the launcher must read back for each (also for names the
/// clients cut: at most 4000 bytes once escaped, at a character boundary, never inside an escape).
enum HostileNames {
    static let cases: [(name: String, expected: String)] = [
        ("new\nline", "new\nline"), ("back\\slash", "back\\slash"), ("tab\there", "tab\there"),
        ("carriage\rreturn", "carriage\rreturn"), ("crlf\r\n", "crlf\r\n"), ("\\n literally", "\\n literally"),
        ("trailing backslash\\", "trailing backslash\\"), ("  spaces  ", "  spaces  "), ("#not a comment", "#not a comment"),
        ("caf\u{E9} \u{2192} \u{1F680}", "caf\u{E9} \u{2192} \u{1F680}"), ("", "(unnamed)"),
        (String(repeating: "a", count: 5000), String(repeating: "a", count: 4000)),
        (String(repeating: "\u{E9}", count: 2500), String(repeating: "\u{E9}", count: 2000)),
        (String(repeating: "\u{1F680}", count: 1250), String(repeating: "\u{1F680}", count: 1000)),
        (String(repeating: "\\", count: 5000), String(repeating: "\\", count: 2000)),
        (String(repeating: "x\n", count: 2500), String(repeating: "x\n", count: 1333) + "x"),
        ("y" + String(repeating: "\\", count: 4999), "y" + String(repeating: "\\", count: 1999))
    ]
}

/// LAUNCHPROF_FD values every client must take as "off" without a crash: not decimal digits, out of
/// range, or a descriptor that is never open (the largest there is).
enum UnusableDescriptors {
    static let values: [String?] = [nil, "", "abc", "-1", "+3", " 3", "3 ", "3x", "\u{663}", "99999999999", "2147483648", "2147483647"]
}
