import Foundation
import PlugboardStamping

// The tool behind the PlugboardStamp build plugin, and Scripts/build-deployment's
// way to tell whether PlugboardKit or the contracts changed:
//
//   plugboard-stamp OUTPUT (--kit | --module NAME) ROOT FILE... [--dependency NAME ROOT FILE...]...
//     writes OUTPUT (see StampSource), unless it already holds that text;
//     each FILE is stamped under its path relative to ROOT.
//   plugboard-stamp --print FOLDER...
//     prints the stamp of the .swift, .c and .h files under the FOLDERs,
//     paths relative to the first FOLDER's parent.

/// One group of the command line: a module and its files.
struct Group {
  var module: String
  var root: String
  var files: [String] = []
}

func fail(_ message: String) -> Never {
  FileHandle.standardError.write(Data("plugboard-stamp: \(message)\n".utf8))
  exit(2)
}

/// The files, each under its path relative to `root`.
func read(root: String, files: [String]) -> [InterfaceStamp.SourceFile] {
  let prefix = root.hasSuffix("/") ? root : root + "/"
  return files.map { file in
    guard let text = try? String(contentsOfFile: file, encoding: .utf8) else { fail("cannot read \(file)") }
    let relative = file.hasPrefix(prefix) ? String(file.dropFirst(prefix.count)) : file
    return InterfaceStamp.SourceFile(path: relative, text: text)
  }
}

func stamp(root: String, files: [String]) -> String {
  InterfaceStamp.of(read(root: root, files: files))
}

/// The release the group's module declares, if any.
func version(of group: Group) -> String? {
  switch ContractsVersion.declared(in: read(root: group.root, files: group.files)) {
  case .success(let version): return version
  case .failure(let problem): fail("module \(group.module): \(problem)")
  }
}

func sources(under folder: String) -> [String] {
  let manager = FileManager.default
  guard let walker = manager.enumerator(atPath: folder) else { fail("cannot list \(folder)") }
  var found: [String] = []
  while let path = walker.nextObject() as? String {
    guard path.hasSuffix(".swift") || path.hasSuffix(".c") || path.hasSuffix(".h") else { continue }
    found.append(folder + "/" + path)
  }
  return found
}

var arguments = Array(CommandLine.arguments.dropFirst())
if arguments.first == "--print" {
  let folders = arguments.dropFirst().map { URL(fileURLWithPath: $0).standardizedFileURL.path }
  guard let first = folders.first else { fail("--print needs at least one folder") }
  let root = URL(fileURLWithPath: first).deletingLastPathComponent().path
  print(stamp(root: root, files: folders.flatMap(sources(under:))))
  exit(0)
}

guard arguments.count >= 3 else { fail("usage: plugboard-stamp OUTPUT (--kit | --module NAME) ROOT FILE...") }
let output = arguments.removeFirst()
var isKit = false
var groups: [Group] = []
while !arguments.isEmpty {
  let argument = arguments.removeFirst()
  switch argument {
  case "--kit", "--module", "--dependency":
    if argument == "--kit" { isKit = true }
    let name = argument == "--kit" ? "PlugboardKit" : (arguments.isEmpty ? "" : arguments.removeFirst())
    guard !name.isEmpty, !arguments.isEmpty else { fail("\(argument) needs a name and a root folder") }
    groups.append(Group(module: name, root: arguments.removeFirst()))
  default:
    guard !groups.isEmpty else { fail("a file before --kit or --module: \(argument)") }
    groups[groups.count - 1].files.append(argument)
  }
}
guard let own = groups.first else { fail("no module named") }
let ownStamp = stamp(root: own.root, files: own.files)
let text =
  isKit
  ? StampSource.kitFingerprint(stamp: ownStamp)
  : StampSource.module(
    own.module, stamp: ownStamp, version: version(of: own),
    dependencies: groups.dropFirst().map { ($0.module, stamp(root: $0.root, files: $0.files)) },
    dependencyVersions: groups.dropFirst().compactMap { group in version(of: group).map { (group.module, $0) }
    })
// Rewriting an unchanged file would recompile the module for nothing.
if (try? String(contentsOfFile: output, encoding: .utf8)) != text {
  do {
    try text.write(toFile: output, atomically: true, encoding: .utf8)
  } catch {
    fail("cannot write \(output): \(error)")
  }
}
