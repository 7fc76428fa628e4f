import PlugboardEngine

#if canImport(Glibc)
  import Glibc
#endif

/// `plugboard verify FILE… [--signature PATH] [--allowed-signers PATH]
/// [--revoked-keys PATH] [--plugin NAME] [--json]`: for a publisher's CI,
/// checks each FILE's signature (`FILE.sig`) as a deployment checks it at
/// vet (``PublisherVerification``) and prints who signed it; with an
/// allowed signers file, also the line that lets the key sign the plugin.
/// It reads files only: nothing is loaded. Each failure names the file,
/// the reason and the fix on stderr, and makes the exit status 1.
struct VerifyCommand {
  let options: ParsedOptions
  let console: any Console

  func execute() -> ExitStatus.RawValue {
    let files = options.positionals
    for option in [OptionSpec.signature, .plugin] where options.wasGiven(option) && files.count > 1 {
      return misuse(
        "\(option.name) is for one FILE, and \(files.count) were given; verify them one at a time, or "
          + "name each signature FILE.sig")
    }
    let verification: PublisherVerification
    switch PublisherVerification.make(
      allowedSigners: options[.allowedSigners], revokedKeys: options[.revokedKeys], at: time(nil))
    {
    case .success(let made): verification = made
    case .failure(let problem):
      if options.isSet(.json) {
        console.out(
          JSONText.encode(
            VerificationReport(
              results: [], allowedSigners: options[.allowedSigners], problems: [problem.text])))
      }
      console.err("plugboard: \(CommandSpec.verify.name): \(problem.text)")
      return ExitStatus.problems.rawValue
    }
    let results = files.map { file in
      let principal = options[.plugin] ?? Self.pluginName(of: file)
      return VerificationReport.Result(
        file: file, signature: options[.signature] ?? file + ".sig", plugin: principal,
        outcome: verification.verify(
          file, signature: options[.signature] ?? file + ".sig", principal: principal))
    }
    let report = VerificationReport(results: results, allowedSigners: options[.allowedSigners], problems: [])
    if options.isSet(.json) {
      console.out(JSONText.encode(report))
    } else {
      for line in report.lines { console.out(line) }
    }
    for result in results {
      if case .failure(let problem) = result.outcome {
        console.err(
          "plugboard: \(CommandSpec.verify.name): \(Terminal.sanitize(result.file)) \(problem.text)")
      }
    }
    return (report.healthy ? ExitStatus.healthy : .problems).rawValue
  }

  /// The plugin name a library's file gives, as the loader names a
  /// neighbour it checks: `libWeather.so` signs for `Weather`; any other
  /// file name stands for itself, without a `.so`.
  static func pluginName(of file: String) -> String {
    let name = file.split(separator: "/").last.map(String.init) ?? file
    if name.hasPrefix("lib"), name.hasSuffix(".so"), name.count > 6 {
      return PluginDiscovery.provisionalName(of: name)
    }
    return name.hasSuffix(".so") && name.count > 3 ? String(name.dropLast(3)) : name
  }

  private func misuse(_ message: String) -> ExitStatus.RawValue {
    for line in UsageError(message: message, command: CommandSpec.verify.name).lines { console.err(line) }
    return ExitStatus.misuse.rawValue
  }
}
