import PlugboardKit
import Synchronization

/// A test-only plugin that uses PlugboardKit the way plugins do, needing
/// nothing else: every kind of registration, resolution through the
/// container and through wrappers, and switches over Kit's enums, each
/// printing what it saw. Compiled once against this checkout's Kit, it is
/// run by a host whose Kit is a later release (KitEvolutionTests), where a
/// wrong layout or a renumbered enum case prints a wrong line or crashes.
@_cdecl("plugboard_entry_v1")
public func plugboardEntry() -> UnsafeRawPointer {
  PluginExport.descriptor(name: "KitClient", version: "1.0.0", settings: [KitClientSettings.greeting]) {
    configuration in
    [KitClientAssembly(settingsSeen: try KitClientSettings.read(configuration))]
  }
}

enum KitClientSettings {
  static let greeting = Setting<String>("greeting", default: "hello")
  /// Never declared: reading it is a `notDeclared` error, the last case of
  /// its enum, so a case inserted before it in a later Kit renumbers it.
  static let undeclared = Setting<Int>("undeclared")

  static func read(_ configuration: PluginConfiguration) throws -> [String] {
    var seen = ["greeting \(try configuration[greeting])"]
    do {
      _ = try configuration[undeclared]
      seen.append("undeclared read")
    } catch {
      switch error.reason {
      case .missing: seen.append("undeclared missing")
      case .wrongType: seen.append("undeclared wrongType")
      case .notDeclared: seen.append("undeclared notDeclared")
      @unknown default: seen.append("undeclared unknown")
      }
    }
    return seen
  }
}

final class Counter: Sendable {
  let serial: Int
  init(serial: Int) { self.serial = serial }
}

/// Counts what the factories made, so the output shows which scopes shared.
final class Made: Sendable {
  private let count = Atomic<Int>(0)
  func next() -> Int { count.add(1, ordering: .relaxed).newValue }
}

struct Pet: Sendable {
  let name: String
  let age: Int
}

struct Missing {}

struct Failing: Error, CustomStringConvertible {
  var description: String { "failing on purpose" }
}

struct KitClientAssembly: Assembly {
  let settingsSeen: [String]

  func assemble(container: Container) throws {
    let made = Made()
    container.register(Counter.self, name: "transient") { _ in Counter(serial: made.next()) }
    container.register(Counter.self, name: "container") { _ in Counter(serial: made.next()) }
      .inObjectScope(.container)
    container.register(Counter.self, name: "graph") { _ in Counter(serial: made.next()) }
      .inObjectScope(.graph)
    container.register(String.self, name: "pair") { r in
      let first = try r.resolve(Counter.self, name: "graph")
      let second = try r.resolve(Counter.self, name: "graph")
      return first === second ? "graph shared within a resolution" : "graph not shared"
    }
    container.register(Pet.self) { _, name, age in Pet(name: name, age: age) }
    container.register(Int.self, name: "failing") { _ in throw Failing() }
    let seen = settingsSeen
    container.register((any Application).self) { r in
      KitClientApplication(container: r, settingsSeen: seen)
    }
  }
}

struct KitClientApplication: Application {
  let container: Container
  let settingsSeen: [String]

  func run(arguments: [String]) async throws -> Int32 {
    var lines = settingsSeen
    let transient = try (1...2).map { _ in try container.resolve(Counter.self, name: "transient") }
    lines.append("transient distinct \(transient[0] !== transient[1])")
    let shared = try (1...2).map { _ in try container.resolve(Counter.self, name: "container") }
    lines.append("container shared \(shared[0] === shared[1])")
    lines.append(try container.resolve(String.self, name: "pair"))
    let pet = try container.resolve(Pet.self, arguments: "Mimi", 3)
    lines.append("arguments \(pet.name) \(pet.age)")
    let lazy = try container.resolve(Lazy<Counter>.self, name: "container")
    lines.append("lazy is the shared one \(try lazy.instance === shared[0])")
    lines.append("missing " + kind(of: { _ = try container.resolve(Missing.self) }))
    lines.append("failing " + kind(of: { _ = try container.resolve(Int.self, name: "failing") }))
    lines.append("mismatched " + kind(of: { _ = try container.resolve(Pet.self, arguments: 3, "Mimi") }))
    for line in lines { print("KitClient: \(line)") }
    return 0
  }

  private func kind(of body: () throws -> Void) -> String {
    do {
      try body()
      return "resolved"
    } catch let error as ResolutionError {
      switch error.kind {
      case .notRegistered: return "notRegistered \(error.key.service.shortName)"
      case .cycle: return "cycle"
      case .factoryFailed(let underlying): return "factoryFailed \(underlying)"
      case .argumentsMismatch(let passed, _): return "argumentsMismatch \(passed.map(\.shortName))"
      case .tooDeep: return "tooDeep"
      case .stackExhausted: return "stackExhausted"
      case .asyncRegistration: return "asyncRegistration"
      case .outsideScope: return "outsideScope"
      case .mainActorIsolated: return "mainActorIsolated"
      @unknown default: return "unknown"
      }
    } catch {
      return "other \(error)"
    }
  }
}
