import LaunchprofTestSupport

/// The fixture files the manifest tests read, in the repository.
enum Paths {
    static let packageRoot = BuiltProducts.packageRoot
    static let defaultManifest = packageRoot + "/Fixtures/default/manifest.json"
    static let defaultTheme = packageRoot + "/Fixtures/default/theme.xml"
}
