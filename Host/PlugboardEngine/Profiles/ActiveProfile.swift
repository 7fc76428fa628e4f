/// The profile a deployment is brought up in, and what chose it.
package struct ActiveProfile: Equatable, Sendable {
  package let declaration: ProfileDeclaration
  package let source: ProfileSource
  /// The manifest's `activeProfile`, which a flag or the environment
  /// overrode (or the same name, when they chose it again).
  package let manifestDefault: String?

  package init(_ declaration: ProfileDeclaration, source: ProfileSource, manifestDefault: String?) {
    self.declaration = declaration
    self.source = source
    self.manifestDefault = manifestDefault
  }

  package var name: String { declaration.name }

  /// `'mock' (from --profile; the manifest's default is 'live')`.
  package var explanation: String {
    var text = "'\(name)' (from \(source.label)"
    if source != .manifest, let manifestDefault, manifestDefault != name {
      text += "; the manifest's default is '\(manifestDefault)'"
    }
    return text + ")"
  }
}
