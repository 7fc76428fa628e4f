import PlugboardKit

/// A test-only plugin whose assembly traps (a Swift runtime error, SIGILL
/// on Linux) instead of throwing: the host cannot catch it in-process.
@_cdecl("plugboard_entry_v1")
public func plugboardEntry() -> UnsafeRawPointer {
  PluginExport.descriptor(name: "TrappingAssembly", version: "0.0.1") { [TrappingAssembly()] }
}

/// Gives up the way careless plugin code does, with `fatalError`.
struct TrappingAssembly: Assembly {
  func assemble(container: Container) throws {
    // Deliberate: the fault corpus needs a plugin that traps while assembling.
    fatalError("TrappingAssembly cannot assemble: configuration missing")
  }
}
