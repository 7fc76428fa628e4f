import PlugboardKit

/// A test-only plugin in the shape of an assembly ported from Swinject: the
/// factory of `Greeter` resolves a `Clock` without declaring it, and
/// nothing registers one. `check` can only warn that the factory declares
/// nothing; `check --resolve` runs it and finds the `Clock` missing.
@_cdecl("plugboard_entry_v1")
public func plugboardEntry() -> UnsafeRawPointer {
  PluginExport.descriptor(name: "UndeclaredNeed", version: "0.0.1") { [UndeclaredNeedAssembly()] }
}

/// What nothing registers.
protocol Clock: Sendable {}

/// Greets, at the time its clock tells.
final class Greeter: Sendable {
  let clock: any Clock

  init(clock: any Clock) {
    self.clock = clock
  }
}

/// An application that never gets its greeter.
struct GreeterApplication: Application {
  let greeter: Greeter

  func run(arguments: [String]) async throws -> Int32 { 0 }
}

struct UndeclaredNeedAssembly: Assembly {
  func assemble(container: Container) throws {
    container.register(Greeter.self) { resolver in Greeter(clock: try resolver.resolve()) }
    container.register((any Application).self) { resolver in
      GreeterApplication(greeter: try resolver.resolve())
    }
    .dependsOn(Greeter.self)
  }
}
