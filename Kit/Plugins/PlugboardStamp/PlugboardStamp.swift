import Foundation
import PackagePlugin

/// Stamps a target with the interface of its sources (comments and
/// whitespace aside), so the host can tell a plugin compiled against other
/// declarations of a shared module from one that matches, before it runs
/// any of the plugin's code. Opt in with
/// `plugins: [.plugin(name: "PlugboardStamp", package: "Kit")]` on:
///
/// - a shared module (a `.dynamic` library that host and plugins use, such
///   as contracts): it then exports its stamp, and
/// - a plugin: it then records the stamp of every `.dynamic` library it
///   depends on, other than PlugboardKit, whose own stamp is part of the
///   `kitVersion` every plugin records.
///
/// Applied to PlugboardKit itself, it writes `PlugboardBuild.sourceFingerprint`.
@main
struct PlugboardStamp: BuildToolPlugin {
  func createBuildCommands(context: PluginContext, target: any Target) throws -> [Command] {
    guard let target = target as? any SourceModuleTarget else { return [] }
    let output = context.pluginWorkDirectoryURL.appending(path: "PlugboardStamp_\(target.moduleName).swift")
    var arguments = [output.path]
    var inputs: [URL] = []
    func add(_ flag: String, _ module: (any SourceModuleTarget)?, _ files: [any SourceModuleTarget]) {
      guard let first = files.first else { return }
      arguments += [flag] + (module.map { [$0.moduleName] } ?? [])
      arguments.append(first.directoryURL.deletingLastPathComponent().path)
      for file in files.flatMap(Self.sources) {
        arguments.append(file.path)
        inputs.append(file)
      }
    }
    if target.moduleName == "PlugboardKit" {
      // Its C target, the plugin ABI, is part of the SDK's fingerprint.
      let c = target.recursiveTargetDependencies.compactMap { $0 as? any SourceModuleTarget }
      add("--kit", nil, [target] + c)
    } else {
      add("--module", target, [target])
      for module in Self.sharedModules(of: target) { add("--dependency", module, [module]) }
    }
    return [
      .buildCommand(
        displayName: "Stamping \(target.moduleName)",
        executable: try context.tool(named: "plugboard-stamp").url,
        arguments: arguments, inputFiles: inputs, outputFiles: [output])
    ]
  }

  /// The Swift modules of the `.dynamic` library products `target` uses,
  /// PlugboardKit aside.
  static func sharedModules(of target: any SourceModuleTarget) -> [any SourceModuleTarget] {
    var modules: [any SourceModuleTarget] = []
    for case .product(let product) in target.dependencies {
      guard let library = product as? LibraryProduct, case .dynamic = library.kind else { continue }
      for case let module as any SourceModuleTarget in library.targets
      where module.moduleName != "PlugboardKit" && !modules.contains(where: { $0.id == module.id }) {
        modules.append(module)
      }
    }
    return modules
  }

  /// The files of `target` that make its interface: its sources and, for a C
  /// target, its headers, which `sourceFiles` leaves out.
  static func sources(of target: any SourceModuleTarget) -> [URL] {
    var files = target.sourceFiles.filter { $0.type == .source || $0.type == .header }.map(\.url)
    let folder = target.directoryURL
    if let walker = FileManager.default.enumerator(atPath: folder.path) {
      while let path = walker.nextObject() as? String {
        let header = folder.appending(path: path)
        if path.hasSuffix(".h"), !files.contains(header) { files.append(header) }
      }
    }
    return files
  }
}
