import PlugboardKit

/// One thing a check of the dependency graph found, as a value: how
/// serious it is, what it is, and everything its report says.
///
/// `plugboard check` and ``Container/check(profile:requireApplication:configurations:)`` make findings with
/// one analysis, so a finding reads the same in a unit test as in the
/// deployment's report: ``lines`` is the text both print, and `check
/// --json` encodes the same value.
///
/// ```swift
/// for finding in container.check().errors {
///   print(finding.kind, finding.title)  // missingDependency AuthService needs …
/// }
/// ```
public struct Finding: Sendable, Equatable, Encodable {
  /// How serious a finding is.
  public enum Severity: String, Sendable, Encodable {
    /// The deployment would fail: `check` exits with status 1.
    case error
    /// Worth knowing and fixing; the deployment still works.
    case warning
  }

  /// What a finding is about. A container check makes the graph's kinds
  /// (missing dependencies, cycles, captive dependencies, duplicate and
  /// undeclared registrations, extension point cardinality); the others
  /// are about a deployment (its plugins, manifest, environment and
  /// settings), and only `plugboard check` makes them.
  public enum Kind: String, Sendable, Encodable {
    /// A plugin the manifest enables did not load or assemble.
    case loadFailure
    /// Nothing registers the `Application` that `plugboard run` resolves.
    case missingApplication
    /// A declared dependency nothing serves.
    case missingDependency
    /// A declared dependency served only by a disabled plugin.
    case disabledProvider
    /// A declared dependency served only by a plugin that failed.
    case failedProvider
    /// A declared dependency registered under another identity of a type
    /// with the same name: the module defining it is loaded twice.
    case duplicatedModule
    /// A cycle of declared dependencies.
    case cycle
    /// A `.container` registration holding a `.transient` or `.graph` one
    /// (a warning), or a `.scoped` one (an error: it cannot be made).
    case captiveDependency
    /// The same key registered twice; the later registration wins.
    case duplicateRegistration
    /// A registration whose factory declares no dependencies.
    case undeclaredDependencies
    /// What a disabled plugin provides could not be learned.
    case probeFailure
    /// A plugin ships a library beside it but uses another plugin's
    /// different file of the same name, loaded first.
    case sharedLibraryConflict
    /// `LD_LIBRARY_PATH` is set: it decides where plugins' dependencies
    /// are loaded from, ahead of their own folders.
    case libraryPathSet
    /// `LD_PRELOAD`, `LD_AUDIT` or `GLIBC_TUNABLES` is set: code or loader
    /// settings chosen outside the deployment run in plugboard.
    case loaderVariableSet
    /// A plugin the manifest marks optional failed: the deployment runs
    /// without it.
    case optionalPluginFailed
    /// A contribution an extension point lacks in this profile: its plugin
    /// is disabled or left out by the profile, or failed after making it.
    case contributionMissing
    /// A declared extension point whose contributions in this profile do
    /// not match its cardinality (none for at least one; none or several
    /// for exactly one).
    case extensionPointCardinality
    /// A required plugin setting has no value in the profile.
    case missingSetting
    /// A plugin setting's value is not of its declared type.
    case settingType
    /// A value is given for a setting the plugin does not declare.
    case unknownSetting
    /// A file meant to give a setting (`…_FILE`, the credentials folder)
    /// cannot be used.
    case settingFile
    /// A `PLUGBOARD_CONFIG_` variable that names no declared setting.
    case unknownSettingVariable
    /// A start or stop hook on a registration that cannot carry one (not
    /// `.container`, or taking arguments).
    case lifecycleHookScope
    /// A synchronous registration that declares a dependency on an async
    /// one, which only `try await` can resolve.
    case synchronousDependencyOnAsync
    /// A synchronous registration isolated to no actor that declares a
    /// dependency on one isolated to the main actor, which a synchronous
    /// resolve serves only there.
    case nonisolatedDependencyOnMainActor
    /// ``Container/checkByResolving(profile:)``: resolving a registration
    /// failed.
    case resolutionFailed
    /// A decorator whose target nothing registers: it never runs.
    case decoratorWithoutTarget
    /// An async decorator of a synchronous registration, which synchronous
    /// code makes and cannot await.
    case asyncDecoratorOfSynchronousRegistration
    /// `explain TYPE --json`: TYPE names no registered type.
    case unknownType
    /// `explain TYPE --json`: TYPE names several registered types.
    case ambiguousType
  }

  /// Whether the graph is broken (``Severity/error``) or only worth fixing.
  public let severity: Severity
  /// What the finding is about.
  public let kind: Kind
  /// The headline, after `error: ` or `warning: `.
  public let title: String
  /// The lines under "What went wrong:".
  public let explanation: [String]
  /// "Chain" or "Cycle": what ``chain`` shows.
  public let chainTitle: String
  /// From the entry point (or the registration checked) to the failing
  /// link; empty when the finding has no chain.
  public let chain: [ChainStep]
  /// Registrations that may have been meant, as "Did you mean:" lists them.
  public let suggestions: [String]
  /// What to do.
  public let action: String
  /// The key nothing serves, for a `missingDependency` finding; in-process
  /// only (the text and JSON name it through ``chain``).
  public let missingKey: ServiceKey?

  /// A finding, for `plugboard check`'s own findings about a deployment.
  public init(
    _ severity: Severity, _ kind: Kind, title: String, explanation: [String],
    chainTitle: String = "Chain", chain: [ChainStep] = [], suggestions: [String] = [], action: String,
    missingKey: ServiceKey? = nil
  ) {
    self.severity = severity
    self.kind = kind
    self.title = title
    self.explanation = explanation
    self.chainTitle = chainTitle
    self.chain = chain
    self.suggestions = suggestions
    self.action = action
    self.missingKey = missingKey
  }

  private enum CodingKeys: String, CodingKey {
    case severity, kind, title, explanation, chainTitle, chain, suggestions, action
  }
}
