import PlugboardKit
import Testing

/// `withOverrides`: test doubles scoped to one test, safe when Swift
/// Testing runs the tests of this suite in parallel on one shared container.
@Suite struct OverrideTests {
  /// One container for every test of the suite, as an app's would be.
  static let app: Container = {
    let container = Container()
    container.register(Animal.self) { _ in Cat(name: "Mimi") }
    container.register(Person.self) { r in try PetOwner(pet: r.resolve()) }
    return container
  }()

  @Test(arguments: ["Rex", "Hachi", "Pochi", "Max"])
  func eachTestSeesOnlyItsOwnOverride(name: String) throws {
    try Self.app.withOverrides { (child) throws in
      child.register(Animal.self) { _ in Dog(name: name) }
      #expect(try child.resolve(Person.self).play() == "I'm playing with \(name).")
    }
    #expect(try Self.app.resolve(Animal.self).name == "Mimi")
  }

  @Test func theSharedContainerIsUntouchedWhileOthersOverride() throws {
    #expect(try Self.app.resolve(Person.self).play() == "I'm playing with Mimi.")
    #expect(Self.app.registrations.count == 2)
  }

  @Test func asynchronousBodies() async throws {
    let name = try await Self.app.withOverrides { child in
      child.register(Animal.self) { _ in Dog(name: "Async") }
      return try await Task { try child.resolve(Animal.self).name }.value
    }
    #expect(name == "Async")
  }
}
