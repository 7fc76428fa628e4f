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

  /// The name as its user wrote it: a decorator and a contribution are
  /// stored under reserved names, and show the kind and the name given
  /// (`Decorator: "timing"`, `Contribution: #3` when unnamed) instead.
  private static func nameField(of key: ServiceKey) -> String {
    if key.isDecorator {
      return ", Decorator: "
        + (key.decoratorName.map { "\"\(ServiceKey.escaped($0))\"" } ?? sequence(of: key))
    }
    if key.isContribution {
      return ", Contribution: "
        + (key.contributionName.map { "\"\(ServiceKey.escaped($0))\"" } ?? sequence(of: key))
    }
    return key.name.map { ", Name: \"\(ServiceKey.escaped($0))\"" } ?? ""
  }

  /// `#3` from a reserved name `"\u{0}decorator #3"`.
  private static func sequence(of key: ServiceKey) -> String {
    guard let name = key.name, let hash = name.firstIndex(of: "#") else { return "" }
    return String(name[hash...].prefix { $0 != ":" })
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
