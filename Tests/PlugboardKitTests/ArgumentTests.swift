import PlugboardKit
import Testing

@Suite struct ArgumentTests {
  @Test func argumentsOfAnyNumberAndTypeAreMatchedByType() throws {
    let container = Container()
    container.register(Animal.self) { _, name in Cat(name: name) }
    container.register(Animal.self) { _, name, age in Cat(name: name, age: age) }
    container.register(Animal.self) { (_, name: String, age: Int, loud: Bool) in
      Cat(name: loud ? name.uppercased() : name, age: age)
    }

    #expect(try container.resolve(Animal.self, argument: "Mimi").name == "Mimi")
    let aged = try container.resolve(Animal.self, arguments: "Mimi", 3)
    #expect((aged as? Cat)?.age == 3)
    #expect(try container.resolve(Animal.self, arguments: "Mimi", 3, true).name == "MIMI")
  }

  @Test func namedRegistrationsWithArguments() throws {
    let container = Container()
    container.register(Animal.self, name: "dog") { _, name in Dog(name: name) }
    let dog = try container.resolve(Animal.self, name: "dog", arguments: "Hachi")
    #expect(dog is Dog)
  }

  @Test func wrongArgumentTypesAreADiagnosticNotNil() throws {
    let container = Container()
    container.register(Animal.self, file: "Pets/PetAssembly.swift", line: 7) { _, name, age in
      Cat(name: name, age: age)
    }
    let error = try #require(throws: ResolutionError.self) {
      try container.resolve(Animal.self, arguments: 3, "Mimi")
    }
    #expect(
      error.description == """
        error: cannot resolve PlugboardKitTests.Animal with arguments (Swift.Int, Swift.String)

        What went wrong:
          PlugboardKitTests.Animal is registered with arguments (String, Int), but was resolved with (Int, String).

        Chain:
          Animal (Int, String)  (registered at Pets/PetAssembly.swift:7  ✗ arguments do not match)

        Did you mean:
          - PlugboardKitTests.Animal with arguments (Swift.String, Swift.Int) (registered at Pets/PetAssembly.swift:7)

        Action:
          Pass the arguments the registration expects, in order: (String, Int).
        """)
  }

  @Test func resolvingWithoutArgumentsWhenTheyAreRequiredIsAMismatch() throws {
    let container = Container()
    container.register(Animal.self) { _, name in Cat(name: name) }
    let error = try #require(throws: ResolutionError.self) { try container.resolve(Animal.self) }
    guard case .argumentsMismatch(let passed, let registered) = error.kind else {
      Issue.record("expected argumentsMismatch, got \(error.kind)")
      return
    }
    #expect(passed.isEmpty)
    #expect(registered.map { $0.map(\.shortName) } == [["String"]])
    // The optional form does not hide it either: the service is registered.
    #expect(throws: ResolutionError.self) { try container.resolveIfRegistered(Animal.self) }
  }

  @Test func argumentsReachNestedFactoriesOnlyWhenPassed() throws {
    let container = Container()
    container.register(Animal.self) { _, name in Cat(name: name) }
    container.register(Person.self) { (r, petName: String) in
      try PetOwner(pet: r.resolve(Animal.self, argument: petName))
    }
    let owner = try container.resolve(Person.self, argument: "Tama")
    #expect(owner.play() == "I'm playing with Tama.")
  }

  @Test func registrationsWithArgumentsMayRecurse() throws {
    // A tree built level by level resolves the same registration with
    // other arguments; that is recursion, not a cycle.
    final class Node {
      let child: Node?
      init(child: Node?) { self.child = child }
      var depth: Int { 1 + (child?.depth ?? 0) }
    }
    let container = Container()
    container.register(Node.self) { r, levels in
      Node(child: levels > 1 ? try r.resolve(Node.self, argument: levels - 1) : nil)
    }
    #expect(try container.resolve(Node.self, argument: 50).depth == 50)
  }
}
