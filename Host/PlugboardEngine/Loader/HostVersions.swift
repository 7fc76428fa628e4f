import PlugboardKit

/// The versions of this host: its own release, and what a plugin must
/// match (the compiler, PlugboardKit and the plugin ABI it was built with).
package struct HostVersions: Equatable, Sendable {
  /// plugboard's own release.
  package static let plugboard = "0.1.0"

  /// The line `plugboard --version` prints:
  /// `plugboard 0.1.0 (PlugboardKit 1.0.0+3596…, plugin ABI 1, Swift 6.3.1)`.
  package static var line: String {
    let current = Self.current
    return
      "plugboard \(plugboard) (PlugboardKit \(current.kit), plugin ABI \(current.abi), Swift \(current.compiler))"
  }

  /// The Swift compiler version, such as "6.3.1". Swift has no stable ABI on
  /// Linux, so a plugin must come from the same compiler.
  package var compiler: String
  /// The PlugboardKit version the host was compiled against.
  package var kit: String
  /// The plugin ABI the host speaks (the N of `plugboard_entry_vN`).
  package var abi: UInt32

  package init(compiler: String, kit: String, abi: UInt32) {
    self.compiler = compiler
    self.kit = kit
    self.abi = abi
  }

  /// This binary's own versions, baked in at its compile time.
  package static var current: HostVersions {
    HostVersions(
      compiler: PlugboardBuild.compilerVersion, kit: PlugboardBuild.loadedKitVersion,
      abi: PlugboardBuild.abiVersion)
  }
}
