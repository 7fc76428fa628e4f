/// The sample app's extension point: one section of what the app shows
/// after sign-in.
///
/// Any plugin adds one with
/// `container.contribute((any AppFeature).self, name: "…", order: …) { r in … }`.
/// The app resolves `Contributions<any AppFeature>` and shows every
/// contribution in order without naming any, so a plugin dropped into
/// `plugins.d` that contributes a feature appears with no change to the app.
public protocol AppFeature: Sendable {
  /// The section's name in the app's menu.
  var title: String { get }

  /// The section's lines for the signed-in `user`.
  func render(for user: User) async throws -> [String]
}
