/// What the built-in app does, decided from its arguments and environment before any work: launch
/// with these options, measuring this way, or exit at once — `--check-tap`'s answer, or a refusal.
/// ``BuiltInApp/main(clock:arguments:)`` acts on it; tests call ``decide(arguments:environment:valgrind:)``.
enum AppStart: Equatable {
    /// Launch the app.
    case launch(BuiltInApp.Options, AppMeasurement)
    /// Exit with `status` after writing `message` (if any) to standard error: 0 when every
    /// `--check-tap` key is the theme's, ``refusedStatus`` with the refusal.
    case exit(status: Int32, message: String?)

    /// The exit status of bad input.
    static let refusedStatus: Int32 = 2

    /// The arguments first (a bad one is refused whatever else is asked), then `--check-tap`, which
    /// reads the manifest and its theme and answers without looking at the environment, then the
    /// environment.
    static func decide(arguments: [String], environment: AppEnvironment, valgrind: ValgrindPresence) -> AppStart {
        do throws(AppRefusal) {
            let options = try BuiltInApp.Options(arguments: arguments)
            if !options.checkTaps.isEmpty {
                if let refusal = TapCheck.refusal(manifestPath: options.manifest, keys: options.checkTaps) {
                    throw AppRefusal(message: refusal)
                }
                return .exit(status: 0, message: nil)
            }
            return .launch(options, try AppMeasurement(environment: environment, valgrind: valgrind))
        } catch {
            return .exit(status: refusedStatus, message: error.message)
        }
    }
}
