// A plugin that builds PlugboardKit's sources into itself instead of linking
// the PlugboardKit product: compiled by the host tests (OwnKitBuild) with
// `swiftc`, against a module `PlugboardKit` made from Kit/Sources and linked
// statically. Its descriptor passes every version check (same compiler, same
// Kit sources), but its PluginBundle is its own copy's type, not the host's.
import PlugboardKit

@_cdecl("plugboard_entry_v1")
public func plugboardEntry() -> UnsafeRawPointer {
  PluginExport.descriptor(name: "OwnKit", version: "0.0.1") { [OwnKitAssembly()] }
}

struct OwnKitAssembly: Assembly {
  func assemble(container: Container) throws {
    container.register(String.self) { _ in "registered by a private PlugboardKit" }.dependsOn()
  }
}
