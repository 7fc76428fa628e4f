import Testing

@testable import PlugboardKit

/// Async factories taking runtime arguments (`{ r, user async throws in … }`),
/// resolved with `try await resolver.resolve(_:arguments:)`.
@Suite struct AsyncArgumentTests {
  final class Database: Sendable {}
  final class Session: Sendable {
    let user: String
    let attempts: Int
    let verbose: Bool
    let database: Database
    init(user: String, attempts: Int = 0, verbose: Bool = false, database: Database) {
      self.user = user
      self.attempts = attempts
      self.verbose = verbose
      self.database = database
    }
  }

  private func container() -> Container {
    let container = Container()
    container.register(Database.self) { _ in
      await Task.yield()
      return Database()
    }.inObjectScope(.container)
    return container
  }

  @Test func oneTwoAndThreeArgumentsReachTheAsyncFactory() async throws {
    let container = container()
    container.register(Session.self) { r, user async throws in
      Session(user: user, database: try await r.resolve())
    }
    container.register(Session.self) { r, user, attempts async throws in
      Session(user: user, attempts: attempts, database: try await r.resolve())
    }
    container.register(Session.self) {
      (r: AsyncResolver, user: String, attempts: Int, verbose: Bool) async throws in
      Session(user: user, attempts: attempts, verbose: verbose, database: try await r.resolve())
    }
    let resolver = container.asyncResolver
    let one = try await resolver.resolve(Session.self, arguments: "ada")
    let two = try await resolver.resolve(Session.self, arguments: "bob", 2)
    let three: Session = try await resolver.resolve(arguments: "cy", 3, true)
    #expect((one.user, one.attempts, one.verbose) == ("ada", 0, false))
    #expect((two.user, two.attempts, two.verbose) == ("bob", 2, false))
    #expect((three.user, three.attempts, three.verbose) == ("cy", 3, true))
    #expect(one.database === three.database)
  }

  @Test func aSynchronousResolveWithArgumentsSaysToAwait() async throws {
    let container = container()
    container.register(Session.self, file: "App/SessionAssembly.swift", line: 7) { r, user async throws in
      Session(user: user, database: try await r.resolve())
    }
    let error = try #require(throws: ResolutionError.self) {
      try container.resolve(Session.self, arguments: "ada")
    }
    guard case .asyncRegistration = error.kind else {
      Issue.record("kind \(error.kind)")
      return
    }
    #expect(error.summary.hasSuffix("is registered with an async factory, and was resolved synchronously."))
  }

  @Test func awaitedArgumentsReachSynchronousRegistrationsAndMismatchesAreReported() async throws {
    let container = container()
    container.register(Session.self) { r, user, attempts in
      Session(user: user, attempts: attempts, database: Database())
    }
    let session = try await container.asyncResolver.resolve(Session.self, arguments: "ada", 4)
    #expect(session.attempts == 4)
    let error = await #expect(throws: ResolutionError.self) {
      try await container.asyncResolver.resolve(Session.self, arguments: 4, "ada")
    }
    guard case .argumentsMismatch = error?.kind else {
      Issue.record("kind \(String(describing: error?.kind))")
      return
    }
  }

  @Test func anAsyncContainerRegistrationWithArgumentsKeepsItsFirstInstance() async throws {
    let container = container()
    container.register(Session.self) { r, user async throws in
      Session(user: user, database: try await r.resolve())
    }.inObjectScope(.container)
    let first = try await container.asyncResolver.resolve(Session.self, arguments: "ada")
    let second = try await container.asyncResolver.resolve(Session.self, arguments: "bob")
    #expect(first === second)
    #expect(second.user == "ada")
    #expect(container.registrations.contains { $0.key.service.type == Session.self && $0.isAsync })
  }
}
