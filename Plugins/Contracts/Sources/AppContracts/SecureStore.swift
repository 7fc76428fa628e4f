/// Data layer: where secrets such as session tokens are kept (a keychain).
public protocol SecureStore: Sendable {
  func set(_ secret: String, for account: String)
  func secret(for account: String) -> String?
}
