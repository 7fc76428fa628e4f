import PlugboardABI

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Builds the C descriptor a plugin returns from `plugboard_entry_v1`.
///
/// A complete plugin entry point:
///
/// ```swift
/// @_cdecl("plugboard_entry_v1")
/// public func plugboardEntry() -> UnsafeRawPointer {
///   PluginExport.descriptor(name: "Auth", version: "1.0.0") { [AuthAssembly()] }
/// }
/// ```
public enum PluginExport {
  /// A descriptor carrying the plugin's name and version, the PlugboardKit
  /// version and Swift compiler version *this plugin* was compiled with,
  /// and a way to make its assemblies. The host reads the plain-C fields
  /// first and calls `assemblies` only if everything matches.
  ///
  /// The descriptor lives for the rest of the process, as the plugin image
  /// does (Swift images are never unloaded).
  ///
  /// `requires` names the plugins this one needs, with the versions it
  /// accepts (see ``PluginRequirement``): the host assembles them first and
  /// refuses this plugin when one is missing, in another version, or part
  /// of a cycle. `version` should then be a ``SemanticVersion`` too.
  @_alwaysEmitIntoClient
  public static func descriptor(
    name: String, version: String, requires: [PluginRequirement] = [],
    assemblies: @escaping () -> [any Assembly]
  ) -> UnsafeRawPointer {
    makeDescriptor(
      name: name, version: version, kitVersion: PlugboardBuild.kitVersion,
      swiftVersion: PlugboardBuild.compilerVersion, requires: requires, assemblies: assemblies)
  }

  /// The non-inlined half of ``descriptor(name:version:requires:assemblies:)``;
  /// call that instead, so the versions recorded are the plugin's own.
  public static func makeDescriptor(
    name: String, version: String, kitVersion: String, swiftVersion: String,
    requires: [PluginRequirement] = [], assemblies: @escaping () -> [any Assembly]
  ) -> UnsafeRawPointer {
    makeDescriptor(
      name: name, version: version, kitVersion: kitVersion, swiftVersion: swiftVersion,
      bundle: { PluginBundle(assemblies: assemblies(), requirements: requires) })
  }

  /// The descriptor whose `make_bundle` returns what `bundle` makes.
  static func makeDescriptor(
    name: String, version: String, kitVersion: String, swiftVersion: String,
    bundle: @escaping () -> PluginBundle
  ) -> UnsafeRawPointer {
    let descriptor = UnsafeMutablePointer<plugboard_plugin_v1>.allocate(capacity: 1)
    descriptor.initialize(
      to: plugboard_plugin_v1(
        abi_version: 1,
        struct_size: UInt32(MemoryLayout<plugboard_plugin_v1>.size),
        name: strdup(name),
        version: strdup(version),
        kit_version: strdup(kitVersion),
        swift_version: strdup(swiftVersion),
        context: Unmanaged.passRetained(AssemblyFactory(bundle)).toOpaque(),
        make_bundle: { descriptor in
          guard let context = descriptor?.pointee.context else { return nil }
          let factory = Unmanaged<AssemblyFactory>.fromOpaque(context).takeUnretainedValue()
          let bundle = factory.make()
          return Unmanaged<AnyObject>.passRetained(bundle).toOpaque()
        }))
    return UnsafeRawPointer(descriptor)
  }
}

final class AssemblyFactory {
  let make: () -> PluginBundle
  init(_ make: @escaping () -> PluginBundle) { self.make = make }
}
