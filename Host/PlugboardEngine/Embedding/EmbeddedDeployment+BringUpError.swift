extension EmbeddedDeployment {
  /// Why a deployment could not be brought up at all. Nothing of a plugin
  /// ran.
  public enum BringUpError: Error, CustomStringConvertible {
    /// The manifest is missing, unreadable, not JSON or invalid; it
    /// carries every problem found.
    case manifest(ManifestError)
    /// The profile asked for (or `PLUGBOARD_PROFILE`) is not declared
    /// in the manifest; the message suggests the closest declared one.
    case profile(ProfileChoiceError)

    /// The lines to print, each beginning with `prefix`.
    public func lines(prefix: String = "plugboard: ") -> [String] {
      switch self {
      case .manifest(let error): error.problems.map { "\(prefix)\($0)" }
      case .profile(let error): ["\(prefix)\(error)"]
      }
    }

    public var description: String { lines().joined(separator: "\n") }
  }
}
