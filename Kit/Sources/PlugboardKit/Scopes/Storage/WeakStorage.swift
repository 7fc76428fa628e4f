/// Keeps its instance while something else holds it, as Swinject's
/// `WeakStorage`. Only a class instance can be held weakly: a value type
/// is never kept.
public final class WeakStorage: InstanceStorage {
  private weak var object: AnyObject?

  public var instance: Any? {
    get { object }
    set { object = newValue.flatMap(WeakStorage.reference) }
  }

  public init() {}

  /// `value` as an object that may be held weakly, or `nil` for a value
  /// type (whose box would die at once).
  static func reference(_ value: Any) -> AnyObject? {
    type(of: value) is AnyClass ? value as AnyObject : nil
  }
}
