import PlugboardKit

/// Which ``Logger`` a deployment's services get: plugboard's default, or
/// the plugin registration that replaced it (the later registration wins,
/// and the default is registered before any plugin). `list` shows it.
package struct LoggerChoice: Encodable, Sendable, Equatable {
  /// The plugin whose registration serves `(any Logger)`; absent when it
  /// is plugboard's default.
  package let plugin: String?
  /// `#fileID` and line of the winning `register` call.
  package let file: String
  package let line: Int

  /// The choice in `container`; nil if nothing serves `(any Logger)`
  /// (a container plugboard did not set up).
  init?(_ container: Container) {
    self.init(registrations: container.registrations)
  }

  /// The choice among `registrations` (a container's, in registration
  /// order), for a caller that already holds them: a container makes the
  /// list afresh at each call, thousands of records for a large deployment.
  init?(registrations: [RegistrationInfo]) {
    let key = ServiceKey((any Logger).self)
    // Read in place, from the end: the default is registered first, and a
    // copy of each RegistrationInfo on the way is thousands of retains.
    var index = registrations.endIndex
    repeat {
      guard index > registrations.startIndex else { return nil }
      index -= 1
    } while registrations[index].key != key
    let winner = registrations[index]
    plugin = DefaultLogger.isDefault(winner.site) ? nil : winner.site.plugin
    file = winner.site.fileID
    line = winner.site.line
  }

  /// `Logger: plugboard's default (standard error)`, or `Logger: plugin
  /// 'JSONLog' (JSONLog/JSONLogAssembly.swift:12), replacing plugboard's default`.
  package var text: String {
    guard let plugin else { return "Logger: plugboard's default (standard error)" }
    return "Logger: plugin '\(plugin)' (\(file):\(line)), replacing plugboard's default"
  }
}
