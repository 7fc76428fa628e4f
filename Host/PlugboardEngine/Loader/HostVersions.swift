import PlugboardKit

/// What a plugin must match: the versions this host was built with.
package struct HostVersions: Equatable, Sendable {
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
