import Foundation

/// A plugin whose library needs a library of its own, compiled with the
/// toolchain's `clang` (``Toolchain/cCompiler``) into a fresh folder:
/// `libChain.so` (a plugin with a descriptor, see
/// `Tests/Fixtures/fixture_plugin.c`) needs `libA.so`, which needs
/// `libB.so`, all beside it and found through the run path `$ORIGIN`
/// unless told otherwise.
///
/// `libZ.so` stands for another user's library: it is built in a folder of
/// its own, and its constructor leaves a file `ran-Z` in the current
/// directory, so a test can tell whether it ever ran.
struct ClosureFixture {
  /// How `libA.so` needs `libZ.so`.
  enum Z {
    case notAtAll
    /// `DT_NEEDED libZ.so`, found wherever `libA.so`'s run path leads.
    case byName
    /// `DT_NEEDED ./libZ.so`: opened from the current directory.
    case byPath
  }

  let folder: TemporaryDirectory
  /// Where `libZ.so` was built.
  let build: TemporaryDirectory
  var path: String { folder.path }
  var plugin: String { folder.path + "/libChain.so" }
  var builtZ: String { build.path + "/libZ.so" }

  /// `aRunPath`: `libA.so`'s run path, as given to the linker.
  init(aRunPath: String = "$ORIGIN", z: Z = .notAtAll) throws {
    guard let compiler = Toolchain.cCompiler else {
      throw FixtureFailure(description: "no C compiler: needs the toolchain's clang")
    }
    folder = try TemporaryDirectory()
    build = try TemporaryDirectory()
    let library = ["-shared", "-fPIC", "-Wl,--no-as-needed"]
    try Self.compile(
      compiler, in: build.path,
      library + [
        "-o", "libZ.so", "-x", "c", "-",
      ],
      source: """
        #include <fcntl.h>
        #include <unistd.h>
        __attribute__((constructor)) static void mark(void) {
          int fd = open("ran-Z", O_CREAT | O_WRONLY, 0644);
          if (fd >= 0) close(fd);
        }
        int z_value(void) { return 26; }
        """)
    try Self.compile(
      compiler, in: path, library + ["-Wl,-soname,libB.so", "-o", "libB.so", "-x", "c", "-"],
      source: "int b_value(void) { return 2; }\n")
    let zLink: [String] =
      switch z {
      case .notAtAll: []
      case .byName: ["-L", build.path, "-lZ"]
      case .byPath: ["./libZ.so"]
      }
    // By path, the linker records the name as written: run it where libZ.so is.
    try Self.compile(
      compiler, in: z == .byPath ? build.path : path,
      library + [
        "-Wl,-soname,libA.so", "-o", path + "/libA.so", "-x", "c", "-", "-x", "none", "-L", path, "-lB",
      ]
        + zLink + ["-Wl,-rpath-link," + build.path, "-Wl,-rpath," + aRunPath],
      source: "int a_value(void) { return 1; }\n")
    let include = BuildProducts.packageRoot + "/Kit/Sources/PlugboardABI/include"
    try Self.compile(
      compiler, in: path,
      library + [
        "-DFIXTURE_DESCRIPTOR", "-I", include, "-o", "libChain.so",
        BuildProducts.packageRoot + "/Tests/Fixtures/fixture_plugin.c", "-L", path, "-lA",
        "-Wl,-rpath-link," + build.path, "-Wl,-rpath,$ORIGIN",
      ] + CFixtures.descriptor(name: "Chain"),
      source: nil)
  }

  /// Writes `plugins.json` listing the plugin, with `members` (each
  /// followed by a comma) before `plugins`.
  func manifest(members: String = "") throws -> String {
    try folder.write(
      "plugins.json",
      #"{ "formatVersion": 1, \#(BuildProducts.rootsMember) \#(members) "plugins": [ "#
        + #"{ "name": "Chain", "path": "libChain.so" } ] }"#)
  }

  private static func compile(
    _ compiler: String, in directory: String, _ arguments: [String], source: String?
  )
    throws
  {
    let input = try TemporaryDirectory()
    var arguments = arguments
    if let source {
      let file = try input.write("source.c", source)
      arguments = arguments.map { $0 == "-" ? file : $0 }
    }
    let result = try Subprocess.run(compiler, arguments, in: directory)
    guard result.exited, result.status == 0 else {
      throw FixtureFailure(
        description: "\(compiler) \(arguments.joined(separator: " ")) failed:\n\(result.stderr)")
    }
  }
}
