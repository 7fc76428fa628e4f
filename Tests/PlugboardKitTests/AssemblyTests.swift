import PlugboardKit
import Synchronization
import Testing

@Suite struct AssemblyTests {
  final class Log: Sendable {
    let entries = Mutex<[String]>([])
    func add(_ entry: String) { entries.withLock { $0.append(entry) } }
    var all: [String] { entries.withLock { $0 } }
  }

  struct Recording: Assembly {
    let name: String
    var expects: [String] = ["a", "b"]
    let log: Log
    func assemble(container: Container) {
      log.add("assemble \(name)")
      container.register(String.self, name: name) { _ in name }
    }
    func loaded(resolver: Resolver) throws {
      // Every assembly has registered by now, including later ones.
      let others = try expects.map { try resolver.resolve(String.self, name: $0) }
      log.add("loaded \(name) sees \(others.joined(separator: ","))")
    }
  }

  @Test func assembliesRegisterInOrderThenAllLoadedRun() throws {
    let log = Log()
    _ = try Assembler([Recording(name: "a", log: log), Recording(name: "b", log: log)])
    #expect(log.all == ["assemble a", "assemble b", "loaded a sees a,b", "loaded b sees a,b"])
  }

  @Test func aThrowingAssemblyIsNamed() throws {
    let error = try #require(throws: AssemblyError.self) { try Assembler([BrokenAssembly()]) }
    #expect(
      error.description
        == "PlugboardKitTests.BrokenAssembly.assemble(container:) threw: API_KEY is not set")
    #expect(error.stage == .assemble)
  }

  @Test func applyAddsAssembliesLater() throws {
    let log = Log()
    let assembler = try Assembler([Recording(name: "a", expects: ["a"], log: log)], container: Container())
    #expect(throws: AssemblyError.self) { try assembler.apply(assembly: Recording(name: "c", log: log)) }
    // "c" registered even though its loaded(resolver:) failed looking for "b".
    #expect(try assembler.resolver.resolve(String.self, name: "c") == "c")
  }

  @Test func registrationsRecordTheirSiteAndPlugin() throws {
    let container = Container()
    container.attributing(to: "Auth") {
      container.register(Animal.self, file: "Auth/AuthAssembly.swift", line: 12) { _ in Cat(name: "x") }
    }
    let registeredAt = #line + 1
    container.register(Person.self) { r in try PetOwner(pet: r.resolve()) }
    let infos = container.registrations
    #expect(
      infos.map(\.site.description) == [
        "Auth/AuthAssembly.swift:12 in plugin Auth", "PlugboardKitTests/AssemblyTests.swift:\(registeredAt)",
      ])
  }

  @Test func duplicateKeysLaterWinsAndIsRecorded() throws {
    let container = Container()
    container.register(Animal.self, file: "A.swift", line: 1) { _ in Cat(name: "first") }
    container.register(Animal.self, file: "B.swift", line: 2) { _ in Cat(name: "second") }
    #expect(try container.resolve(Animal.self).name == "second")
    #expect(container.registrations.count == 1)
    #expect(
      container.duplicateRegistrations.map(\.description) == [
        "PlugboardKitTests.Animal is registered twice: B.swift:2 replaces A.swift:1 "
          + "(the later registration wins)"
      ])
  }
}

struct BrokenAssembly: Assembly {
  func assemble(container: Container) throws {
    throw Failure(reason: "API_KEY is not set")
  }
}
