/// A scope of your own: one instance per registration and container, shared
/// like `.container` until ``Container/resetObjectScope(_:)`` drops every
/// instance of the scope, after which the next request makes a new one.
///
/// The usual one is a session: declare it once, register session-wide
/// services in it, and reset it at sign-out.
///
/// ```swift
/// extension CustomScope {
///   static let session = CustomScope("session")
/// }
/// container.register(Cart.self) { _ in Cart() }.inObjectScope(.session)
/// container.resetObjectScope(.session)  // at sign-out
/// ```
///
/// A scope keeps its instances strongly by default. A `.weak` scope, as
/// Swinject's `ObjectScope(storageFactory: WeakStorage.init)`, keeps each
/// class instance only while something else holds it, and makes a new one
/// after the last holder lets go or after a reset, whichever comes first:
///
/// ```swift
/// extension CustomScope {
///   static let screen = CustomScope("screen", storage: .weak)
/// }
/// ```
///
/// A value type in a weak scope cannot be held weakly and is kept
/// strongly until the reset.
///
/// Scopes are told apart by identity, not by name. Making an instance is
/// exactly-once per scope generation, as for `.container`, and resetting
/// is safe from any thread: a construction that was under way when the
/// scope was reset hands its instance to its own caller but does not keep
/// it, so no instance of the old session outlives the reset.
public final class CustomScope: Sendable, CustomStringConvertible {
  /// The name listings and diagnostics show.
  public let name: String

  /// How the scope keeps its instances between resets.
  public let storage: Storage

  /// Makes each registration's ``InstanceStorage``, for a scope made with
  /// a storage factory; `nil` for the `storage:` scopes above.
  let storageFactory: StorageFactory?

  /// Creates a scope; `name` is for display.
  public init(_ name: String, storage: Storage = .strong) {
    self.name = name
    self.storage = storage
    self.storageFactory = nil
  }

  /// A scope whose registrations keep their instances in storages `make`
  /// gives (see CustomScope+Storage.swift).
  init(_ name: String, storageFactory make: @escaping () -> any InstanceStorage) {
    self.name = name
    self.storage = .strong
    self.storageFactory = StorageFactory(make: make)
  }

  /// How a ``CustomScope`` keeps an instance until the scope is reset.
  public enum Storage: Sendable {
    /// Until the reset.
    case strong
    /// Until the reset or until nothing else holds it, whichever is first.
    case weak
  }

  public var description: String { name }
}

/// A weak scope's hold on an instance.
private final class WeakInstance {
  weak var object: AnyObject?
  init(_ object: AnyObject) { self.object = object }
}

extension RegistrationRecord {
  /// The instance at `out` as the custom scope keeps it: boxed, or held
  /// weakly in a weak scope.
  func keptForScope(_ out: UnsafeMutableRawPointer) -> Any {
    if customScope?.storage == .weak, let object = object(at: out) { return WeakInstance(object) }
    return boxed(out)
  }

  /// The instance `kept` (from ``keptForScope(_:)``) holds, if it still
  /// holds one.
  func instance(fromKept kept: Any) -> Any? {
    guard let weak = kept as? WeakInstance else { return kept }
    return weak.object
  }

  /// Whether `kept` (from ``keptForScope(_:)``) still holds an instance.
  func holdsInstance(_ kept: Any?) -> Bool {
    guard let kept else { return false }
    guard let weak = kept as? WeakInstance else { return true }
    return weak.object != nil
  }

  /// Initializes `out` from what ``keptForScope(_:)`` kept, if it still
  /// holds an instance of the type.
  func initialize(_ out: UnsafeMutableRawPointer, fromKept kept: Any) -> Bool {
    guard let weak = kept as? WeakInstance else { return initialize(out, fromBoxed: kept) }
    guard let object = weak.object else { return false }
    return initialize(out, from: object)
  }
}
