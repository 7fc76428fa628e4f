import PlugboardAnalysis
import PlugboardKit
import Testing

/// `checkByResolving()` resolves what `check` can only see as closures
/// that declare nothing, and reports each failure with its chain.
@Suite struct ResolvingCheckTests {
  final class Service: Sendable {
    init(_ dependency: Dependency) {}
  }
  final class Dependency: Sendable {}
  final class PerScope: Sendable {}
  final class Slow: Sendable {}
  final class Greeting: Sendable {
    init(_ name: String) {}
  }

  @Test func aDependencyAClosureResolvesWithoutDeclaringIsFound() async throws {
    let container = Container()
    container.register(Service.self, file: "App/Service.swift", line: 4) { r in Service(try r.resolve()) }
    // `check` sees a closure that declares nothing: a warning, no error.
    try container.validate()
    let report = await container.checkByResolving()
    #expect(!report.isValid)
    let finding = try #require(report.errors.first)
    #expect(report.errors.count == 1)
    #expect(finding.kind == .resolutionFailed)
    #expect(finding.title.hasPrefix("resolving Service fails: "), "\(finding.title)")
    #expect(finding.chain.first?.display == "Service")
    #expect(finding.chain.last?.display == "Dependency")
    #expect(
      finding.explanation == [
        "Service (registered at App/Service.swift:4) was resolved in a scope of its own, and the resolution failed."
      ])
  }

  @Test func scopedAsyncAndArgumentRegistrationsAreResolvedAsTheyCanBe() async {
    let container = Container()
    container.register(Dependency.self) { _ in Dependency() }
    container.register(Service.self) { r in Service(try r.resolve()) }.inObjectScope(.scoped)
    container.register(PerScope.self) { _ in PerScope() }.inObjectScope(.scoped)
    container.register(Slow.self) { _ in
      await Task.yield()
      return Slow()
    }
    // Nothing can choose its argument: left alone, not reported.
    container.register(Greeting.self) { _, name in Greeting(name) }
    let report = await container.checkByResolving()
    #expect(report.findings.isEmpty, "\(report)")
  }

  @Test func aFactoryThatThrowsIsReported() async throws {
    struct Unavailable: Error {}
    let container = Container()
    container.register(Dependency.self, file: "App/Dependency.swift", line: 9) { _ in throw Unavailable() }
    let report = await container.checkByResolving()
    let finding = try #require(report.errors.first)
    #expect(finding.kind == .resolutionFailed)
    #expect(finding.title.hasPrefix("resolving Dependency fails"), "\(finding.title)")
  }
}
