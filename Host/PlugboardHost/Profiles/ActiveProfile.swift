/// The profile a deployment is brought up in, and what chose it.
public struct ActiveProfile: Equatable, Sendable {
  public let declaration: ProfileDeclaration
  public let source: ProfileSource
  /// The manifest's `activeProfile`, which a flag or the environment
  /// overrode (or the same name, when they chose it again).
  public let manifestDefault: String?

  public init(_ declaration: ProfileDeclaration, source: ProfileSource, manifestDefault: String?) {
    self.declaration = declaration
    self.source = source
    self.manifestDefault = manifestDefault
  }

  public var name: String { declaration.name }

  /// `'mock' (from --profile; the manifest's default is 'live')`.
  public var explanation: String {
    var text = "'\(name)' (from \(source.label)"
    if source != .manifest, let manifestDefault, manifestDefault != name {
      text += "; the manifest's default is '\(manifestDefault)'"
    }
    return text + ")"
  }
}
