/// The one loop of the project's text escapers (JSON, XML, Markdown, CSV, the protocol's names,
/// plain one-line text, GitHub's workflow commands, the dashboard's script): scalar by scalar, so that
/// a CR LF pair (one Swift character, equal to neither CR nor LF) is escaped too. Each escaper is
/// then its table: what it replaces a scalar with.
public enum ScalarEscaping {
    /// `text` between `prefix` and `suffix`, each scalar that `replacement` names replaced by it,
    /// every other kept as it is.
    @inlinable
    public static func escape(
        _ text: some StringProtocol, prefix: String = "", suffix: String = "", _ replacement: (Unicode.Scalar) -> String?
    ) -> String {
        var out = prefix
        for scalar in text.unicodeScalars {
            if let replaced = replacement(scalar) { out += replaced } else { out.unicodeScalars.append(scalar) }
        }
        return out + suffix
    }
}
