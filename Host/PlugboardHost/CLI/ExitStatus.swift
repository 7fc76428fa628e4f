/// How `plugboard` ends. Documented in `Docs/plugins.md`; scripts rely on it.
public enum ExitStatus: Int32, Sendable {
  /// The deployment is healthy (and, for `run`, the application succeeded).
  case healthy = 0
  /// Problems were found in the deployment and reported on stderr.
  case problems = 1
  /// The command line was wrong; nothing was attempted.
  case misuse = 2
}
