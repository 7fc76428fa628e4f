/// Keeps nothing, as Swinject's `TransientStorage`: every request makes a
/// new instance.
public final class TransientStorage: InstanceStorage {
  public var instance: Any? {
    get { nil }
    // A transient instance is never kept.
    set {}
  }
  public init() {}
}
