import PlugboardKit

/// The command that rebuilds a plugin from clean, for the advice in a
/// message: SwiftPM does not recompile a client when only inlinable code of
/// a module it uses changed, so an incremental `swift build` can leave the
/// plugin as it was, and only a clean build is sure to help.
enum RebuildCommand {
  /// For a library in a SwiftPM build folder (`<package>/.build/…`) whose
  /// package is still there, `cd <package> && swift package clean && swift
  /// build` (with `-c release` for a release build); otherwise the same
  /// steps, to be run in the plugin's package.
  ///
  /// A library outside a build folder was shipped, and what ships is a
  /// release build (Docs/shipping.md): a debug build would need the
  /// toolchain's runtime, so the steps build for release.
  ///
  /// `kitRelease`, for a refusal by PlugboardKit version, is the release
  /// the plugin must be rebuilt against: when the package resolved another
  /// PlugboardKit by version, no clean build changes that, so the steps
  /// first say to require that release and update the package's pin.
  static func forLibrary(at file: String) -> String { forLibrary(at: file, kitRelease: nil) }

  /// ``forLibrary(at:)``, for a refusal by PlugboardKit version when
  /// `kitRelease` is given.
  static func forLibrary(at file: String, kitRelease: String?) -> String {
    let inBuildFolder = file.range(of: "/.build/")
    let debug = inBuildFolder != nil && !file.contains("/release/")
    let build = "swift package clean && swift build" + (debug ? "" : " -c release")
    guard let range = inBuildFolder, case let package = String(file[..<range.lowerBound]), !package.isEmpty,
      FileKind.of(package + "/Package.swift") == .regular
    else { return "in the plugin's package, \(build)" }
    let steps = "cd \(shellQuoted(package)) && \(build)"
    // Parsed, so that only a version reaches the message.
    guard let kitRelease,
      let resolved = ResolvedKitPin.version(inPackage: package).flatMap(SemanticVersion.init(parsing:)),
      resolved.description != kitRelease
    else { return steps }
    return "its package resolved PlugboardKit \(resolved), which a clean build keeps: "
      + "require PlugboardKit exact: \"\(kitRelease)\" in \(package)/Package.swift, then "
      + "cd \(shellQuoted(package)) && swift package update PlugboardKit && \(build)"
  }

  /// `text` as one shell word: unchanged when it is made of characters no
  /// shell treats specially, else in single quotes.
  static func shellQuoted(_ text: String) -> String {
    let plain = text.unicodeScalars.allSatisfy { scalar in
      (scalar >= "a" && scalar <= "z") || (scalar >= "A" && scalar <= "Z") || (scalar >= "0" && scalar <= "9")
        || "/._-+,:@".unicodeScalars.contains(scalar)
    }
    guard !plain else { return text }
    return "'" + text.split(separator: "'", omittingEmptySubsequences: false).joined(separator: #"'\''"#)
      + "'"
  }
}
