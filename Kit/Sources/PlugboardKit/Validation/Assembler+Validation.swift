extension Assembler {
  /// Checks the assembled container's dependency graph: see
  /// ``Container/check(profile:)``.
  public func check(profile: String? = nil) -> ValidationReport {
    container.check(profile: profile)
  }

  /// Throws a ``ValidationError`` when the assembled container's graph has
  /// an error: see ``Container/validate(profile:)``.
  ///
  /// ```swift
  /// let assembler = try Assembler([AuthAssembly(), LoginAssembly()])
  /// try assembler.validate(profile: "mock")
  /// ```
  public func validate(profile: String? = nil) throws(ValidationError) {
    try container.validate(profile: profile)
  }
}
