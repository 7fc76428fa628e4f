/// The command that rebuilds a plugin from clean, for the advice in a
/// message: SwiftPM does not recompile a client when only inlinable code of
/// a module it uses changed, so an incremental `swift build` can leave the
/// plugin as it was, and only a clean build is sure to help.
enum RebuildCommand {
  /// For a library in a SwiftPM build folder (`<package>/.build/…`) whose
  /// package is still there, `cd <package> && swift package clean && swift
  /// build` (with `-c release` for a release build); otherwise the same
  /// steps, to be run in the plugin's package.
  static func forLibrary(at file: String) -> String {
    let steps = "swift package clean && swift build" + (file.contains("/release/") ? " -c release" : "")
    guard let range = file.range(of: "/.build/") else { return "in the plugin's package, \(steps)" }
    let package = String(file[..<range.lowerBound])
    guard !package.isEmpty, FileKind.of(package + "/Package.swift") == .regular else {
      return "in the plugin's package, \(steps)"
    }
    return "cd \(shellQuoted(package)) && \(steps)"
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
