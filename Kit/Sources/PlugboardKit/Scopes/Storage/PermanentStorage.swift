/// Keeps its instance until the scope is reset, as Swinject's
/// `PermanentStorage` (the storage of `.container`).
public final class PermanentStorage: InstanceStorage {
  public var instance: Any?
  public init() {}
}
