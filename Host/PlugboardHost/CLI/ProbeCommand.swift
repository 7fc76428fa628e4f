import Foundation
import PlugboardKit

/// `plugboard __probe-plugin NAME PATH [--index N] [--pin DIGEST |
/// --pin-required]`: hidden, internal. Loads the one plugin at PATH
/// (whatever the manifest says about enabling it), assembles it into a
/// fresh container and prints its registrations as a ``ProbeReport`` on
/// stdout. ``PluginProbe`` runs it in a child process, so that a plugin
/// that crashes takes only the child with it. The plugin is held to the
/// manifest's pins as a load is: `--pin` is its `sha256`, `--pin-required`
/// says the manifest requires pins and it has none, and `--index` is its
/// place in `plugins`, for messages.
struct ProbeCommand {
  static let name = "__probe-plugin"

  let arguments: [String]
  let console: any Console

  /// The options after NAME PATH for `entry` of `manifest`.
  static func options(_ entry: PluginEntry, of manifest: Manifest) -> [String] {
    let pin = entry.sha256.map { ["--pin", $0] } ?? (manifest.requirePins ? ["--pin-required"] : [])
    return ["--index", String(entry.index)] + pin
  }

  /// The manifest of the one plugin the arguments describe, or nil when
  /// they are not as ``options(_:of:)`` writes them.
  private func manifest() -> Manifest? {
    guard arguments.count >= 2 else { return nil }
    let (name, path) = (arguments[0], arguments[1])
    var index = 0
    var pin: String?
    var required = false
    var rest = arguments.dropFirst(2)
    while let option = rest.popFirst() {
      switch option {
      case "--index":
        guard let value = rest.popFirst().flatMap({ Int($0) }) else { return nil }
        index = value
      case "--pin":
        guard let value = rest.popFirst() else { return nil }
        pin = value
      case "--pin-required": required = true
      default: return nil
      }
    }
    return Manifest(
      path: path, plugins: [PluginEntry(index: index, name: name, path: path, sha256: pin)],
      requirePins: required)
  }

  func execute() -> ExitStatus.RawValue {
    guard let manifest = manifest(), let entry = manifest.plugins.first else {
      console.err(
        "plugboard: \(Self.name) is internal; it takes NAME PATH [--index N] [--pin DIGEST | --pin-required]")
      return ExitStatus.misuse.rawValue
    }
    let name = entry.name
    let deployment = Deployment.bringUp(manifest)
    let container = deployment.container
    let infos = (container.registrations + container.inactiveRegistrations)
      .filter { $0.site.plugin == name }
      .sorted { ($0.site.fileID, $0.site.line) < ($1.site.fileID, $1.site.line) }
    let report = ProbeReport(
      plugin: name, version: deployment.loadedPlugins.first?.version,
      registrations: infos.map(ProbeReport.Registration.init),
      problem: deployment.problems.first.map(\.description))
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    guard let data = try? encoder.encode(report) else { return ExitStatus.problems.rawValue }
    console.out(String(decoding: data, as: UTF8.self))
    return (report.problem == nil ? ExitStatus.healthy : .problems).rawValue
  }
}

extension ProbeReport.Registration {
  init(_ info: RegistrationInfo) {
    self.init(
      type: info.key.service.name, name: info.key.name, arguments: info.key.arguments.map(\.name),
      scope: info.scope.description, file: info.site.fileID, line: info.site.line,
      profiles: info.profiles?.expressions)
  }
}
