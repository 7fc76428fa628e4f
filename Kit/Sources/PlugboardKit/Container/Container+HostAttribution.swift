/// A call of ``Container/attributing(to:_:)`` made while the host was
/// assembling a plugin, naming another plugin (or none): a plugin trying to
/// register in another's name. The registrations it made stayed the
/// plugin's own.
@_spi(Host) public struct RefusedAttribution: Equatable, Sendable {
  /// The plugin being assembled, whose code made the call; `nil` when the
  /// call came while the host itself was registering.
  public let plugin: String?
  /// The plugin the call named; `nil` for no plugin (the host's own).
  public let claimed: String?

  public init(plugin: String?, claimed: String?) {
    self.plugin = plugin
    self.claimed = claimed
  }
}

extension Container {
  /// Runs `body`, the host's registering or a plugin's assemblies, with
  /// every registration it makes attributed to `plugin`, and makes
  /// attribution the host's from then on: ``attributing(to:_:)`` no longer
  /// changes it, in `body` or after, and a call of it naming another
  /// plugin is recorded in ``refusedAttributions``. The host wraps each
  /// plugin's assemblies in this, so what `list`, `explain` and the
  /// manifest's rules read as a registration's plugin is the plugin whose
  /// code made it.
  @_spi(Host) @discardableResult
  public func assembling<Result>(plugin: String?, _ body: () throws -> Result) rethrows -> Result {
    let number = RecordSite.plugin(plugin)
    let previous = state.withLock { state in
      state.attributionIsHosts = true
      defer { state.plugin = number }
      return state.plugin
    }
    defer { state.withLock { $0.plugin = previous } }
    return try body()
  }

  /// Every call of ``attributing(to:_:)`` that named another plugin than
  /// the one being assembled, in the order they were made.
  @_spi(Host) public var refusedAttributions: [RefusedAttribution] {
    state.withLock { $0.refusedAttributions }
  }
}
