import Foundation
import PlugboardAnalysis
import PlugboardKit
import Testing

@testable import PlugboardCLI
@testable import PlugboardEngine

/// `plugboard check` on edges resolved after construction (`Lazy`,
/// `Provider`, `initCompleted`) and on forwarded types, from a container
/// assembled in the test process: the analysis reads only declarations.
@Suite struct DeferredEdgeCheckTests {
  final class Front {}
  final class Back {}
  protocol Starter {}
  final class Engine: Starter {}
  struct App: Application {
    func run(arguments: [String]) async throws -> Int32 { 0 }
  }

  /// The findings for `container`, as `plugboard check` reports them.
  private func findings(_ assemble: (Container) -> Void) throws -> [Finding] {
    try InProcessDeployment.findings { container in
      container.register((any Application).self) { _ in App() }.dependsOn(Front.self)
      assemble(container)
    }
  }

  @Test func aCycleNotBrokenIsAnError() throws {
    let found = try findings { container in
      container.register(Front.self) { r in
        _ = try r.resolve(Back.self) as Back; return Front()
      }
      .dependsOn(Back.self)
      container.register(Back.self) { r in
        _ = try r.resolve(Front.self) as Front; return Back()
      }
      .dependsOn(Front.self)
    }
    #expect(found.map(\.title) == ["dependency cycle: Front → Back → Front"])
  }

  @Test func aCycleBrokenByLazyOrProviderIsNotAnError() throws {
    for edge in [Lazy<Front>.self, Provider<Front>.self] as [any Any.Type] {
      let found = try findings { container in
        container.register(Front.self) { _ in Front() }.dependsOn(Back.self)
        container.register(Back.self) { _ in Back() }.dependsOn(edge)
      }
      #expect(found.map(\.title) == [])
    }
  }

  @Test func aCycleBrokenByInitCompletedIsNotAnError() throws {
    let found = try findings { container in
      container.register(Front.self) { _ in Front() }.dependsOn(Back.self)
      container.register(Back.self) { _ in Back() }.dependsOn()
        .initCompleted(resolving: Front.self) { r, _ in _ = try r.resolve(Front.self) as Front }
    }
    #expect(found.map(\.title) == [])
  }

  @Test func aLazyTargetMustStillBeRegistered() throws {
    let line = #line + 2
    let found = try findings { container in
      container.register(Front.self) { _ in Front() }.dependsOn(Lazy<Back>.self)
    }
    let finding = try #require(found.first)
    #expect(found.count == 1)
    #expect(finding.title == "Front needs Back, which nothing registers")
    #expect(
      finding.explanation.first
        == "PlugboardHostTests.DeferredEdgeCheckTests.Back is a lazy dependency (Lazy) declared at "
        + "PlugboardHostTests/DeferredEdgeCheckTests.swift:\(line) in plugin Sample, and no loaded plugin "
        + "registers it.")
  }

  @Test func aCycleThroughAForwardedTypeNamesTheForwarding() throws {
    let line = #line + 2
    let found = try findings { container in
      container.register(Front.self) { _ in Front() }.dependsOn(Starter.self)
      container.register(Engine.self) { _ in Engine() }.dependsOn(Front.self).implements(Starter.self)
    }
    let finding = try #require(found.first)
    #expect(finding.title == "dependency cycle: Front → Starter → Engine → Front")
    let site = "PlugboardHostTests/DeferredEdgeCheckTests.swift"
    #expect(
      finding.explanation == [
        "Each of these services needs the next, so resolving any of them never finishes:",
        "  Front → Starter, declared at \(site):\(line) in plugin Sample",
        "  Starter → Engine, forwarded at \(site):\(line + 1) in plugin Sample",
        "  Engine → Front, declared at \(site):\(line + 1) in plugin Sample",
        "It is reached from the Application: Application → Front.",
      ])
  }

  @Test func listShowsForwardedTypes() throws {
    let container = Container()
    let line = #line + 1
    container.register(Engine.self) { _ in Engine() }.implements(Starter.self)
    let registrations = container.registrations.map(DeploymentListing.Registration.init)
    #expect(registrations.map(\.forwardsTo) == [nil, "PlugboardHostTests.DeferredEdgeCheckTests.Engine"])
    let listing = DeploymentListing(
      manifest: "/virtual/plugins.json", host: DeploymentListing.Host(.current), healthy: true,
      plugins: [
        DeploymentListing.Plugin(
          name: "Sample", version: "1.0.0", file: "/virtual/libSample.so", status: .loaded, stage: nil,
          registrations: registrations)
      ], problems: [])
    let type = "PlugboardHostTests.DeferredEdgeCheckTests"
    let site = "PlugboardHostTests/DeferredEdgeCheckTests.swift:\(line)"
    let padding = String(repeating: " ", count: 66)
    #expect(
      ListingTable.text(listing).split(separator: "\n").suffix(2) == [
        // A forwarded type is in its target's scope.
        "  \(type).Engine\(padding)-     graph  \(site)",
        "  \(type).Starter → \(type).Engine (forwarded)  -     graph  \(site)",
      ])
  }
}
