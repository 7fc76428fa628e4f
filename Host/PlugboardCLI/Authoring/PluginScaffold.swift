import PlugboardEngine
import PlugboardKit

/// The files of a new plugin package, as `plugboard new` writes them: a
/// `.dynamic` library depending by path on the SDK (`Kit/`) and on the
/// shared contracts (`Plugins/Contracts/`), stamped like the sample's
/// plugins, with an assembly whose registrations all declare their
/// dependencies (so its first `plugboard check` has no warnings), the
/// entry symbol, and a README.
struct PluginScaffold: Equatable {
  /// The plugin's name: its package, module, product and library (`lib<name>.so`).
  let name: String
  /// Where the SDK package comes from.
  let kit: PackageSource
  /// Where the contracts package comes from.
  let contracts: PackageSource

  /// How the plugin's `Package.swift` reaches a package it depends on.
  enum PackageSource: Equatable {
    /// A folder, relative to the plugin's package: a Plugboard checkout.
    case path(String)
    /// A repository by URL at an exact version, as `Scripts/export-sdk`
    /// makes one: `https://git.example.com/sdk/PlugboardKit` at `1.0.0`.
    case version(url: String, exact: String)

    /// `URL@VERSION`, as `plugboard new --kit` takes it, or nil when the
    /// text is not a URL (with a scheme), `@`, and a semantic version.
    static func parsing(_ text: String) -> PackageSource? {
      guard let at = text.lastIndex(of: "@") else { return nil }
      let url = String(text[..<at])
      let version = String(text[text.index(after: at)...])
      guard url.contains("://"), !url.hasSuffix("/"),
        SemanticVersion(parsing: version)?.description == version,
        url.unicodeScalars.allSatisfy({ $0.isASCII && $0.value > 0x20 && $0 != "\"" && $0 != "\\" })
      else { return nil }
      return .version(url: url, exact: version)
    }

    /// The `.package(…)` line.
    var declaration: String {
      switch self {
      case .path(let path): ".package(path: \"\(path)\")"
      case .version(let url, let version): ".package(url: \"\(url)\", exact: \"\(version)\")"
      }
    }

    /// The package's identity, which `.product(name:package:)` names: the
    /// last component of its path or URL, without `.git`.
    var identity: String {
      let location: String
      switch self {
      case .path(let path): location = path
      case .version(let url, _): location = url
      }
      let last = location.split(separator: "/").last.map(String.init) ?? location
      return last.hasSuffix(".git") ? String(last.dropLast(4)) : last
    }
  }

  /// Why `name` cannot name a plugin, or nil when it can: a Swift
  /// identifier of ASCII letters, digits and `_`, starting with a capital
  /// letter, at most ``maximumNameLength`` characters.
  static func problem(withName name: String) -> String? {
    guard !name.isEmpty, name.count <= maximumNameLength else {
      return "a plugin's name has 1 to \(maximumNameLength) characters; found \(name.count)"
    }
    guard let first = name.unicodeScalars.first, ("A"..."Z").contains(first),
      name.unicodeScalars.allSatisfy({
        $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || $0 == "_")
      })
    else {
      return "a plugin's name is a Swift type name: a capital letter, then letters, digits or '_' "
        + "(for example 'Weather'); found '\(Terminal.sanitize(name))'"
    }
    return nil
  }

  static let maximumNameLength = 64

  /// Each file's path inside the package, with its text, in the order written.
  var files: [(path: String, text: String)] {
    [
      ("Package.swift", packageManifest),
      ("Sources/\(name)/\(name)Plugin.swift", entry),
      ("Sources/\(name)/\(name)Assembly.swift", assembly),
      ("Sources/\(name)/\(name)Greeter.swift", greeter),
      ("README.md", readme),
      (".gitignore", "/.build\n"),
    ]
  }

  var packageManifest: String {
    """
    // swift-tools-version:6.0
    import PackageDescription

    // The \(name) plugin: a `.dynamic` library the Plugboard host loads. It
    // depends on the SDK and the shared contracts by product only, never on
    // their sources: the host's copies of both serve it at run time.
    let package = Package(
      name: "\(name)",
      products: [
        .library(name: "\(name)", type: .dynamic, targets: ["\(name)"])
      ],
      dependencies: [
        \(kit.declaration),
        \(contracts.declaration),
      ],
      targets: [
        .target(
          name: "\(name)",
          dependencies: [
            .product(name: "PlugboardKit", package: "\(kit.identity)"),
            .product(name: "AppContracts", package: "\(contracts.identity)"),
          ],
          swiftSettings: [.enableUpcomingFeature("ExistentialAny")],
          // Records the stamp of AppContracts it is compiled against.
          plugins: [.plugin(name: "PlugboardStamp", package: "\(kit.identity)")]
        )
      ]
    )

    """
  }

  var entry: String {
    """
    import PlugboardKit

    /// The entry point the host looks up; its name carries the plugin ABI version.
    @_cdecl("plugboard_entry_v1")
    public func plugboardEntry() -> UnsafeRawPointer {
      PluginExport.descriptor(name: "\(name)", version: "0.1.0") { [\(name)Assembly()] }
    }

    """
  }

  var assembly: String {
    """
    import AppContracts
    import PlugboardKit

    /// What the \(name) plugin registers. Every registration declares what it
    /// resolves, so `plugboard check` validates the whole chain.
    struct \(name)Assembly: Assembly {
      func assemble(container: Container) throws {
        // autoregister learns the dependencies from the initializer's parameters.
        container.autoregister(\(name)Greeting.self, initializer: \(name)Greeting.init)
          .inObjectScope(.container)
        // A closure factory says what it resolves with .dependsOn, and what it
        // resolves only if some plugin registers it with .optionallyDependsOn.
        container.register(\(name)Greeter.self) { resolver in
          \(name)Greeter(
            greeting: try resolver.resolve(), console: try resolver.resolve(),
            analytics: try resolver.resolveIfRegistered())
        }
        .dependsOn(\(name)Greeting.self, (any AppConsole).self)
        .optionallyDependsOn((any AnalyticsTracker).self)
      }
    }

    """
  }

  var greeter: String {
    """
    import AppContracts

    /// The text \(name)Greeter writes; made by autoregister, which resolves nothing for it.
    struct \(name)Greeting: Sendable {
      let text = "Hello from \(name)"
    }

    /// Writes a greeting on the application's console. A service other
    /// plugins resolve belongs in the contracts package, as a protocol.
    struct \(name)Greeter: Sendable {
      let greeting: \(name)Greeting
      let console: any AppConsole
      /// Optional: the Analytics plugin may be left out of a deployment.
      let analytics: (any AnalyticsTracker)?

      func greet() {
        console.write(greeting.text)
        analytics?.track("\(name.lowercased()).greeted")
      }
    }

    """
  }

  var readme: String {
    building + shipping + signing + """
      A service other plugins use is a protocol in the shared contracts
      package; `Docs/writing-a-plugin.md` in the Plugboard repository walks
      through contracts, optional dependencies, testing an assembly on its own,
      and switching to a mock by profile.

      """
  }

  /// Building, loading and checking it.
  private var building: String {
    """
    # \(name)

    A Plugboard plugin, made by `plugboard new \(name)`.

    Build it:

    ```sh
    swift build
    ```

    Load it: add this plugin to the deployment's `plugins.json` (a relative
    path is relative to the manifest's folder; the library must lie inside
    that folder or one of the manifest's `pluginRoots`):

    ```json
    { "name": "\(name)", "path": "<this folder>/.build/debug/lib\(name).so" }
    ```

    then check it, and see what it registers:

    ```sh
    plugboard check
    plugboard list
    ```


    """
  }

  /// Building for release and naming the release library.
  private var shipping: String {
    """
    Ship it: a host built for release and installed where the Swift
    toolchain is not (`Scripts/install-host`) loads only a release build (a
    debug build needs the toolchain's `libswiftSwiftOnoneSupport.so`).
    Build for release, and name the release library in that deployment's
    `plugins.json`:

    ```sh
    swift build -c release
    ```

    ```json
    { "name": "\(name)", "path": "<this folder>/.build/release/lib\(name).so" }
    ```


    """
  }

  /// Signing it for a deployment that trusts its publishers' keys.
  private var signing: String {
    """
    Sign it, for a deployment that trusts its publishers' keys (a `trust`
    block in its `plugins.json`): sign the release library and each
    library shipped beside it with your team's SSH key, in namespace
    `plugboard-plugin`, and ship every `.sig` file beside its library:

    ```sh
    ssh-keygen -Y sign -n plugboard-plugin -f ~/.ssh/release_ed25519 .build/release/lib\(name).so
    plugboard verify --allowed-signers allowed_signers .build/release/lib\(name).so
    ```

    `plugboard verify` checks the signature as the deployment will, with
    the deployment's allowed signers file, and prints who signed the file;
    it fails when the key may not sign `\(name)`: run it in your CI.

    The deployment's operator adds your public key to its allowed signers
    file, limited to this plugin's name:

    ```
    \(name) namespaces="plugboard-plugin" ssh-ed25519 AAAA… your team
    ```


    """
  }
}
