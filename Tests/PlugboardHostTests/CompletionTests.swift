import Foundation
import PlugboardTestSupport
import Testing

@testable import PlugboardCLI
@testable import PlugboardEngine

/// `plugboard completion SHELL`: scripts each shell accepts, made from the
/// command specs, that complete commands, options and values.
@Suite(.blocking) struct CompletionTests {
  /// zsh and fish are not on a fresh machine: their tests skip without
  /// them, unless `PLUGBOARD_REQUIRE_TOOLS` names them (`.ci/run` does).
  private static let hasZsh = ExternalTool.shouldRun("zsh")
  private static let hasFish = ExternalTool.shouldRun("fish")

  private func script(_ shell: String) throws -> String {
    let result = try Subprocess.plugboard(["completion", shell])
    #expect(result.status == 0 && result.stderr.isEmpty)
    return result.stdout
  }

  @Test func theBashScriptIsValidBash() throws {
    try syntaxCheck("bash", file: "plugboard.bash", check: "-n")
  }

  /// What the script offers for the words typed so far (the last one is
  /// the word being completed).
  /// `command` is the first word, as typed: the script asks it for what
  /// only the manifest knows.
  private func bashCompletions(_ words: [String], command: String = "plugboard", in directory: String? = nil)
    throws -> [String]
  {
    let folder = try TemporaryDirectory()
    let file = try folder.write("plugboard.bash", try script("bash"))
    let quoted = ([command] + words).map { "'\($0)'" }.joined(separator: " ")
    let result = try Subprocess.run(
      "/usr/bin/env",
      [
        "bash", "-c",
        "source \(file); COMP_WORDS=(\(quoted)); COMP_CWORD=\(words.count); _plugboard; "
          + #"printf '%s\n' "${COMPREPLY[@]}""#,
      ], in: directory)
    #expect(result.status == 0, "\(result.stderr)")
    return result.stdout.split(separator: "\n").map(String.init)
  }

  @Test func bashCompletesCommandsOptionsAndValues() throws {
    #expect(try bashCompletions(["ch"]) == ["check"])
    #expect(try bashCompletions(["check", "--j"]) == ["--json"])
    #expect(try bashCompletions(["--manifest", "x.json", "li"]) == ["list"])
    #expect(try bashCompletions(["completion", ""]) == ["bash", "zsh", "fish"])
    #expect(
      try bashCompletions(["new", "Weather", "--"]) == ["--path", "--sdk", "--kit", "--contracts", "--help"])
    #expect(try bashCompletions(["graph", "--format", ""]) == ["dot", "mermaid", "json"])
    #expect(try bashCompletions(["graph", "--format", "m"]) == ["mermaid"])
    #expect(try bashCompletions(["run", "--log-level", "w"]) == ["warning"])
    #expect(try bashCompletions(["--log-level", "info", "ch"]) == ["check"])
    #expect(try bashCompletions(["run", "--stage-timeout", ""]) == [])
  }

  /// `verify FILE…` completes paths, for each FILE, and its options.
  @Test func bashCompletesFilesAfterVerify() throws {
    let folder = try TemporaryDirectory()
    try folder.write("libWeather.so", "")
    try folder.write("libWeather.so.sig", "")
    let both = ["libWeather.so", "libWeather.so.sig"]
    #expect(try bashCompletions(["verify", "libW"], in: folder.path).sorted() == both)
    #expect(try bashCompletions(["verify", "libWeather.so", "libW"], in: folder.path).sorted() == both)
    #expect(
      try bashCompletions(["verify", "--allowed-signers", "libWeather.so.s"], in: folder.path) == [both[1]])
    #expect(try bashCompletions(["verify", "--al"]) == ["--allowed-signers"])
  }

  @Test(.enabled(if: hasFish, "fish is not installed: the fish script's file completion is not tried"))
  func fishCompletesFilesAfterVerify() throws {
    try #require(Toolchain.find("fish") != nil, "PLUGBOARD_REQUIRE_TOOLS names fish, but it is not on PATH")
    let folder = try TemporaryDirectory()
    try folder.write("libWeather.so", "")
    let file = try folder.write("plugboard.fish", try script("fish"))
    let result = try Subprocess.run(
      "/usr/bin/env", ["fish", "-c", "source \(file); complete -C'plugboard verify libW'"], in: folder.path)
    #expect(result.stdout.split(separator: "\n").map(String.init) == ["libWeather.so"])
  }

  /// Before a command: the commands, `--help`, `--version` and the options
  /// every command reading a manifest takes, not each command's own; and
  /// never the option the scripts call themselves.
  @Test func bashOffersCommandsAndSharedOptionsFirstAndHidesItsOwnHelper() throws {
    let first = try bashCompletions([""])
    #expect(first == CommandSpec.all.map(\.name) + ["--help", "--version", "--manifest"])
    #expect(try bashCompletions(["--"]) == ["--help", "--version", "--manifest"])
    #expect(try bashCompletions(["completion", "--"]) == ["--manifest", "--help"])
  }

  /// A manifest declaring `live`, `mock` and two names no shell word can
  /// hold, which are left out.
  private func manifestWithProfiles(in folder: TemporaryDirectory) throws -> String {
    try folder.write(
      "plugins.json",
      #"""
      {"formatVersion": 1, "activeProfile": "live", "plugins": [],
       "profiles": {"live": {}, "mock": {}, "two words": {}, "it's": {}}}
      """#)
  }

  /// `--profile` offers the profiles the manifest declares: the manifest
  /// `--manifest` names anywhere on the line, or `plugins.json` in the
  /// current folder, read by the plugboard being completed.
  @Test func bashCompletesProfileNamesFromTheManifest() throws {
    let folder = try TemporaryDirectory()
    let manifest = try manifestWithProfiles(in: folder)
    let plugboard = BuildProducts.plugboard
    #expect(
      try bashCompletions(["--manifest", manifest, "run", "--profile", ""], command: plugboard) == [
        "live", "mock",
      ])
    #expect(
      try bashCompletions(["check", "--manifest", manifest, "--profile", "m"], command: plugboard) == ["mock"]
    )
    #expect(
      try bashCompletions(["list", "--profile", ""], command: plugboard, in: folder.path) == ["live", "mock"])
    let empty = try TemporaryDirectory()
    #expect(try bashCompletions(["list", "--profile", ""], command: plugboard, in: empty.path) == [])
  }

  /// What the scripts call: one name per line, only names a shell word can
  /// hold; nothing, and success, when there is no manifest to read, since
  /// a completion must not print errors into the line being typed.
  @Test func listsTheManifestsProfileNamesForTheScripts() throws {
    let folder = try TemporaryDirectory()
    let manifest = try manifestWithProfiles(in: folder)
    let listed = try Subprocess.plugboard(["completion", "--profile-names", "--manifest", manifest])
    #expect(listed.status == 0 && listed.stderr.isEmpty && listed.stdout == "live\nmock\n")
    let missing = try Subprocess.plugboard([
      "completion", "--profile-names", "--manifest", folder.path + "/none.json",
    ])
    #expect(missing.status == 0 && missing.stderr.isEmpty && missing.stdout.isEmpty)
  }

  /// Runs `shell` with `check` (its no-execute flag) on the script saved as `file`.
  private func syntaxCheck(_ shell: String, file: String, check: String) throws {
    try #require(
      Toolchain.find(shell) != nil, "PLUGBOARD_REQUIRE_TOOLS names \(shell), but it is not on PATH")
    let folder = try TemporaryDirectory()
    let path = try folder.write(file, try script(shell))
    let result = try Subprocess.run("/usr/bin/env", [shell, check, path])
    #expect(result.status == 0, "\(result.stderr)")
  }

  @Test(.enabled(if: hasZsh, "zsh is not installed: the zsh script is not syntax-checked"))
  func theZshScriptIsValidZsh() throws {
    try syntaxCheck("zsh", file: "_plugboard", check: "-n")
  }

  @Test(.enabled(if: hasFish, "fish is not installed: the fish script is not syntax-checked"))
  func theFishScriptIsValidFish() throws {
    try syntaxCheck("fish", file: "plugboard.fish", check: "--no-execute")
  }

  @Test(.enabled(if: hasFish, "fish is not installed: the fish script's completions are not tried"))
  func fishCompletesCommandsOptionsAndValues() throws {
    try #require(Toolchain.find("fish") != nil, "PLUGBOARD_REQUIRE_TOOLS names fish, but it is not on PATH")
    let folder = try TemporaryDirectory()
    let file = try folder.write("plugboard.fish", try script("fish"))
    let result = try Subprocess.run(
      "/usr/bin/env",
      [
        "fish", "-c",
        "source \(file); complete -C'plugboard ch'; complete -C'plugboard check --j'; "
          + "complete -C'plugboard completion '",
      ])
    #expect(
      result.stdout.split(separator: "\n").map { $0.split(separator: "\t").first.map(String.init) ?? "" }
        == ["check", "--json", "bash", "fish", "zsh"])
  }

  /// fish, as bash: the profiles of the manifest `--manifest` names
  /// (either spelling), or of `plugins.json` in the current folder.
  @Test(.enabled(if: hasFish, "fish is not installed: the fish script's profile completion is not tried"))
  func fishCompletesProfileNamesFromTheManifest() throws {
    try #require(Toolchain.find("fish") != nil, "PLUGBOARD_REQUIRE_TOOLS names fish, but it is not on PATH")
    let folder = try TemporaryDirectory()
    let manifest = try manifestWithProfiles(in: folder)
    let file = try folder.write("plugboard.fish", try script("fish"))
    let plugboard = BuildProducts.plugboard
    let result = try Subprocess.run(
      "/usr/bin/env",
      [
        "fish", "-c",
        "source \(file); complete -C'\(plugboard) --manifest \(manifest) run --profile '; "
          + "complete -C'\(plugboard) check --manifest=\(manifest) --profile m'; "
          + "complete -C'\(plugboard) list --profile '",
      ], in: folder.path)
    #expect(result.status == 0, "\(result.stderr)")
    let offered = result.stdout.split(separator: "\n").map {
      $0.split(separator: "\t").first.map(String.init) ?? ""
    }
    #expect(offered == ["live", "mock", "mock", "live", "mock"])
  }

  /// zsh's completion widgets need a terminal, so the part that reads the
  /// line is tried alone: the names the plugboard on the line prints for
  /// the manifest on the line.
  @Test(.enabled(if: hasZsh, "zsh is not installed: the zsh script's profile names are not tried"))
  func zshFindsProfileNamesFromTheManifestOnTheLine() throws {
    try #require(Toolchain.find("zsh") != nil, "PLUGBOARD_REQUIRE_TOOLS names zsh, but it is not on PATH")
    let folder = try TemporaryDirectory()
    let manifest = try manifestWithProfiles(in: folder)
    let file = try folder.write("_plugboard", try script("zsh"))
    let plugboard = BuildProducts.plugboard
    let lines = [
      "\(plugboard) --manifest \(manifest) run --profile ''",
      "\(plugboard) check --manifest=\(manifest) --profile ''",
      "\(plugboard) list --profile ''",
    ]
    let result = try Subprocess.run(
      "/usr/bin/env",
      [
        "zsh", "-f", "-c",
        "autoload -U compinit && compinit -u -D; source \(file); "
          + lines.map { "plugboard_words=(\($0)); _plugboard_profile_names" }.joined(separator: "; "),
      ], in: folder.path)
    #expect(result.status == 0, "\(result.stderr)")
    #expect(result.stdout == "live\nmock\nlive\nmock\nlive\nmock\n")
  }

  /// A deployment of UndeclaredNeed, which registers `Greeter` and an
  /// `Application` (besides plugboard's default `Logger`).
  private func deploymentWithTypes() throws -> (TemporaryDirectory, String) {
    let folder = try TemporaryDirectory()
    try FileManager.default.copyItem(
      atPath: BuildProducts.library("UndeclaredNeed"), toPath: folder.path + "/libUndeclaredNeed.so")
    return (folder, try folder.writeManifest([("UndeclaredNeed", "libUndeclaredNeed.so")]))
  }

  /// `explain TYPE` offers the types the deployment on the line registers,
  /// by the names `explain` takes, asked of the plugboard being completed;
  /// an option is still completed as one, and the helper is never offered.
  @Test func bashCompletesTypeNamesAfterExplain() throws {
    let (folder, manifest) = try deploymentWithTypes()
    defer { withExtendedLifetime(folder) {} }
    let plugboard = BuildProducts.plugboard
    #expect(
      try bashCompletions(["explain", "--manifest", manifest, ""], command: plugboard) == [
        "Application", "Greeter", "Logger",
      ])
    #expect(
      try bashCompletions(["--manifest", manifest, "explain", "Gr"], command: plugboard) == ["Greeter"])
    #expect(try bashCompletions(["explain", "Gr"], command: plugboard, in: folder.path) == ["Greeter"])
    #expect(try bashCompletions(["explain", "--manifest", manifest, "--t"], command: plugboard) == [])
    // No deployment to ask: explain's options, as before a type was known.
    let empty = try TemporaryDirectory()
    #expect(
      try bashCompletions(["explain", ""], command: plugboard, in: empty.path)
        == CompletionScript.offeredOptions(.explain).map(\.name) + ["--help"])
  }

  /// What the scripts call: one name per line, as `explain` takes it; and
  /// nothing on standard output when the deployment cannot be brought up.
  @Test func listsTheDeploymentsTypeNamesForTheScripts() throws {
    let (folder, manifest) = try deploymentWithTypes()
    defer { withExtendedLifetime(folder) {} }
    let listed = try Subprocess.plugboard(["explain", "--type-names", "--manifest", manifest])
    #expect(listed.status == 0 && listed.stderr.isEmpty)
    #expect(listed.stdout == "Application\nGreeter\nLogger\n")
    let missing = try Subprocess.plugboard([
      "explain", "--type-names", "--manifest", folder.path + "/none.json",
    ])
    #expect(missing.stdout.isEmpty)
  }

  /// fish, as bash: the types of the deployment on the line.
  @Test(.enabled(if: hasFish, "fish is not installed: the fish script's type completion is not tried"))
  func fishCompletesTypeNamesAfterExplain() throws {
    try #require(Toolchain.find("fish") != nil, "PLUGBOARD_REQUIRE_TOOLS names fish, but it is not on PATH")
    let (folder, manifest) = try deploymentWithTypes()
    defer { withExtendedLifetime(folder) {} }
    let file = try folder.write("plugboard.fish", try script("fish"))
    let plugboard = BuildProducts.plugboard
    let result = try Subprocess.run(
      "/usr/bin/env",
      [
        "fish", "-c",
        "source \(file); complete -C'\(plugboard) explain --manifest \(manifest) Gr'; "
          + "complete -C'\(plugboard) explain --manifest=\(manifest) '",
      ])
    #expect(result.status == 0, "\(result.stderr)")
    let offered = result.stdout.split(separator: "\n").map {
      $0.split(separator: "\t").first.map(String.init) ?? ""
    }
    #expect(offered == ["Greeter", "Application", "Greeter", "Logger"])
  }

  /// zsh, as its profile names are tried: the part that reads the line.
  @Test(.enabled(if: hasZsh, "zsh is not installed: the zsh script's type names are not tried"))
  func zshFindsTypeNamesForTheDeploymentOnTheLine() throws {
    try #require(Toolchain.find("zsh") != nil, "PLUGBOARD_REQUIRE_TOOLS names zsh, but it is not on PATH")
    let (folder, manifest) = try deploymentWithTypes()
    defer { withExtendedLifetime(folder) {} }
    let file = try folder.write("_plugboard", try script("zsh"))
    let plugboard = BuildProducts.plugboard
    let result = try Subprocess.run(
      "/usr/bin/env",
      [
        "zsh", "-f", "-c",
        "autoload -U compinit && compinit -u -D; source \(file); "
          + "plugboard_words=(\(plugboard) explain --manifest=\(manifest) ''); _plugboard_type_names",
      ])
    #expect(result.status == 0, "\(result.stderr)")
    #expect(result.stdout == "Application\nGreeter\nLogger\n")
  }

  @Test func everyCommandAndOptionIsInEveryScript() throws {
    for shell in CompletionScript.shells {
      let text = try script(shell)
      for spec in CommandSpec.all {
        #expect(text.contains(spec.name), "\(shell) lacks \(spec.name)")
        for option in spec.options {
          #expect(text.contains(String(option.name.dropFirst(2))), "\(shell) lacks \(option.name)")
        }
      }
    }
  }

  @Test func quotesSurviveEachShellsQuoting() {
    #expect(CompletionScript.bashQuoted("it's") == #"'it'\''s'"#)
    #expect(CompletionScript.fishQuoted(#"it's a \ "#) == #"'it\'s a \\ '"#)
    #expect(CompletionScript.escapedForZsh("a [b]: c") == #"a \[b\]\: c"#)
  }

  @Test func anUnknownShellIsMisuse() throws {
    let result = try Subprocess.plugboard(["completion", "tcsh"])
    #expect(result.status == 2)
    #expect(
      result.stderrLines == [
        "plugboard: no completion for the shell 'tcsh'; expected one of 'bash', 'zsh', 'fish'",
        "Run 'plugboard completion --help' for usage.",
      ])
  }
}
