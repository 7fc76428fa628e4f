import AppContracts

/// The app's "Help" section: how to sign in as someone else. Last in the
/// menu (order 90), whichever plugins contribute before it.
struct HelpFeature: AppFeature {
  var title: String { "Help" }

  func render(for user: User) async throws -> [String] {
    ["Help: plugboard run -- --user NAME --password SECRET"]
  }
}
