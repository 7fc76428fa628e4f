import Foundation
import PlugboardKit

/// `plugboard __probe-plugin NAME PATH`: hidden, internal. Loads the one
/// plugin at PATH (whatever the manifest says about enabling it), assembles
/// it into a fresh container and prints its registrations as a
/// ``ProbeReport`` on stdout. ``PluginProbe`` runs it in a child process,
/// so that a plugin that crashes takes only the child with it.
struct ProbeCommand {
  static let name = "__probe-plugin"

  let arguments: [String]
  let console: any Console

  func execute() -> ExitStatus.RawValue {
    guard arguments.count == 2 else {
      console.err("plugboard: \(Self.name) is internal; it takes NAME PATH")
      return ExitStatus.misuse.rawValue
    }
    let (name, path) = (arguments[0], arguments[1])
    let manifest = Manifest(path: path, plugins: [PluginEntry(index: 0, name: name, path: path)])
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
