import PlugboardKit
import Testing

// Swinject's `Resolver` as a protocol, for fakes of what code under test
// resolves; here `Resolving`, since factories keep the concrete container.

extension SwinjectParityTests {
  /// Answers every request with a dog, as a test's `ResolverFake`.
  final class ResolverFake: Resolving {
    var requests: [String] = []

    func resolve<Service>(_ serviceType: Service.Type, name: String?) throws -> Service {
      requests.append("\(serviceType)")
      return try #require(Dog(name: name ?? "Fake") as? Service)
    }

    func resolve<Service, First, each Rest>(
      _ serviceType: Service.Type, name: String?, arguments first: First, _ rest: repeat each Rest
    ) throws -> Service {
      requests.append("\(serviceType)(\(first))")
      return try #require(Dog(name: "\(first)") as? Service)
    }
  }

  /// Code under test that takes a resolver.
  static func greet(using resolver: any Resolving) throws -> String {
    let pet = try resolver.resolve((any Animal).self, name: nil)
    let guest = try resolver.resolve(Dog.self, name: nil, arguments: "Bo")
    return "\(pet.name) and \(guest.name)"
  }

  @Test func aFakeResolverStandsInForTheContainer() throws {
    let fake = ResolverFake()
    #expect(try Self.greet(using: fake) == "Fake and Bo")
    #expect(fake.requests == ["Animal", "Dog(Bo)"])

    let container = Container()
    container.register((any Animal).self) { _ in Cat(name: "Mimi") }
    container.register(Dog.self) { _, name in Dog(name: name) }
    #expect(try Self.greet(using: container) == "Mimi and Bo")
  }
}
