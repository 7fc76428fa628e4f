import AppContracts

/// A secure store that keeps nothing.
struct ForgetfulStore: SecureStore {
  func set(_ secret: String, for account: String) {}

  func secret(for account: String) -> String? { nil }
}
