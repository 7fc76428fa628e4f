/// How long an instance made by a registration lives, and who shares it.
///
/// The names and meanings follow Swinject, so assemblies port unchanged.
public enum ObjectScope: UInt8, Sendable, CaseIterable, CustomStringConvertible {
  /// A new instance for every resolution.
  case transient
  /// One instance shared by everything resolved within one top-level
  /// `resolve` call; the next top-level call makes a new one.
  case graph
  /// One instance per container, made lazily on first use and exactly once,
  /// however many threads ask for it at the same moment. Others wait while
  /// one thread makes it; threads whose `.container` instances need each
  /// other get a cycle error instead of a deadlock. A factory that blocks
  /// on other work (a semaphore, `DispatchQueue.sync`, a thread it joins)
  /// that resolves the instance being made deadlocks, unseen: resolve
  /// dependencies through the resolver the factory is given.
  case container
  /// Shared while someone else holds a strong reference to it; made again
  /// once the last holder lets go. As in Swinject it is composed with
  /// `.graph`: within one top-level `resolve` the instance is also kept,
  /// so everything that resolution makes shares it. Only class instances
  /// can be held weakly: a value type registered `.weak` behaves as
  /// `.transient`.
  case weak

  public var description: String {
    switch self {
    case .transient: "transient"
    case .graph: "graph"
    case .container: "container"
    case .weak: "weak"
    }
  }
}
