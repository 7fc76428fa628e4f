import PlugboardKit

/// The entry point the host looks up; its name carries the plugin ABI version.
@_cdecl("plugboard_entry_v1")
public func plugboardEntry() -> UnsafeRawPointer {
  PluginExport.descriptor(name: "Timing", version: "1.0.0") { [TimingAssembly()] }
}
