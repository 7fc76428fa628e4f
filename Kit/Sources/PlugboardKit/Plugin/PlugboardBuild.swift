/// The versions baked into whatever binary calls these functions.
///
/// Both are `@_alwaysEmitIntoClient`: their bodies are compiled into the
/// client (a plugin, or the host), so a plugin carries its own answer
/// rather than reading the shared library's at run time. The `#if compiler`
/// cascade is resolved when PlugboardKit's module is compiled, which is by
/// the same compiler that compiles the client: a Swift module file can only
/// be imported by the compiler that wrote it.
public enum PlugboardBuild {
  /// The PlugboardKit release this client was compiled against, a
  /// semantic version whose promise Kit/ABI.md states: a plugin compiled
  /// against `1.2.0` runs under a host with any later `1.x` (Kit is built
  /// with library evolution), and is refused by one with `1.1.x` (it may
  /// call what that release lacks) or with another major version.
  @_alwaysEmitIntoClient
  public static var kitRelease: String { "1.0.0" }

  /// The PlugboardKit version this client was compiled against: the
  /// release, then as semantic versioning's build metadata the fingerprint
  /// of Kit's sources, `1.0.0+1f2e…`. The host decides by the release
  /// alone; the fingerprint tells builds of one release apart in reports.
  @_alwaysEmitIntoClient
  public static var kitVersion: String { "\(kitRelease)+\(sourceFingerprint)" }

  /// The version of the PlugboardKit library loaded in this process: what
  /// a plugin's ``kitVersion`` is compared with, since the plugin's code
  /// runs against this library. Not inlined, so it is always the library's
  /// own answer, even in a client compiled against an older release.
  public static var loadedKitVersion: String { kitVersion }

  /// The plugin ABI version this client speaks (`plugboard_entry_v1`).
  @_alwaysEmitIntoClient
  public static var abiVersion: UInt32 { 1 }

  /// The version of the Swift compiler that compiled this client, such as
  /// "6.3.1", or a range like ">6.9" past what this release knows.
  @_alwaysEmitIntoClient
  public static var compilerVersion: String {
    #if compiler(>=7.0)
      ">=7.0"
    #elseif compiler(>=6.9.9)
      "6.9.9"
    #elseif compiler(>=6.9.8)
      "6.9.8"
    #elseif compiler(>=6.9.7)
      "6.9.7"
    #elseif compiler(>=6.9.6)
      "6.9.6"
    #elseif compiler(>=6.9.5)
      "6.9.5"
    #elseif compiler(>=6.9.4)
      "6.9.4"
    #elseif compiler(>=6.9.3)
      "6.9.3"
    #elseif compiler(>=6.9.2)
      "6.9.2"
    #elseif compiler(>=6.9.1)
      "6.9.1"
    #elseif compiler(>=6.9)
      "6.9.0"
    #elseif compiler(>=6.8.9)
      "6.8.9"
    #elseif compiler(>=6.8.8)
      "6.8.8"
    #elseif compiler(>=6.8.7)
      "6.8.7"
    #elseif compiler(>=6.8.6)
      "6.8.6"
    #elseif compiler(>=6.8.5)
      "6.8.5"
    #elseif compiler(>=6.8.4)
      "6.8.4"
    #elseif compiler(>=6.8.3)
      "6.8.3"
    #elseif compiler(>=6.8.2)
      "6.8.2"
    #elseif compiler(>=6.8.1)
      "6.8.1"
    #elseif compiler(>=6.8)
      "6.8.0"
    #elseif compiler(>=6.7.9)
      "6.7.9"
    #elseif compiler(>=6.7.8)
      "6.7.8"
    #elseif compiler(>=6.7.7)
      "6.7.7"
    #elseif compiler(>=6.7.6)
      "6.7.6"
    #elseif compiler(>=6.7.5)
      "6.7.5"
    #elseif compiler(>=6.7.4)
      "6.7.4"
    #elseif compiler(>=6.7.3)
      "6.7.3"
    #elseif compiler(>=6.7.2)
      "6.7.2"
    #elseif compiler(>=6.7.1)
      "6.7.1"
    #elseif compiler(>=6.7)
      "6.7.0"
    #elseif compiler(>=6.6.9)
      "6.6.9"
    #elseif compiler(>=6.6.8)
      "6.6.8"
    #elseif compiler(>=6.6.7)
      "6.6.7"
    #elseif compiler(>=6.6.6)
      "6.6.6"
    #elseif compiler(>=6.6.5)
      "6.6.5"
    #elseif compiler(>=6.6.4)
      "6.6.4"
    #elseif compiler(>=6.6.3)
      "6.6.3"
    #elseif compiler(>=6.6.2)
      "6.6.2"
    #elseif compiler(>=6.6.1)
      "6.6.1"
    #elseif compiler(>=6.6)
      "6.6.0"
    #elseif compiler(>=6.5.9)
      "6.5.9"
    #elseif compiler(>=6.5.8)
      "6.5.8"
    #elseif compiler(>=6.5.7)
      "6.5.7"
    #elseif compiler(>=6.5.6)
      "6.5.6"
    #elseif compiler(>=6.5.5)
      "6.5.5"
    #elseif compiler(>=6.5.4)
      "6.5.4"
    #elseif compiler(>=6.5.3)
      "6.5.3"
    #elseif compiler(>=6.5.2)
      "6.5.2"
    #elseif compiler(>=6.5.1)
      "6.5.1"
    #elseif compiler(>=6.5)
      "6.5.0"
    #elseif compiler(>=6.4.9)
      "6.4.9"
    #elseif compiler(>=6.4.8)
      "6.4.8"
    #elseif compiler(>=6.4.7)
      "6.4.7"
    #elseif compiler(>=6.4.6)
      "6.4.6"
    #elseif compiler(>=6.4.5)
      "6.4.5"
    #elseif compiler(>=6.4.4)
      "6.4.4"
    #elseif compiler(>=6.4.3)
      "6.4.3"
    #elseif compiler(>=6.4.2)
      "6.4.2"
    #elseif compiler(>=6.4.1)
      "6.4.1"
    #elseif compiler(>=6.4)
      "6.4.0"
    #elseif compiler(>=6.3.9)
      "6.3.9"
    #elseif compiler(>=6.3.8)
      "6.3.8"
    #elseif compiler(>=6.3.7)
      "6.3.7"
    #elseif compiler(>=6.3.6)
      "6.3.6"
    #elseif compiler(>=6.3.5)
      "6.3.5"
    #elseif compiler(>=6.3.4)
      "6.3.4"
    #elseif compiler(>=6.3.3)
      "6.3.3"
    #elseif compiler(>=6.3.2)
      "6.3.2"
    #elseif compiler(>=6.3.1)
      "6.3.1"
    #elseif compiler(>=6.3)
      "6.3.0"
    #elseif compiler(>=6.2.9)
      "6.2.9"
    #elseif compiler(>=6.2.8)
      "6.2.8"
    #elseif compiler(>=6.2.7)
      "6.2.7"
    #elseif compiler(>=6.2.6)
      "6.2.6"
    #elseif compiler(>=6.2.5)
      "6.2.5"
    #elseif compiler(>=6.2.4)
      "6.2.4"
    #elseif compiler(>=6.2.3)
      "6.2.3"
    #elseif compiler(>=6.2.2)
      "6.2.2"
    #elseif compiler(>=6.2.1)
      "6.2.1"
    #elseif compiler(>=6.2)
      "6.2.0"
    #elseif compiler(>=6.1.9)
      "6.1.9"
    #elseif compiler(>=6.1.8)
      "6.1.8"
    #elseif compiler(>=6.1.7)
      "6.1.7"
    #elseif compiler(>=6.1.6)
      "6.1.6"
    #elseif compiler(>=6.1.5)
      "6.1.5"
    #elseif compiler(>=6.1.4)
      "6.1.4"
    #elseif compiler(>=6.1.3)
      "6.1.3"
    #elseif compiler(>=6.1.2)
      "6.1.2"
    #elseif compiler(>=6.1.1)
      "6.1.1"
    #elseif compiler(>=6.1)
      "6.1.0"
    #elseif compiler(>=6.0.9)
      "6.0.9"
    #elseif compiler(>=6.0.8)
      "6.0.8"
    #elseif compiler(>=6.0.7)
      "6.0.7"
    #elseif compiler(>=6.0.6)
      "6.0.6"
    #elseif compiler(>=6.0.5)
      "6.0.5"
    #elseif compiler(>=6.0.4)
      "6.0.4"
    #elseif compiler(>=6.0.3)
      "6.0.3"
    #elseif compiler(>=6.0.2)
      "6.0.2"
    #elseif compiler(>=6.0.1)
      "6.0.1"
    #elseif compiler(>=6.0)
      "6.0.0"
    #else
      "<6.0"
    #endif
  }
}
