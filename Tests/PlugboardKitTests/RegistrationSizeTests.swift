import PlugboardBenchSupport
import Testing

@testable import PlugboardKit

/// What one registration costs in memory (the target: at most 200 bytes a
/// registration at 100,000, measured by `memory_bytes_per_registration`),
/// and that storing it compactly loses nothing it tells.
@Suite struct RegistrationSizeTests {
  protocol Probe: AnyObject {}
  final class Service: Probe {}

  /// The heap block holding `record`, as `malloc` sized it.
  private func allocatedBytes(_ record: RegistrationRecord) -> Int {
    plugboard_bench_block_size(Unmanaged.passUnretained(record).toOpaque())
  }

  /// The record of a plain registration is one small block; it was 360
  /// bytes when every record carried room for metadata, hooks and scoped
  /// instances it seldom has. The bound leaves room for a field or two.
  @Test func aPlainRegistrationIsOneSmallBlock() {
    let container = Container()
    let entry = container.register((any Probe).self, name: "n1") { _ in Service() }
    #expect(allocatedBytes(entry.record) <= 160)
  }

  /// The site survives compact storage: file, line and plugin, including a
  /// plugin named like nothing else and a line past what 16 bits hold.
  @Test func aRecordTellsItsSiteAndPlugin() {
    let container = Container()
    let plain = container.register(Service.self, file: "Probe/Plain.swift", line: 70_000) { _ in
      Service()
    }
    let attributed = container.attributing(to: "RegistrationSizeTests-Plugin") {
      container.register(Service.self, name: "in plugin", file: "Probe/Plugin.swift", line: 3) { _ in
        Service()
      }
    }
    #expect(plain.site == RegistrationSite(fileID: "Probe/Plain.swift", line: 70_000))
    #expect(
      attributed.site
        == RegistrationSite(fileID: "Probe/Plugin.swift", line: 3, plugin: "RegistrationSizeTests-Plugin"))
    #expect(attributed.site.description == "Probe/Plugin.swift:3 in plugin RegistrationSizeTests-Plugin")
  }

  /// Reading what a registration declares makes no side object: `check`
  /// and listings read every registration, and a read that made one would
  /// grow their peak memory by a block per registration.
  @Test func readingARegistrationMakesNoExtras() throws {
    let container = Container()
    let entry = container.register(Service.self) { _ in Service() }
    _ = container.registrations
    _ = container.lifecycleServices
    _ = container.check()
    _ = try container.resolve(Service.self)
    #expect(entry.record.info.dependencies == nil)
    #expect(!entry.record.hasExtras)
  }

  /// A declared dependency is kept in the side object, and read back.
  @Test func aDeclaredDependencyIsKept() {
    let container = Container()
    let entry = container.register(Service.self) { _ in Service() }.dependsOn(Probe.self)
    #expect(entry.record.hasExtras)
    #expect(entry.record.info.dependencies == [ServiceKey(Probe.self)])
  }
}
