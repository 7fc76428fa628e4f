/// How much a deployment command says on standard error besides its
/// errors: `--quiet` only errors, `--verbose` every stage with its time
/// (see ``StageFeedback``). Errors are always printed.
package enum Verbosity: UInt8, Sendable {
  case quiet
  case normal
  case verbose

  /// `--verbose`: each plugin's stages with timings, and the log level
  /// lowered to debug.
  package static let verboseFlag = "--verbose"
  /// `--quiet`: errors only, and the log level raised to error.
  package static let quietFlag = "--quiet"
}
