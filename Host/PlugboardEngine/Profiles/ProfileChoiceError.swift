/// A profile asked for by `--profile` or `PLUGBOARD_PROFILE` that the
/// manifest does not declare. It is a mistake in how plugboard was
/// invoked, not in the deployment, so it ends with exit status 2; nothing
/// falls back to another profile.
public struct ProfileChoiceError: Error, Equatable, Sendable, CustomStringConvertible {
  public let source: ProfileSource
  public let requested: String
  /// The complete sentence after the source.
  public let message: String
  /// The flag a ``ProfileSource/option`` was given by, named before the
  /// message; nil when the profile came from a program embedding the
  /// engine, whose command line is its own (it may have no such flag).
  package var optionName: String? = ProfileChooser.optionName

  /// `--profile moc: no profile 'moc' is declared in /srv/plugins.json; did you mean 'mock'?`;
  /// the message alone for a profile an embedding program asked for.
  public var description: String {
    let shown = Terminal.sanitize(requested)
    return switch source {
    case .option: optionName.map { "\($0) \(shown): \(message)" } ?? message
    case .environment, .manifest: "\(ProfileChooser.environmentVariable)=\(shown): \(message)"
    }
  }
}
