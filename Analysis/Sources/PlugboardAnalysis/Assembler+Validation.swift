import PlugboardKit

extension Assembler {
  /// Checks the assembled container's dependency graph: see
  /// ``Container/check(profile:requireApplication:configurations:)``.
  public func check(
    profile: String? = nil, requireApplication: Bool = false, configurations: [PluginConfiguration] = []
  ) -> ValidationReport {
    container.check(profile: profile, requireApplication: requireApplication, configurations: configurations)
  }

  /// Throws a ``ValidationError`` when the assembled container's graph has
  /// an error: see ``Container/validate(profile:requireApplication:configurations:)``.
  ///
  /// ```swift
  /// let assembler = try Assembler([AuthAssembly(), LoginAssembly()])
  /// try assembler.validate(profile: "mock")
  /// ```
  public func validate(
    profile: String? = nil, requireApplication: Bool = false, configurations: [PluginConfiguration] = []
  ) throws(ValidationError) {
    try container.validate(
      profile: profile, requireApplication: requireApplication, configurations: configurations)
  }
}
