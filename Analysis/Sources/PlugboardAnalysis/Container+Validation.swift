import PlugboardKit

extension Container {
  /// Checks this container's dependency graph without resolving anything
  /// or running a factory: the analysis `plugboard check` runs on a
  /// deployment, with the same findings and texts, for an app or a unit
  /// test that loads no plugins.
  ///
  /// It finds required dependencies nothing registers (with the chain
  /// that needs them), dependency cycles, `.container` registrations that
  /// hold `.transient` or `.graph` ones (captive dependencies), keys
  /// registered twice, factories that declare no dependencies, extension
  /// points whose contributions do not match their cardinality, start or
  /// stop hooks on registrations that cannot carry them, and synchronous
  /// dependencies on async registrations; with `requireApplication`, a
  /// missing `Application` (what `plugboard run` resolves first); and, for
  /// each of `configurations` (a plugin's declared settings and the values
  /// it would be given), a value of the wrong type or a required setting
  /// without one, as `plugboard check` reports them.
  /// Like `check`, it sees the dependencies a registration *declares*
  /// (`.dependsOn`, `.optionallyDependsOn`, `autoregister`, forwarding),
  /// not what a closure factory resolves without declaring it.
  ///
  /// ```swift
  /// let report = container.check(profile: "mock")
  /// for finding in report.findings { print(finding.lines.joined(separator: "\n")) }
  ///
  /// let settings = PluginConfiguration(
  ///   plugin: "Networking", settings: [NetworkingSettings.baseURL],
  ///   values: ["baseURL": ConfiguredValue(.number("3"))])
  /// container.check(requireApplication: true, configurations: [settings])
  /// ```
  ///
  /// - Parameter profile: the profile to check in: the registrations its
  ///   `inProfiles` conditions admit take part, as if it were the
  ///   ``activeProfile``, which is left unchanged. `nil` checks in the
  ///   active profile. A profile's choice of named registrations
  ///   (``select(name:for:reason:)``) is the container's own either way.
  ///   Only this container's registrations are nodes; a parent's serve
  ///   suggestions.
  public func check(
    profile: String? = nil, requireApplication: Bool = false, configurations: [PluginConfiguration] = []
  ) -> ValidationReport {
    let profile = profile ?? activeProfile
    let analysis = GraphAnalysis(container: self, profile: profile)
    return ValidationReport(
      profile: profile,
      findings: analysis.findings(requireApplication: requireApplication, configurations: configurations))
  }

  /// Throws a ``ValidationError`` carrying every finding when
  /// ``check(profile:requireApplication:configurations:)`` finds an error,
  /// so a unit test fails with the
  /// report `plugboard check` would print; warnings alone do not throw.
  ///
  /// ```swift
  /// @Test func theGraphIsComplete() throws {
  ///   let assembler = try Assembler([NetworkAssembly(), AuthAssembly()])
  ///   try assembler.validate(profile: "live")
  /// }
  /// ```
  public func validate(
    profile: String? = nil, requireApplication: Bool = false, configurations: [PluginConfiguration] = []
  ) throws(ValidationError) {
    let report = check(
      profile: profile, requireApplication: requireApplication, configurations: configurations)
    guard report.isValid else { throw ValidationError(report: report) }
  }
}
