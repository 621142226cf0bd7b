import LaunchChangePoints
import LaunchCore
import LaunchDashboard
import LaunchExport
import LaunchFlameGraphs
import LaunchFunctions
import LaunchHistory
import LaunchManifest
import LaunchResults
import LaunchRunner
import LaunchSampling
import LaunchStats
import LaunchTiers
import LaunchTraces

/// The libraries' errors, one enum per module: a command lets them through as they are, and the
/// CLI's edge (``Launchprof/runMain()``) prints each as an input error, `launchprof: error: …` with
/// exit code 2, by its own ``CustomStringConvertible/description``. Only where the CLI adds which
/// file or option an error is about does it wrap it (``InputError/about(subject:_:)``).
protocol LibraryError: Error, CustomStringConvertible {}

extension CoreError: LibraryError {}
extension ManifestError: LibraryError {}
extension RunnerError: LibraryError {}
extension TraceError: LibraryError {}
extension TierError: LibraryError {}
extension BudgetError: LibraryError {}
extension ResultError: LibraryError {}
extension ExportError: LibraryError {}
extension HistoryError: LibraryError {}
extension ChangePointError: LibraryError {}
extension FlameGraphError: LibraryError {}
extension FunctionError: LibraryError {}
extension SamplingError: LibraryError {}
extension DashboardError: LibraryError {}
