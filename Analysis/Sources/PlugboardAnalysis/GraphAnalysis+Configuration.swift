import PlugboardKit

extension GraphAnalysis {
  /// Configuration findings for one plugin's settings: a value of the
  /// wrong type for its declaration, and (when `reportsMissing`) a
  /// required setting without a value or a default. `plugboard check`
  /// makes them for each plugin of the deployment, from the manifest, the
  /// environment and files; ``Container/check(profile:requireApplication:configurations:)``
  /// for the configurations its caller passes.
  ///
  /// - Parameters:
  ///   - problems: the problems to report, when the caller has set some of
  ///     the configuration's aside (the host: settings whose file could not
  ///     be read, reported on their own); `configuration.problems` by default.
  ///   - reportsMissing: false for a plugin that does not run in the
  ///     profile checked: it is not told of a missing value.
  public func configurationFindings(
    _ configuration: PluginConfiguration, problems: [ConfigurationError]? = nil, reportsMissing: Bool = true,
    _ hooks: ValidationHooks = ValidationHooks()
  ) -> [Finding] {
    let declarations = configuration.declarations
    return (problems ?? configuration.problems).compactMap { problem -> Finding? in
      guard let declaration = declarations.first(where: { $0.name == problem.setting }) else { return nil }
      switch problem.reason {
      case .missing where reportsMissing:
        return missingSetting(declaration, of: configuration.plugin, profile: configuration.profile, hooks)
      case .wrongType(let expected, _):
        return Finding(
          .error, .settingType,
          title: "plugin '\(problem.plugin)' setting '\(problem.setting)' has a value of the wrong type"
            + Self.inProfile(configuration.profile),
          explanation: [hooks.shown(problem.description)],
          action:
            "Give '\(problem.setting)' \(expected.phrase) at \(problem.source.map(\.description) ?? "?").")
      case .missing, .notDeclared:
        return nil
      @unknown default:
        // A reason a later Kit adds is reported where Kit reports it.
        return nil
      }
    }
  }

  private func missingSetting(
    _ declaration: SettingDeclaration, of plugin: String, profile: String?, _ hooks: ValidationHooks
  ) -> Finding {
    let lookup = hooks.settingLookup(plugin, declaration.name, profile)
    let summary = declaration.summary.isEmpty ? "" : ": \(declaration.summary)"
    return Finding(
      .error, .missingSetting,
      title: "plugin '\(plugin)' has no value for required setting '\(declaration.name)'"
        + Self.inProfile(profile),
      explanation: [
        declaration.listing + summary,
        "Looked in, in order: \(lookup.places.joined(separator: ", ")); none is set and the setting has no "
          + "default.",
      ],
      action: lookup.action)
  }

  /// ` in profile 'mock'`, or nothing.
  static func inProfile(_ profile: String?) -> String {
    profile.map { " in profile '\($0)'" } ?? ""
  }
}

extension SettingDeclaration {
  /// `baseURL (String, default "https://…")`, `apiToken (String, optional, secret)`:
  /// how a finding lists a declared setting, a secret's default hidden.
  public var listing: String {
    var traits = [type.swiftName]
    if let value = defaultValue {
      traits.append("default \(value.shown(secret: secret))")
    } else {
      traits.append(required ? "required" : "optional")
    }
    if secret { traits.append("secret") }
    return "\(name) (\(traits.joined(separator: ", ")))"
  }
}
