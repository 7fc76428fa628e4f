import PlugboardKit

/// What the command line (or a program that embeds the host) chose for a
/// whole command, handed as a value, beside its ``ChildSession``, to what
/// brings a deployment up: how much it says, the level of the default
/// logger, and whether the process hides itself once it holds a secret.
///
/// ```swift
/// let settings = HostSettings(verbosity: .quiet, logLevel: .debug)
/// let deployment = Deployment.bringUp(manifest, loader: PluginLoader(progress: session), settings: settings)
/// ```
package struct HostSettings: Sendable, Equatable {
  /// `--quiet`, `--verbose` or neither: how much a deployment command
  /// says on standard error besides its errors.
  package var verbosity: Verbosity
  /// `--log-level`, else `PLUGBOARD_LOG_LEVEL`; nil when neither is given
  /// (see ``LogLevelChoice``).
  package var logLevel: LogLevel?
  /// Whether a process that was given a secret setting's value is made
  /// non-dumpable (`PR_SET_DUMPABLE`): no core file holds the secret, and
  /// no other process of the same user can attach to it or read its
  /// memory. The `plugboard` command sets it; a program embedding the host
  /// decides for its own process. Crash reports keep the crash line but,
  /// unless plugboard runs as root, lose the Swift runtime's backtrace,
  /// which reads the crashed process's memory.
  package var hidesProcessHoldingSecrets: Bool

  package init(
    verbosity: Verbosity = .normal, logLevel: LogLevel? = nil, hidesProcessHoldingSecrets: Bool = false
  ) {
    self.verbosity = verbosity
    self.logLevel = logLevel
    self.hidesProcessHoldingSecrets = hidesProcessHoldingSecrets
  }

  /// The level of the default logger of a deployment of `manifest`.
  func logLevel(for manifest: Manifest) -> LogLevel {
    LogLevelChoice.level(override: logLevel, manifest: manifest.logLevel, verbosity: verbosity)
  }
}
