import AppContracts

/// The app's "Account" section: who is signed in.
struct AccountFeature: AppFeature {
  var title: String { "Account" }

  func render(for user: User) async throws -> [String] {
    ["Account: \(user.displayName) (\(user.login))"]
  }
}
