import Testing

@testable import PlugboardKit

/// Optional, Lazy, Provider and contribution requests of async
/// registrations: answered on the awaited path, refused on the synchronous
/// one with a text naming the awaited form.
@Suite struct AsyncWrapperTests {
  protocol Check: Sendable { var title: String { get } }
  struct Named: Check { let title: String }
  final class Database: Sendable {}

  private func container() -> Container {
    let container = Container()
    container.register(Database.self, file: "Storage/StorageAssembly.swift", line: 3) { _ in
      await Task.yield()
      return Database()
    }.inObjectScope(.container)
    return container
  }

  @Test func anAwaitedOptionalRequestAwaitsTheAsyncRegistration() async throws {
    let container = container()
    let database = try await container.asyncResolver.resolve(Database?.self)
    #expect(database != nil)
    #expect(try await container.asyncResolver.resolve(Named?.self) == nil)
  }

  @Test func anAwaitedResolveAllAwaitsAsyncContributionsInTheirOrder() async throws {
    let container = container()
    container.contribute((any Check).self, order: 10) { _ in Named(title: "late") }
    container.contribute((any Check).self, name: "db", order: 5) { r async throws in
      _ = try await r.resolve(Database.self)
      return Named(title: "database")
    }
    container.contribute((any Check).self) { _ in Named(title: "first") }
    let resolver = container.asyncResolver
    #expect(try await resolver.resolveAll((any Check).self).map(\.title) == ["first", "database", "late"])
    #expect(try await resolver.resolveAllNamed((any Check).self).mapValues(\.title) == ["db": "database"])
    let wrapped = try await resolver.resolve(Contributions<any Check>.self)
    #expect(wrapped.map(\.title) == ["first", "database", "late"])
    #expect(wrapped.names == [nil, "db", nil])
  }

  @Test func aSynchronousResolveAllOfAnAsyncContributionNamesTheAwaitedOne() throws {
    let container = container()
    container.contribute((any Check).self, file: "Health/HealthAssembly.swift", line: 9) { r async throws in
      Named(title: "async")
    }
    let error = try #require(throws: ResolutionError.self) { try container.resolveAll((any Check).self) }
    guard case .asyncRegistration = error.kind else {
      Issue.record("kind \(error.kind)")
      return
    }
    #expect(
      error.action
        == "Resolve Check (registered at Health/HealthAssembly.swift:9) from async code with try await "
        + "resolver.resolveAll((any Check).self) (or a Contributions of it resolved with try await), where "
        + "resolver is the AsyncResolver an async factory receives or container.asyncResolver; a synchronous "
        + "factory that needs it must become async too.")
  }

  @Test func asyncLazyAndProviderAwaitTheAsyncRegistration() async throws {
    let container = container()
    container.register(Named.self) { _ in
      await Task.yield()
      return Named(title: "fresh")
    }
    let lazy = try await container.asyncResolver.resolve(AsyncLazy<Database>.self)
    let first = try await lazy.instance
    #expect(first === (try await lazy.instance))
    let provider = try container.resolve(AsyncProvider<Named>.self)
    #expect(try await provider.instance.title == "fresh")
  }

  @Test func aSynchronousLazyOfAnAsyncRegistrationNamesAsyncLazy() throws {
    let container = container()
    let lazy = try container.resolve(Lazy<Database>.self)
    let error = try #require(throws: ResolutionError.self) { try lazy.instance }
    #expect(
      error.action
        == "Resolve Database (registered at Storage/StorageAssembly.swift:3) from async code with an "
        + "AsyncLazy<Database> in place of its Lazy (try await resolver.resolve(AsyncLazy<Database>.self), "
        + "read with try await .instance), where resolver is the AsyncResolver an async factory receives "
        + "or container.asyncResolver; a synchronous factory that needs it must become async too.")
    let provider = try container.resolve(Provider<Database>.self)
    let again = try #require(throws: ResolutionError.self) { try provider.instance }
    #expect(again.action.contains("an AsyncProvider<Database> in place of its Provider"))
  }
}
