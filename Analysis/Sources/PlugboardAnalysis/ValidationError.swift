import PlugboardKit

/// Thrown by ``Container/validate(profile:requireApplication:configurations:)`` and
/// ``Assembler/validate(profile:requireApplication:configurations:)`` when the dependency graph has errors:
/// every finding, each as `plugboard check` words it, so a failing unit
/// test prints the same report an operator would read.
///
/// ```swift
/// do {
///   try container.validate()
/// } catch {
///   print(error)  // error: LoginViewModel needs AuthService, which nothing registers …
///   let missing = error.errors.compactMap(\.missingKey)
/// }
/// ```
public struct ValidationError: Error, Sendable, CustomStringConvertible {
  /// Everything the check found, warnings included.
  public let report: ValidationReport

  /// The findings that made the check fail.
  public var errors: [Finding] { report.errors }

  /// The report's text (``ValidationReport/lines``).
  public var description: String { report.description }
}
