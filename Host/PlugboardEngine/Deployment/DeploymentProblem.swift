/// One thing wrong with a deployment, as a value: the stage it was found
/// at, the plugin and file concerned, and a complete sentence saying what
/// was expected and what was found.
///
/// Rendered as `<stage>: <message>`, for example
/// `check versions: plugin 'Auth' (/srv/libAuth.so) was compiled by Swift
/// 6.2.0; this host was compiled by Swift 6.3.1 — rebuild the plugin with the
/// host's toolchain`.
public struct DeploymentProblem: Error, Equatable, Sendable, CustomStringConvertible {
  public let stage: LoadStage
  /// The plugin's name as the manifest gives it, when a plugin is concerned.
  public let plugin: String?
  /// The file concerned: the plugin's library, or the manifest.
  public let file: String?
  /// The complete sentence, naming the plugin and file itself.
  public let message: String
  /// `dlerror()`'s text, when the dynamic loader gave one.
  public let systemMessage: String?

  public init(
    stage: LoadStage, plugin: String?, file: String?, message: String, systemMessage: String? = nil
  ) {
    self.stage = stage
    self.plugin = plugin
    self.file = file
    self.message = message
    self.systemMessage = systemMessage
  }

  /// A problem with the plugin `name` whose library is `file`: the message
  /// starts `plugin 'name' (file)` followed by `detail`.
  static func plugin(
    _ name: String, file: String, stage: LoadStage, _ detail: String, systemMessage: String? = nil
  ) -> DeploymentProblem {
    DeploymentProblem(
      stage: stage, plugin: name, file: file, message: "plugin '\(name)' (\(file)) \(detail)",
      systemMessage: systemMessage)
  }

  public var description: String { "\(stage.rawValue): \(message)" }
}
