extension RegistrationInfo {
  /// How reports name one of this registration's hooks (`"start"`,
  /// `"stop"`, `"dispose"`): the plugin, the hook, the service and its
  /// site, so that a failure says whose code to look at.
  ///
  /// ```swift
  /// info.hookSubject("stop")  // plugin 'Auth': the stop hook of AuthService (Auth/AuthAssembly.swift:7)
  /// ```
  public func hookSubject(_ hook: String) -> String {
    let owner = site.plugin.map { "plugin '\($0)': " } ?? ""
    return "\(owner)the \(hook) hook of \(key.shortDescription) (\(site.fileID):\(site.line))"
  }
}
