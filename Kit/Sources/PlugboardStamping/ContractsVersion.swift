/// The release a shared module declares, which opts it into versioned
/// compatibility: a plugin compiled against version 1.2.0 of the module
/// keeps loading with any later 1.x of it, as plugins do across
/// PlugboardKit's minor releases, instead of needing exactly the
/// declarations it was compiled against.
///
/// A module declares it with a directive on the first line of one of its
/// Swift files, as `Package.swift` declares its tools version:
///
/// ```swift
/// // plugboard-contracts-version: 1.2.0
/// ```
///
/// The promise is the module author's, and holds only when the module is
/// built with library evolution (`-enable-library-evolution`), so that a
/// later release may add types, methods with defaults and enum cases, and
/// insert stored properties, without breaking code compiled against an
/// earlier one. Docs/plugin-reference.md says what may change within a major version.
public enum ContractsVersion {
  /// The directive's text up to the version.
  public static let directive = "// plugboard-contracts-version:"

  /// Why a module's directive cannot be used, naming the file.
  public struct Problem: Error, Sendable, Equatable, CustomStringConvertible {
    public let description: String
  }

  /// The version the files declare, `nil` when none has the directive on
  /// its first line.
  ///
  /// - Returns: a problem when the version is not a semantic version
  ///   (`MAJOR.MINOR.PATCH`, optionally `-PRERELEASE`), or when two files
  ///   declare one.
  public static func declared(in files: [InterfaceStamp.SourceFile]) -> Result<String?, Problem> {
    var found: (version: String, path: String)?
    for file in files.sorted(by: { $0.path.utf8.lexicographicallyPrecedes($1.path.utf8) })
    where file.path.hasSuffix(".swift") {
      let firstLine = file.text.prefix { $0 != "\n" && $0 != "\r" }
      guard firstLine.hasPrefix(directive) else { continue }
      let version = firstLine.dropFirst(directive.count).trimmingSpaces()
      guard isSemantic(version) else {
        return .failure(
          Problem(
            description: "\(file.path): '\(version)' is not a semantic version; write "
              + "\(directive) MAJOR.MINOR.PATCH, such as \(directive) 1.0.0"))
      }
      if let earlier = found {
        return .failure(
          Problem(
            description: "\(file.path) and \(earlier.path) both declare the module's version; "
              + "keep one \(directive) line"))
      }
      found = (version, file.path)
    }
    return .success(found?.version)
  }

  /// Whether `text` is `MAJOR.MINOR.PATCH` with an optional `-PRERELEASE`
  /// of letters, digits, dots and hyphens, at most 64 characters.
  public static func isSemantic(_ text: String) -> Bool {
    guard text.utf8.count <= 64 else { return false }
    let (core, prerelease) =
      text.firstIndex(of: "-").map { (text[..<$0], text[text.index(after: $0)...]) }
      ?? (text[...], nil)
    let numbers = core.split(separator: ".", omittingEmptySubsequences: false)
    guard numbers.count == 3,
      numbers.allSatisfy({ !$0.isEmpty && $0.allSatisfy(\.isASCIIDigit) && ($0 == "0" || $0.first != "0") })
    else { return false }
    guard let prerelease else { return true }
    return !prerelease.isEmpty
      && prerelease.allSatisfy { $0.isASCIIDigit || $0.isASCIILetter || $0 == "." || $0 == "-" }
  }
}

extension Character {
  fileprivate var isASCIIDigit: Bool { isASCII && isNumber }
  fileprivate var isASCIILetter: Bool { isASCII && isLetter }
}

extension Substring {
  fileprivate func trimmingSpaces() -> String {
    String(drop { $0 == " " || $0 == "\t" }.reversed().drop { $0 == " " || $0 == "\t" }.reversed())
  }
}
