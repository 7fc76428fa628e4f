/// How long an instance made by a registration lives, and who shares it.
///
/// ```swift
/// container.register(Database.self) { _ in Database() }
///   .inObjectScope(.container)  // one for the container's life
/// container.register(Request.self) { _ in Request() }
///   .inObjectScope(.transient)  // a new one for every request
/// ```
///
/// A registration without `inObjectScope` takes the container's
/// `defaultObjectScope`, `.graph` unless the container was made with
/// another.
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
  /// One instance per ``ServiceScope``, made lazily on first use in that
  /// scope and exactly once, as `.container` is once per container; when
  /// the scope ends its instances are disposed (`onDispose`),
  /// newest first. This is .NET's `AddScoped` and `IServiceScope`: one
  /// request, job or session per scope.
  ///
  /// ```swift
  /// container.register(UnitOfWork.self) { r in UnitOfWork(try r.resolve()) }
  ///   .inObjectScope(.scoped)
  ///   .onDispose { work in try await work.commit() }
  /// try await container.withScope { scope in
  ///   try await handle(request, using: try scope.resolve(UnitOfWork.self))
  /// }
  /// ```
  ///
  /// A case of this enum rather than a ``CustomScope``: a custom scope has
  /// one instance per container until it is reset, shared by every thread,
  /// while a `.scoped` instance belongs to the scope that resolved it, and
  /// many scopes live at once; and `.inObjectScope(.scoped)` reads as what
  /// users of .NET's `AddScoped` (and Swinject users looking for it) expect.
  ///
  /// Resolving a `.scoped` service outside any scope (from the container
  /// itself, or from a `.container` factory, which always resolves from
  /// the container that registered it) throws a ``ResolutionError`` that
  /// names the fix, as .NET's "cannot resolve scoped service from root
  /// provider".
  case scoped

  public var description: String {
    switch self {
    case .transient: "transient"
    case .graph: "graph"
    case .container: "container"
    case .weak: "weak"
    case .scoped: "scoped"
    }
  }
}

/// The raw values of the two scopes the inlined resolve tells apart, as
/// constants. ``ObjectScope`` is not frozen (a release may add a scope), so
/// a client cannot read a case's raw value without calls into PlugboardKit;
/// these values are fixed for the major version instead (Kit/ABI.md), and
/// a test checks that they agree with the enum.
@usableFromInline
enum RawScope {
  @inlinable static var transient: UInt8 { 0 }
  @inlinable static var graph: UInt8 { 1 }
}
