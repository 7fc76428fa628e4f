import PlugboardEngine

#if canImport(Glibc)
  import Glibc
#endif

// Which command a command line names, and its timeouts, are the CLI's to
// read; the engine's Supervisor only forks and watches.
extension Supervisor {
  /// Supervises the command `arguments` name, if it brings a deployment up
  /// and `--unsupervised` is not given. Returns `nil` in the child, which
  /// must go on and run the command, and the exit status in the parent.
  /// Returns `nil` too when the process cannot fork (the command then runs
  /// unsupervised rather than not at all).
  ///
  /// A command line that does not parse is not supervised: the command
  /// reports the misuse. When the launcher forked already (`launch`), the
  /// roles are given: the child runs whatever the command line says (a
  /// misuse is reported by it, as by any child), and the parent follows it
  /// with the time limits the command line gives, or the defaults. The
  /// child's `session` is attached to its parent.
  static func superviseIfNeeded(
    _ invocation: ParsedInvocation, launch: LauncherHandoff?, session: ChildSession
  )
    -> Int32?
  {
    if let launch, launch.role == .child {
      continueLaunchedChild(launch, session: session)
      return nil
    }
    guard case .command(let name, let options)? = try? invocation.result.get() else {
      guard let launch else { return nil }
      hideGivenSettings()
      return Supervisor(command: invocation.arguments.first ?? runCommand, timeout: nil, session: session)
        .supervise(adopting: launch)
    }
    // Forked by the launcher, the parent follows whatever it forked for.
    if launch == nil, !supervisedCommands.contains(name) || options.isSet(.unsupervised) { return nil }
    hideGivenSettings()
    return withPidFile(name, options) {
      Supervisor(
        command: name, timeout: options.stageTimeout, exitTimeout: options.exitTimeout, reloadsOnHangup: true,
        session: session
      ).supervise(adopting: launch)
    }
  }

  /// Runs `supervise`, then removes the file `run --pid-file PATH` names
  /// (which the child wrote; see ``PidFile``), in the parent: the child
  /// returns nil.
  private static func withPidFile(_ command: String, _ options: ParsedOptions, _ supervise: () -> Int32?)
    -> Int32?
  {
    guard command == runCommand, let path = options[.pidFile] else {
      return supervise()
    }
    let status = supervise()
    if status != nil { PidFile.remove(path, ifHolding: getpid()) }
    return status
  }

  /// The supervising parent keeps the environment it was started with, and
  /// with it every `PLUGBOARD_CONFIG_…` value. It loads no plugin, so it
  /// cannot tell a secret from another setting: given any such value (not
  /// only a `…_FILE` path), it is made non-dumpable, as the child is once
  /// it reads a secret, so that no other process of the same user can read
  /// the values from its `/proc/<pid>/environ` or its memory, and no core
  /// file holds them.
  private static func hideGivenSettings() {
    var entry: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = environ
    while let variable = entry?.pointee {
      let name = String(String(cString: variable).prefix { $0 != "=" })
      if name.hasPrefix(ConfigurationVariable.prefix), SettingFiles.variable(givenBy: name) == name {
        DeploymentConfigurator.makeUndumpable("the supervising process, whose environment holds settings")
        return
      }
      entry = entry?.advanced(by: 1)
    }
  }

}
