extension EmbeddedDeployment {
  /// Makes the rest of the program run in a supervised child process, as
  /// `plugboard run` does, so that a plugin that crashes, ends the
  /// process or hangs while the deployment is brought up is set aside
  /// instead of taking the program down.
  ///
  /// Call it as the first statement of `main`, while the process has one
  /// thread (before any `await`, task or Dispatch queue): the process
  /// forks (it refuses to when it has more threads; see below). In the
  /// child it returns nil, and the program goes on to
  /// ``bringUp(manifest:profile:environment:)`` and the rest. In the
  /// parent, which loads no plugin, it returns once the child is done, with
  /// the status to exit with.
  ///
  /// - When plugin code crashes, exits or does not finish a stage within
  ///   `stageTimeout` (else the manifest's `stageTimeout`, else 10 s) while
  ///   the deployment is brought up, the parent starts a new child, which
  ///   runs the program again from here with that plugin set aside: it is
  ///   then one of ``problems``, with the signal or the time and the stage.
  /// - After bring-up, a crash is reported on standard error by the
  ///   parent (a crash of the running application with its signal) and
  ///   the status is 128 + the signal, or 70 when the application had not
  ///   started. Those lines begin `plugboard: run:`, not with the
  ///   program's own prefix.
  /// - SIGINT, SIGTERM, SIGHUP and SIGQUIT sent to the parent are passed
  ///   on to the child (SIGHUP reloads instead with `reloadsOnHangup`,
  ///   below); standard input, output and error are shared.
  ///
  /// - After an orderly stop asked for by signal N (SIGINT, SIGTERM,
  ///   SIGHUP), the status returned is 128 + N. `plugboard` itself then
  ///   ends by the signal (systemd, shells and `timeout` expect that); a
  ///   program that wants the same restores the signal's default action
  ///   and raises it instead of exiting with the status.
  /// - `exitTimeout` (else the manifest's `exitTimeout`, else the stage
  ///   timeout) bounds the plugin code that runs as the child exits
  ///   (library destructors, `atexit` handlers).
  /// - With `reloadsOnHangup`, a SIGHUP sent to the parent once the
  ///   application runs reloads the deployment as `plugboard run` does: the
  ///   parent starts a new child, which runs the program again from here
  ///   (so it reads the manifest again) while the running one keeps
  ///   serving; when the new child's application has started (its start
  ///   hooks done, as ``ApplicationLaunch/run(arguments:)`` reports it), the
  ///   old one is asked to stop, and a new child that fails is ended with
  ///   the old one left running. The parent reports each reload on
  ///   standard error (`plugboard: run: reloaded: …`) and to systemd. Use
  ///   it only for a program that runs its application through
  ///   ``launch()`` or ``run(arguments:)``: a child that never starts one
  ///   never takes over. Without it, SIGHUP is a stop request, as above.
  ///
  /// Returns nil without forking when the process cannot fork: the
  /// program then runs unsupervised rather than not at all.
  ///
  /// - Throws: ``SupervisionError/threadsRunning(_:)``, without forking,
  ///   when the process already runs more than one thread (counted in
  ///   `/proc/self/task`; where that cannot be read, nothing is checked):
  ///   the child of such a fork holds every lock the other threads held,
  ///   and hangs or corrupts memory at the first one it takes. Call it
  ///   earlier, or run unsupervised.
  public static func supervise(
    stageTimeout: Duration? = nil, exitTimeout: Duration? = nil, reloadsOnHangup: Bool = false
  ) throws(SupervisionError) -> Int32? {
    if let threads = ThreadCount.current(), threads > 1 { throw .threadsRunning(threads) }
    return Supervisor(
      command: Supervisor.runCommand, timeout: stageTimeout, exitTimeout: exitTimeout,
      reloadsOnHangup: reloadsOnHangup, session: session
    ).supervise()
  }

  /// Why ``supervise(stageTimeout:exitTimeout:)`` refused to fork.
  public enum SupervisionError: Error, Equatable, CustomStringConvertible {
    /// The process already runs this many threads (more than one).
    case threadsRunning(Int)

    /// The line to print, beginning with `prefix`.
    public func line(prefix: String = "plugboard: ") -> String {
      switch self {
      case .threadsRunning(let count):
        "\(prefix)cannot supervise the deployment: the process already runs \(count) threads, and a "
          + "process with threads cannot be forked safely; call EmbeddedDeployment.supervise() first "
          + "in main, before any await, task, Dispatch queue or thread, or run unsupervised"
      }
    }

    public var description: String { line() }
  }
}
