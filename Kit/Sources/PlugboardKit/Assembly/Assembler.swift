/// Applies assemblies to a container in order and hands out the resolver.
///
/// ```swift
/// let assembler = try Assembler([StorageAssembly(), NetworkAssembly()])
/// let store = try assembler.resolver.resolve(UserStore.self)
/// ```
///
/// All assemblies of one `apply` register first; then each one's
/// `loaded(resolver:)` runs, in the same order.
public final class Assembler {
  /// The container the assemblies register into.
  public let container: Container

  /// The container, as a resolver.
  public var resolver: Resolver { container }

  /// Creates an assembler over `container` (a new one by default, or when
  /// `nil`, as Swinject's `Assembler(container: Container?)`) and applies
  /// `assemblies`: `try Assembler([AppAssembly()], container: shared)`.
  /// - Throws: ``AssemblyError`` naming the assembly that failed.
  public convenience init(_ assemblies: [any Assembly] = [], container: Container? = Container())
    throws
  {
    self.init(over: container ?? Container())
    try apply(assemblies: assemblies)
  }

  /// An assembler over `container`, with nothing applied yet.
  private init(over container: Container) {
    self.container = container
  }

  /// Creates an assembler over a new container whose registrations default
  /// to `defaultObjectScope`, and applies `assemblies`, as Swinject's
  /// `Assembler(_:defaultObjectScope:behaviors:)`; `behaviors` are told
  /// of each registration (see ``Behavior``).
  /// - Throws: ``AssemblyError`` naming the assembly that failed.
  public convenience init(
    _ assemblies: [any Assembly] = [], defaultObjectScope: ObjectScope,
    behaviors: [any Behavior] = []
  ) throws {
    try self.init(
      assemblies, container: Container(defaultObjectScope: defaultObjectScope, behaviors: behaviors))
  }

  /// Creates an assembler whose container is a child of `parentAssembler`'s
  /// (or a container of its own when `nil`), with no assemblies applied
  /// yet, as Swinject's `Assembler(parentAssembler:defaultObjectScope:behaviors:)`:
  /// `let feature = Assembler(parentAssembler: app)`, then
  /// `try feature.apply(assembly: FeatureAssembly())`.
  ///
  /// `defaultObjectScope` defaults to the parent's, as for
  /// ``init(_:parent:defaultObjectScope:behaviors:)``; pass `.graph` for
  /// Swinject's.
  public convenience init(
    parentAssembler: Assembler?, defaultObjectScope: ObjectScope? = nil,
    behaviors: [any Behavior] = []
  ) {
    self.init(
      over: Container(
        parent: parentAssembler?.container,
        defaultObjectScope: defaultObjectScope ?? parentAssembler?.container.defaultObjectScope ?? .graph,
        behaviors: behaviors))
  }

  /// Creates an assembler whose container is a child of `parent`'s: it sees
  /// the parent's registrations and can override them without touching it.
  /// A `nil` parent (Swinject's optional `parent:`) makes a container of
  /// its own, `.graph` by default:
  /// `try Assembler([FeatureAssembly()], parent: appAssembler)`.
  ///
  /// Unlike Swinject, whose child assembler defaults to `.graph`, the child
  /// inherits the parent's default scope when `defaultObjectScope` is `nil`:
  /// a feature assembled under a `.container`-default app stays singleton
  /// by default. Pass `.graph` to get Swinject's behaviour. `behaviors`
  /// are told of each registration in the child (see ``Behavior``).
  /// - Throws: ``AssemblyError`` naming the assembly that failed.
  public convenience init(
    _ assemblies: [any Assembly], parent: Assembler?, defaultObjectScope: ObjectScope? = nil,
    behaviors: [any Behavior] = []
  ) throws {
    self.init(parentAssembler: parent, defaultObjectScope: defaultObjectScope, behaviors: behaviors)
    try apply(assemblies: assemblies)
  }

  /// Applies one more assembly.
  public func apply(assembly: any Assembly) throws {
    try apply(assemblies: [assembly])
  }

  /// Registers every assembly in order, then runs each `loaded(resolver:)`.
  /// - Throws: ``AssemblyError``; assemblies before the failing one stay
  ///   registered.
  public func apply(assemblies: [any Assembly]) throws {
    for assembly in assemblies {
      do { try assembly.assemble(container: container) } catch {
        throw AssemblyError(assembly: type(of: assembly), stage: .assemble, underlying: error)
      }
    }
    for assembly in assemblies {
      do { try assembly.loaded(resolver: container) } catch {
        throw AssemblyError(assembly: type(of: assembly), stage: .loaded, underlying: error)
      }
    }
  }
}

/// An assembly threw while registering or in `loaded(resolver:)`.
public struct AssemblyError: Error, CustomStringConvertible {
  public enum Stage: String, Sendable {
    case assemble = "assemble(container:)"
    case loaded = "loaded(resolver:)"
  }

  /// The assembly's fully qualified type name.
  public let assembly: String
  public let stage: Stage
  public let underlying: any Error

  public init(assembly: any Any.Type, stage: Stage, underlying: any Error) {
    self.assembly = String(reflecting: assembly)
    self.stage = stage
    self.underlying = underlying
  }

  public var description: String {
    "\(assembly).\(stage.rawValue) threw: \(ResolutionError.describe(underlying))"
  }
}
