import Foundation
import PlugboardEngine

/// `plugboard new NAME [--path DIR] [--sdk DIR | --kit URL@VERSION
/// --contracts URL@VERSION]`: creates a plugin package (``PluginScaffold``)
/// in a folder that does not exist yet or is empty. Its `Package.swift`
/// reaches the SDK and the contracts by version, from the repositories
/// `--kit` and `--contracts` name (as `Scripts/export-sdk` makes them), or
/// else by relative paths, found in the Plugboard checkout given by
/// `--sdk`, or in the nearest folder above DIR (then above the current
/// folder) that holds both.
struct NewCommand {
  let options: ParsedOptions
  let console: any Console

  func execute() -> ExitStatus.RawValue {
    let name = options.positionals.first ?? ""
    if let problem = PluginScaffold.problem(withName: name) { return misuse(problem) }
    guard let here = FilePath.currentDirectory else {
      return fail("cannot determine the current folder")
    }
    let folder = FilePath.absolute(options[.path] ?? name, relativeTo: here)
    if options[.kit] != nil || options[.contracts] != nil {
      return scaffoldByVersion(name, into: folder, here: here)
    }
    return scaffoldByPath(name, into: folder, here: here)
  }

  /// A package that depends on the SDK and the contracts by version, from
  /// the repositories `--kit` and `--contracts` name.
  private func scaffoldByVersion(_ name: String, into folder: String, here: String) -> ExitStatus.RawValue {
    guard options[.sdk] == nil else {
      return misuse(
        "\(OptionSpec.sdk.name) names a checkout to depend on by path; \(OptionSpec.kit.name) and "
          + "\(OptionSpec.contracts.name) name repositories to depend on by version: give one or the other")
    }
    guard let kitText = options[.kit], let contractsText = options[.contracts] else {
      return misuse(
        "\(OptionSpec.kit.name) and \(OptionSpec.contracts.name) go together: the plugin depends on both")
    }
    var sources: [PluginScaffold.PackageSource] = []
    for (option, text) in [(OptionSpec.kit.name, kitText), (OptionSpec.contracts.name, contractsText)] {
      guard let source = PluginScaffold.PackageSource.parsing(text) else {
        return misuse(
          "\(option) takes URL@VERSION, a repository and its exact version, such as "
            + "https://git.example.com/sdk/PlugboardKit@1.0.0; found '\(Terminal.sanitize(text))'")
      }
      sources.append(source)
    }
    return write(PluginScaffold(name: name, kit: sources[0], contracts: sources[1]), into: folder, here: here)
  }

  /// A package that depends on the SDK and the contracts by relative
  /// paths, into the checkout `--sdk` names or the nearest one above.
  private func scaffoldByPath(_ name: String, into folder: String, here: String) -> ExitStatus.RawValue {
    let sdk: String
    if let given = options[.sdk] {
      sdk = FilePath.absolute(given, relativeTo: here)
      guard Self.holdsSDK(sdk) else {
        return fail(
          "\(Terminal.sanitize(sdk)) is not a Plugboard checkout: it needs Kit/Package.swift and "
            + "Plugins/Contracts/Package.swift")
      }
    } else {
      guard let found = Self.sdk(above: folder) ?? Self.sdk(above: here) else {
        return fail(
          "cannot find the Plugboard SDK (a folder holding Kit/ and Plugins/Contracts/) above "
            + "\(Terminal.sanitize(folder)) or the current folder; name the checkout with \(OptionSpec.sdk.name) DIR"
        )
      }
      sdk = found
    }
    let scaffold = PluginScaffold(
      name: name, kit: .path(Self.relative(sdk + "/Kit", from: folder)),
      contracts: .path(Self.relative(sdk + "/Plugins/Contracts", from: folder)))
    return write(scaffold, into: folder, here: here)
  }

  /// Writes `scaffold`'s files into `folder` and says what to do next.
  private func write(_ scaffold: PluginScaffold, into folder: String, here: String) -> ExitStatus.RawValue {
    let name = scaffold.name
    if let entries = try? FileManager.default.contentsOfDirectory(atPath: folder), !entries.isEmpty {
      return fail("\(Terminal.sanitize(folder)) already exists and is not empty; nothing was written")
    }
    if let problem = Self.trustProblem(of: folder, user: geteuid()) {
      return fail("\(Terminal.sanitize(folder)) \(problem); nothing was written")
    }
    do {
      for file in scaffold.files {
        let path = folder + "/" + file.path
        try FileManager.default.createDirectory(
          atPath: FilePath.directory(of: path), withIntermediateDirectories: true)
        try Data(file.text.utf8).write(to: URL(fileURLWithPath: path), options: .withoutOverwriting)
      }
    } catch {
      return fail("cannot write the package into \(Terminal.sanitize(folder)): \(error.localizedDescription)")
    }
    console.out("Created the plugin package \(name) in \(folder)")
    console.out("Build it:   swift build --package-path \(folder)")
    // A host built for release, installed where the toolchain is not, cannot
    // load a debug build (it lacks the runtime's debug support library).
    console.out(
      "Release:    swift build -c release --package-path \(folder), for a host installed without the "
        + "toolchain; then load \(folder)/.build/release/lib\(name).so")
    console.out("Load it:    " + Self.loadHint(name: name, folder: folder, here: here))
    return ExitStatus.healthy.rawValue
  }

  /// Why `folder` must not receive the package, continuing "<folder> …";
  /// nil when no one but root and `user` can change what is written there.
  /// The printed `swift build` evaluates `Package.swift` and compiles the
  /// sources as whoever runs it, often root, so the folder is judged as a
  /// plugin's is: owned by root or the user and writable by no one else
  /// (no sticky exception: in a sticky folder others may still add a
  /// source file), and so every existing folder above it (where root's
  /// sticky folders, such as `/tmp`, are fine: no one can replace the
  /// package folder there).
  static func trustProblem(of folder: String, user: uid_t) -> String? {
    let stake =
      "change the package before swift build evaluates its Package.swift, and so run code as whoever builds it"
    if let status = FileTrust.status(folder),
      let problem = FileTrust.fileProblem(status, at: folder, user: user, stake: stake)
    {
      return problem
    }
    let above = FilePath.nearestFolder(above: folder) { FileTrust.status($0) != nil }
    return FileTrust.foldersProblem(from: above, user: user, thing: "the package", stake: stake)
  }

  /// How to add the plugin built in `folder` to the deployment: the
  /// `plugins.json` of the current folder `here`, when there is one. A
  /// library outside the manifest's folder loads only from a plugin root,
  /// so the hint names the `pluginRoots` entry it needs; inside, the path
  /// is relative and needs none.
  static func loadHint(name: String, folder: String, here: String) -> String {
    let library = "\(folder)/.build/debug/lib\(name).so"
    let manifest = here + "/" + ManifestReader.defaultFileName
    guard FileManager.default.fileExists(atPath: manifest) else {
      return "add { \"name\": \"\(name)\", \"path\": \"\(library)\" } to \"plugins\" in your plugins.json, "
        + "and \"\(folder)\" to its \"pluginRoots\" unless the manifest's folder holds it; then run plugboard check"
    }
    guard library.hasPrefix(here + "/") else {
      return "in \(manifest), add \"\(folder)\" to \"pluginRoots\" and { \"name\": \"\(name)\", \"path\": "
        + "\"\(library)\" } to \"plugins\", then run plugboard check"
    }
    let relative = String(library.dropFirst(here.count + 1))
    return "add { \"name\": \"\(name)\", \"path\": \"\(relative)\" } to \"plugins\" in "
      + "\(ManifestReader.defaultFileName), then run plugboard check"
  }

  private func misuse(_ message: String) -> ExitStatus.RawValue {
    for line in UsageError(message: message, command: CommandSpec.new.name).lines { console.err(line) }
    return ExitStatus.misuse.rawValue
  }

  private func fail(_ message: String) -> ExitStatus.RawValue {
    console.err("plugboard: new: \(message)")
    return ExitStatus.problems.rawValue
  }

  /// Whether `folder` holds the SDK package and the contracts package.
  static func holdsSDK(_ folder: String) -> Bool {
    ["/Kit/Package.swift", "/Plugins/Contracts/Package.swift"].allSatisfy {
      FileManager.default.fileExists(atPath: folder + $0)
    }
  }

  /// The nearest folder at or above `path` that ``holdsSDK(_:)``.
  static func sdk(above path: String) -> String? {
    var folder = path
    while true {
      if holdsSDK(folder) { return folder }
      guard folder != "/" else { return nil }
      folder = FilePath.directory(of: folder)
    }
  }

  /// `target` as a path relative to `base` (both absolute, without `..`);
  /// `target` itself when they share only the root, where a relative
  /// path would only be longer.
  static func relative(_ target: String, from base: String) -> String {
    let to = target.split(separator: "/")
    let from = base.split(separator: "/")
    let common = zip(to, from).prefix { $0 == $1 }.count
    guard common > 0 else { return target }
    let up = Array(repeating: "..", count: from.count - common)
    return (up + to[common...].map(String.init)).joined(separator: "/")
  }
}
