import PlugboardAnalysis
import PlugboardKit

/// Configuration findings: for every plugin of the manifest, its settings
/// in the profile checked, against what it declares (learned from the
/// loaded plugin, or from its probe when the profile leaves it out).
extension DeploymentChecker {
  func configurationFindings(_ hooks: ValidationHooks) -> [Finding] {
    let profile = deployment.profile?.declaration
    let resolver = ConfigurationResolver(environment: environment)
    var byName: [String: ResolvedConfiguration] = [:]
    for resolved in deployment.configurations { byName[resolved.entry.name] = resolved }
    var probed: [Int: [SettingDeclaration]] = [:]
    for probe in probes { probed[probe.entry.index] = probe.settings }
    var findings: [Finding] = []
    for outcome in deployment.outcomes {
      let entry = outcome.entry
      if let resolved = byName[entry.name] {
        findings +=
          self.findings(resolved, loads: true, hooks) + exposedSecrets(resolved, files: resolver.files)
      } else if case .disabled = outcome, entry.enabled, let declarations = probed[entry.index] {
        let (configuration, unknown) = resolver.resolve(entry, profile: profile, declarations: declarations)
        var resolved = ResolvedConfiguration(entry: entry, configuration: configuration, unknown: unknown)
        resolved.fileProblems = resolver.fileProblems(of: entry, declarations: declarations)
        findings +=
          self.findings(resolved, loads: false, hooks) + exposedSecrets(resolved, files: resolver.files)
      }
    }
    return findings + strayVariables(configured: byName, probed: probed, files: resolver.files)
  }

  /// `PLUGBOARD_CONFIG_` variables, and files of the credentials folder,
  /// that name no setting any plugin declares: a typo there would
  /// otherwise be silently ignored. Only when every enabled plugin's
  /// declarations are known (none failed).
  private func strayVariables(
    configured: [String: ResolvedConfiguration], probed: [Int: [SettingDeclaration]], files: SettingFiles
  )
    -> [Finding]
  {
    // A variable set directly wins over the credential of its name, and is
    // warned of itself.
    let credentials = files.credentials.map { found in
      (folder: found.folder, names: found.names.filter { environment[$0] == nil })
    }
    // Nothing to look for, and no declaration to gather, without such a variable or credential.
    guard
      environment.keys.contains(where: { $0.hasPrefix(ConfigurationVariable.prefix) })
        || credentials?.names.isEmpty == false
    else { return [] }
    guard let known = declaredVariables(configured: configured, probed: probed) else { return [] }
    let declared = Set(known)
    let stray = environment.keys.filter {
      $0.hasPrefix(ConfigurationVariable.prefix) && !declared.contains(SettingFiles.variable(givenBy: $0))
    }
    // The environment is as long as whoever starts plugboard makes it: past
    // the listed ones, a variable is counted, not given a did-you-mean.
    var findings = ListedProblems<Finding>()
    for variable in stray.sorted() { findings.append(Self.strayVariable(variable, known: known)) }
    if let credentials {
      for name in credentials.names where !declared.contains(name) {
        findings.append(Self.strayCredential(name, in: credentials.folder, known: known))
      }
    }
    guard let unlisted = findings.unlistedSummary else { return findings.listed }
    return findings.listed + [
      Finding(
        .warning, .unknownSettingVariable,
        title:
          "\(findings.unlisted) more \(ConfigurationVariable.prefix) variables name no setting any plugin "
          + "declares, so they are ignored",
        explanation: [unlisted + "."],
        action: "Correct or unset the variables listed above, then run plugboard check again.")
    ]
  }

  /// The variable of every setting the enabled plugins declare; nil when
  /// a plugin's declarations are unknown (it was neither configured nor
  /// probed), when no variable can be called stray. The outcomes, not the
  /// manifest's list: plugins found in drop-in folders declare settings too.
  private func declaredVariables(
    configured: [String: ResolvedConfiguration], probed: [Int: [SettingDeclaration]]
  ) -> [String]? {
    var known: [String] = []
    for entry in deployment.outcomes.map(\.entry) where entry.enabled {
      guard let declarations = configured[entry.name]?.configuration.declarations ?? probed[entry.index]
      else {
        return nil
      }
      known += declarations.map { ConfigurationVariable.name(plugin: entry.name, setting: $0.name) }
    }
    return known
  }

  /// The warning for a `PLUGBOARD_CONFIG_` variable that sets nothing.
  private static func strayVariable(_ variable: String, known: [String]) -> Finding {
    Finding(
      .warning, .unknownSettingVariable,
      title: "\(Terminal.sanitize(variable)) names no setting any plugin declares, so it is ignored",
      explanation: [
        "A variable \(ConfigurationVariable.prefix)<PLUGIN>_<SETTING> sets a plugin's setting: the plugin's "
          + "and the setting's names upper-cased, other characters than letters and digits as _."
      ],
      suggestions: KeySuggestion.closest(to: variable, among: known).map { [$0] } ?? [],
      action: "Correct the variable's name (see Docs/configuration.md), or unset it.")
  }

  /// The warning for a file of the credentials folder that sets nothing.
  private static func strayCredential(_ name: String, in folder: String, known: [String]) -> Finding {
    Finding(
      .warning, .unknownSettingVariable,
      title:
        "the credential file \(Terminal.sanitize(name)) in \(Terminal.sanitize(folder)) "
        + "(\(SettingFiles.credentialsVariable)) names no setting any plugin declares, so it is ignored",
      explanation: [
        "A file of the credentials folder (systemd's LoadCredential=) is named as the variable it sets: "
          + "\(ConfigurationVariable.prefix)<PLUGIN>_<SETTING>, the plugin's and the setting's names "
          + "upper-cased, other characters than letters and digits as _."
      ],
      suggestions: KeySuggestion.closest(to: name, among: known).map { [$0] } ?? [],
      action:
        "Correct the credential's name (the name before the colon in LoadCredential=; see "
        + "Docs/configuration.md), or remove it.")
  }

  /// Secret settings whose value others than their owner can read, where
  /// it is given: a file group or others can read, or a manifest they can.
  /// Warned of as ssh warns of a private key others can read: the value
  /// works, and whoever reads it has it too.
  private func exposedSecrets(_ resolved: ResolvedConfiguration, files: SettingFiles) -> [Finding] {
    let configuration = resolved.configuration
    let plugin = resolved.entry.name
    return configuration.declarations.filter(\.secret).compactMap { declaration in
      guard let value = configuration.values[declaration.name] else { return nil }
      let exposure: String
      let fix: String
      switch value.source {
      case .environment:
        let variable = ConfigurationVariable.name(plugin: plugin, setting: declaration.name)
        guard let text = files.exposures[variable] else { return nil }
        exposure = text
        fix =
          "Make the file readable by its owner alone (chmod go-r), or by a group only the service's user is in."
      case .manifest(let keyPath), .profile(_, let keyPath):
        guard let status = FileTrust.status(deployment.manifest.path),
          let readers = FileTrust.readers(
            status, acl: AccessControlList.of(deployment.manifest.path), at: deployment.manifest.path)
        else { return nil }
        let manifest = Terminal.sanitize(deployment.manifest.path)
        exposure =
          "Its value is written at \(keyPath) in the manifest \(manifest), which \(readers) can read "
          + "(\(FileTrust.describe(status)))."
        fix =
          "Give the value through a file only you can read (PLUGBOARD_CONFIG_<PLUGIN>_<SETTING>_FILE, or "
          + "systemd's LoadCredential=) and remove it from the manifest, or chmod go-r \(manifest)."
      default: return nil
      }
      return Finding(
        .warning, .settingFile,
        title: "plugin '\(plugin)' has its secret setting '\(declaration.name)' where others can read it"
          + ConfigurationText.inProfile(configuration.profile),
        explanation: [
          exposure.hasSuffix(".") ? exposure : exposure + ".",
          "A secret setting's value is for the plugin alone: whoever can read where it is given has it too.",
        ],
        action: fix + " See Docs/configuration.md.")
    }
  }

  /// Whether `problem` is a plugin failing at the configure stage because
  /// of problems ``configurationFindings()`` reports one by one.
  func isReportedAsConfiguration(_ problem: DeploymentProblem) -> Bool {
    problem.stage == .configure
      && deployment.configurations.contains { $0.entry.name == problem.plugin && !$0.isValid }
  }

  /// A plugin the profile leaves out is not told of a missing required
  /// value: it does not run there. The settings' own findings are Kit's
  /// (``GraphAnalysis/configurationFindings(_:problems:reportsMissing:_:)``,
  /// shared with `Container.check`); files and unknown keys are the
  /// deployment's.
  private func findings(_ resolved: ResolvedConfiguration, loads: Bool, _ hooks: ValidationHooks) -> [Finding]
  {
    let configuration = resolved.configuration
    let declarations = configuration.declarations
    var findings = analysis.configurationFindings(
      configuration, problems: resolved.problems, reportsMissing: loads, hooks)
    for problem in resolved.fileProblems.map(\.text) {
      findings.append(
        Finding(
          .error, .settingFile,
          title: "plugin '\(resolved.entry.name)' is given a setting by a file it cannot use"
            + ConfigurationText.inProfile(configuration.profile),
          explanation: [
            problem,
            "A setting's value can come from a file (PLUGBOARD_CONFIG_<PLUGIN>_<SETTING>_FILE, or systemd's "
              + "credentials folder); a file that cannot be used is not skipped.",
          ],
          action: "Make the file readable, owned by root or you and writable by no one else, or unset the "
            + "variable that names it (see Docs/configuration.md)."))
    }
    for unknown in resolved.unknown {
      let declared = declarations.map(ConfigurationText.declaration).joined(separator: ", ")
      findings.append(
        Finding(
          .error, .unknownSetting,
          title:
            "plugin '\(unknown.plugin)' has no setting '\(Terminal.sanitize(unknown.name))' (\(unknown.source))"
            + ConfigurationText.inProfile(configuration.profile),
          explanation: [
            declarations.isEmpty
              ? "Plugin '\(unknown.plugin)' declares no settings."
              : "Plugin '\(unknown.plugin)' declares: \(declared)."
          ],
          suggestions: unknown.suggestion.map { [$0] } ?? [],
          action: unknown.suggestion.map { "Rename it to \"\($0)\" at \(unknown.source)." }
            ?? "Remove it from \(unknown.source), or declare the setting in plugin '\(unknown.plugin)'."))
    }
    return findings
  }

  /// Where `plugboard check` looks for a plugin's setting, in order, and
  /// where to set it: the environment, the profile's block, the entry's.
  func settingLookup(plugin: String, setting: String, profile: String?) -> ValidationHooks.SettingLookup {
    let variable = ConfigurationVariable.name(plugin: plugin, setting: setting)
    let entryPlace = "plugins[\(outcome(of: plugin)?.entry.index ?? 0)].config"
    let profilePlace = profile.map { "profiles.\($0).config.\(plugin)" }
    let places =
      [variable] + (profilePlace.map { [$0 + ".\(setting)"] } ?? []) + [entryPlace + ".\(setting)"]
    let whereToSet =
      profilePlace.map { "in \(entryPlace) (every profile) or in \($0) (this profile)" } ?? "in \(entryPlace)"
    return ValidationHooks.SettingLookup(
      places: places, action: "Set \"\(setting)\" \(whereToSet), or export \(variable).")
  }
}
