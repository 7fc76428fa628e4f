/// A version as semantic versioning writes it, `MAJOR.MINOR.PATCH`, for
/// the ranges in a plugin's ``PluginRequirement``s. Ordered by major, then
/// minor, then patch.
///
/// A string literal that is not three non-negative integers joined by dots
/// (`"1.2"`, `"v1.0.0"`) makes an invalid version: ``isValid`` is false,
/// ``description`` keeps the text written, and the host refuses a
/// requirement that uses it, naming the plugin.
public struct SemanticVersion: Sendable, Hashable, Comparable, CustomStringConvertible,
  ExpressibleByStringLiteral
{
  public let major: Int
  public let minor: Int
  public let patch: Int
  /// The text, when it was not a valid version; nil for a valid one.
  private let invalidText: String?

  public init(_ major: Int, _ minor: Int, _ patch: Int) {
    self.major = major
    self.minor = minor
    self.patch = patch
    invalidText = nil
  }

  /// The version `text` spells (`"1.4.0"`), or nil when it is not
  /// `MAJOR.MINOR.PATCH` with each part a non-negative integer of at most
  /// nine digits. A suffix after `-` or `+` (a pre-release or build) is
  /// ignored.
  public init?(parsing text: String) {
    let core = text.split(separator: "+", maxSplits: 1, omittingEmptySubsequences: false)[0]
      .split(separator: "-", maxSplits: 1, omittingEmptySubsequences: false)[0]
    let parts = core.split(separator: ".", omittingEmptySubsequences: false)
    guard parts.count == 3 else { return nil }
    var numbers: [Int] = []
    for part in parts {
      guard !part.isEmpty, part.count <= 9, part.allSatisfy({ $0.isASCII && $0.isNumber }),
        let number = Int(part)
      else { return nil }
      numbers.append(number)
    }
    self.init(numbers[0], numbers[1], numbers[2])
  }

  public init(stringLiteral text: String) {
    if let version = SemanticVersion(parsing: text) {
      self = version
    } else {
      major = 0
      minor = 0
      patch = 0
      invalidText = text
    }
  }

  /// False for a literal that does not spell a version.
  public var isValid: Bool { invalidText == nil }

  public var description: String { invalidText ?? "\(major).\(minor).\(patch)" }

  public static func < (lhs: SemanticVersion, rhs: SemanticVersion) -> Bool {
    (lhs.major, lhs.minor, lhs.patch) < (rhs.major, rhs.minor, rhs.patch)
  }
}
