import PlugboardKit

#if canImport(Glibc)
  import Glibc
#endif

/// A test-only plugin whose `assemble` waits, when `PLUGBOARD_TEST_GATE`
/// names a FIFO, until the test opens the FIFO for writing and closes it:
/// a slow stage whose length the test decides, without a sleep.
@_cdecl("plugboard_entry_v1")
public func plugboardEntry() -> UnsafeRawPointer {
  PluginExport.descriptor(name: "GatedAssembly", version: "0.0.1") { [GatedAssembly()] }
}

struct GatedAssembly: Assembly {
  func assemble(container: Container) throws {
    if let gate = getenv("PLUGBOARD_TEST_GATE") {
      let descriptor = open(gate, O_RDONLY)
      if descriptor >= 0 {
        var byte: UInt8 = 0
        while read(descriptor, &byte, 1) > 0 {}
        close(descriptor)
      }
    }
    container.register(String.self, name: "gated") { _ in "opened" }.dependsOn()
  }
}
