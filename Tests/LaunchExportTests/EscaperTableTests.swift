import Testing

@testable import LaunchExport

/// The export formats' escapers, each a table over ``ScalarEscaping``: CR LF pairs escaped scalar by scalar.
@Suite struct EscaperTableTests {
    @Test func csvQuotesOnlyWhatNeedsIt() {
        #expect(CSVExporter.quote("plain") == "plain")
        #expect(CSVExporter.quote("say \"hi\", then\r\ngo") == "\"say \"\"hi\"\", then\r\ngo\"")
    }

    @Test func gitHubCommandsEscapeMessagesAndProperties() {
        let annotations = GitHubAnnotations()
        #expect(annotations.escapeData("100% done\r\nnext") == "100%25 done%0D%0Anext")
        #expect(annotations.escapeProperty("a: b, 5%\n") == "a%3A b%2C 5%25%0A")
    }

    @Test func markdownStaysInertOnOneLine() {
        #expect(MarkdownText.escape("a|b *c* <d> &\r\n") == "a\\|b \\*c\\* &lt;d&gt; &amp;\\r\\n")
    }
}
