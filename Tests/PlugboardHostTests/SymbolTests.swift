import Foundation
import PlugboardTestSupport
import Testing

/// Exactly one copy of PlugboardKit (and of the shared contracts) exists in
/// a process: no plugin, and not the host, defines their Swift symbols.
@Suite(.blocking) struct SymbolTests {
  /// The dynamic symbols `library` defines, from `nm -D --defined-only`.
  private func definedSymbols(_ library: String) throws -> [String] {
    let result = try Subprocess.run("/usr/bin/env", ["nm", "-D", "--defined-only", library])
    #expect(result.status == 0, "nm failed: \(result.stderr)")
    return result.stdout.split(separator: "\n").compactMap { $0.split(separator: " ").last.map(String.init) }
  }

  @Test func pluginsAndHostDoNotCarryTheirOwnPlugboardKit() throws {
    let analytics = try ThirdPartyBuild.analytics.get()
    // The test binary itself too: it links PlugboardKit as the host does.
    let testBinary = try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")
    let binaries =
      BuildProducts.samplePlugins.map(BuildProducts.library) + [
        BuildProducts.library("ThrowingPlugin"), analytics, BuildProducts.host, testBinary,
      ]
    for binary in binaries {
      let own = try definedSymbols(binary).filter {
        $0.hasPrefix("$s12PlugboardKit") || $0.hasPrefix("$s12AppContracts")
      }
      #expect(own.isEmpty, "\(binary) defines \(own.prefix(5))")
    }
  }

  /// The check above would pass vacuously if the prefixes were wrong.
  @Test func theSharedLibrariesDefineThoseSymbols() throws {
    #expect(
      try definedSymbols(BuildProducts.library("PlugboardKit")).contains {
        $0.hasPrefix("$s12PlugboardKit9ContainerC")
      })
    #expect(
      try definedSymbols(BuildProducts.library("AppContracts")).contains { $0.hasPrefix("$s12AppContracts") })
  }
}
