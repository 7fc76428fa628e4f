extension Container: CustomStringConvertible {
  /// This container's registrations (not its parent's), one per line and
  /// sorted, in the form of Swinject's `description`, so that a log line
  /// or a test written against Swinject reads the same:
  ///
  /// ```
  /// [
  ///     { Service: Animal, Name: "Hachi", Factory: Resolver -> Animal, ObjectScope: container },
  ///     { Service: Dog, Factory: (Resolver, String) -> Dog, ObjectScope: graph }
  /// ]
  /// ```
  ///
  /// Type names are unqualified; a name is escaped as in a Swift string
  /// literal; a custom scope shows its name; `InitCompleted: Specified N
  /// closures` is added when the registration has handlers. For sites,
  /// profiles and dependencies, see ``registrations``.
  public var description: String {
    let lines = registry.records.map { record in
      "\n    { " + Self.describe(record) + " }"
    }
    return "[" + lines.sorted().joined(separator: ",") + "\n]"
  }

  /// The name as its user wrote it, after the kind for a decorator and a
  /// contribution (`Decorator: "timing"`, `Contribution: #3` when
  /// unnamed).
  private static func nameField(of key: ServiceKey) -> String {
    let name = key.name.map { "\"\(ServiceKey.escaped($0))\"" }
    switch key.role.kind {
    case .decorator: return ", Decorator: " + (name ?? "#\(key.role.sequence)")
    case .contribution: return ", Contribution: " + (name ?? "#\(key.role.sequence)")
    default: return name.map { ", Name: " + $0 } ?? ""
    }
  }

  private static func describe(_ record: RegistrationRecord) -> String {
    let key = record.key
    let service = key.service.shortName
    // Swinject's spelling: a lone parameter bare, several in parentheses.
    let parameters =
      key.arguments.isEmpty
      ? "Resolver" : "(" + (["Resolver"] + key.arguments.map(\.shortName)).joined(separator: ", ") + ")"
    var text = "Service: \(service)"
    text += nameField(of: key)
    text += ", Factory: \(parameters) -> \(service)"
    let metadata = record.readingMetadata { ($0.customScope, $0.initCompleted.count) }
    let scope = record.isCustomScoped ? metadata.0?.name : nil
    text += ", ObjectScope: \(scope ?? record.scope.description)"
    if metadata.1 > 0 { text += ", InitCompleted: Specified \(metadata.1) closures" }
    return text
  }
}
