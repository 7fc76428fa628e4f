/// How long one start or stop hook may take: `--hook-timeout SECONDS`, else
/// the manifest's `"hookTimeout"`, else ``defaultLimit``. The same rule as a
/// stage's time limit (``StageTimeout``): more than 0 s, at most an hour.
enum HookTimeout {
  /// 30 s: long enough to connect to a database that is still starting,
  /// short enough to stop well inside a service manager's own stop timeout
  /// (systemd's default is 90 s).
  static let defaultLimit = Duration.seconds(30)

  /// The limit in force: the flag's when given, else the manifest's, else
  /// the default. A flag that does not parse is refused earlier, as misuse.
  static func limit(flag: String?, manifest: Duration?) -> Duration {
    flag.flatMap(StageTimeout.parse) ?? manifest ?? defaultLimit
  }
}
