import PlugboardKit

/// What ``Container/check(profile:requireApplication:configurations:)`` found in a container's dependency
/// graph: every finding, errors first, each as `plugboard check` words it.
///
/// ```swift
/// let report = container.check(profile: "mock")
/// #expect(report.errors.isEmpty, "\(report)")
/// for warning in report.warnings { print(warning.title) }
/// ```
public struct ValidationReport: Sendable, CustomStringConvertible {
  /// The profile whose `inProfiles` registrations took part; nil for none.
  public let profile: String?
  /// Every finding, errors first, each group in the order found.
  public let findings: [Finding]

  init(profile: String?, findings: [Finding]) {
    self.profile = profile
    self.findings = findings.filter { $0.severity == .error } + findings.filter { $0.severity == .warning }
  }

  /// The findings that make the graph fail:
  /// ``Container/validate(profile:requireApplication:configurations:)``
  /// throws when there is one.
  public var errors: [Finding] { findings.filter { $0.severity == .error } }
  /// The findings worth fixing that do not stop resolution: a captive
  /// dependency, a duplicate registration, an undeclared dependency.
  public var warnings: [Finding] { findings.filter { $0.severity == .warning } }
  /// No errors (warnings allowed).
  public var isValid: Bool { !findings.contains { $0.severity == .error } }

  /// Each finding in `plugboard check`'s words (``Finding/lines``), a
  /// blank line between them, then a line with the counts:
  /// `check: 1 error, 2 warnings; the graph is broken in profile 'mock'`.
  public var lines: [String] {
    var lines: [String] = []
    for finding in findings {
      lines += finding.lines
      lines.append("")
    }
    let profileText = profile.map { " in profile '\($0)'" } ?? ""
    let errors = errors.count
    let warnings = findings.count - errors
    let verdict = (errors == 0 ? "the graph is healthy" : "the graph is broken") + profileText
    lines.append("check: \(Self.count(errors, "error")), \(Self.count(warnings, "warning")); \(verdict)")
    return lines
  }

  /// ``lines``, one after another.
  public var description: String { lines.joined(separator: "\n") }

  private static func count(_ number: Int, _ noun: String) -> String {
    "\(number) \(noun)\(number == 1 ? "" : "s")"
  }
}
