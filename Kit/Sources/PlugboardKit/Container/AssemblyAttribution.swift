/// The right to say which plugin a container's registrations belong to,
/// held by whoever made the container: a host that assembles plugins' code
/// into one container keeps it, so that what `list`, `explain` and the
/// manifest's per-plugin rules read as a registration's plugin is the
/// plugin whose code made it.
///
/// It is a value the maker holds, not a declaration hidden from plugins:
/// it exists only for a container it made, so code handed that container
/// (a plugin's assemblies) has no way to get it. In such a container
/// ``Container/attributing(to:_:)`` cannot move registrations to another
/// plugin; a call that tries is recorded in ``refused``.
///
/// ```swift
/// let attribution = AssemblyAttribution()
/// let container = attribution.container
/// attribution.assembling(plugin: "Auth") {
///   AuthAssembly().assemble(container: container)
/// }
/// if let attempt = attribution.refused.first {
///   print("\(attempt.plugin ?? "the host") registered in the name of \(attempt.claimed ?? "no plugin")")
/// }
/// ```
public final class AssemblyAttribution: Sendable {
  /// The container whose attribution this holds.
  public let container: Container

  /// Makes a container whose attribution only this value changes.
  /// - Parameters: as ``Container/init(parent:defaultObjectScope:behaviors:maximumDepth:)``.
  public init(
    parent: Container? = nil, defaultObjectScope: ObjectScope = .graph, maximumDepth: Int = 100_000
  ) {
    container = Container(parent: parent, defaultObjectScope: defaultObjectScope, maximumDepth: maximumDepth)
    container.state.withLock { $0.attributionIsHosts = true }
  }

  /// Runs `body` (the host's own registering, or a plugin's assemblies)
  /// with every registration it makes attributed to `plugin`, `nil` for no
  /// plugin; a call of ``Container/attributing(to:_:)`` inside it naming
  /// another is recorded in ``refused`` and changes nothing.
  @discardableResult
  public func assembling<Result>(plugin: String?, _ body: () throws -> Result) rethrows -> Result {
    let number = RecordSite.plugin(plugin)
    let previous = container.state.withLock { state in
      defer { state.plugin = number }
      return state.plugin
    }
    defer { container.state.withLock { $0.plugin = previous } }
    return try body()
  }

  /// Every call of ``Container/attributing(to:_:)`` that named another
  /// plugin than the one being assembled, in the order they were made.
  public var refused: [RefusedAttribution] {
    container.state.withLock { $0.refusedAttributions }
  }
}

/// A call of ``Container/attributing(to:_:)`` in a container whose
/// attribution an ``AssemblyAttribution`` holds, naming another plugin (or
/// none) than the one being assembled: a plugin trying to register in
/// another's name. The registrations it made stayed the plugin's own.
public struct RefusedAttribution: Equatable, Sendable {
  /// The plugin being assembled, whose code made the call; `nil` when the
  /// call came while the holder itself was registering.
  public let plugin: String?
  /// The plugin the call named; `nil` for no plugin (the holder's own).
  public let claimed: String?

  public init(plugin: String?, claimed: String?) {
    self.plugin = plugin
    self.claimed = claimed
  }
}
