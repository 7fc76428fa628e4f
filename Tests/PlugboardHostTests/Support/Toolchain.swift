import Foundation

/// The programs tests start, found on `PATH` the way a shell would. A fresh
/// machine has only the Swift toolchain and binutils (no `cc`, no `gcc`), so
/// C is compiled with the toolchain's own `clang`.
enum Toolchain {
  /// The folders of `PATH`, in order.
  static var searchPath: [String] {
    (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":").map(String.init)
  }

  /// The first executable named `name` on `PATH`, or nil.
  static func find(_ name: String) -> String? {
    searchPath.lazy.map { $0 + "/" + name }.first { FileManager.default.isExecutableFile(atPath: $0) }
  }

  /// The C compiler for the fixtures: the `clang` beside the real `swiftc`
  /// (the one its symbolic links lead to), else `clang`, else `cc`, on
  /// `PATH`; nil when there is none.
  static let cCompiler: String? = {
    if let swiftc = find("swiftc") {
      let toolchain = URL(fileURLWithPath: swiftc).resolvingSymlinksInPath().deletingLastPathComponent()
      let clang = toolchain.appendingPathComponent("clang").path
      if FileManager.default.isExecutableFile(atPath: clang) { return clang }
    }
    return find("clang") ?? find("cc")
  }()
}
