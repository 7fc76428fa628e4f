extension EmbeddedDeployment {
  /// Makes the rest of the program run in a supervised child process, as
  /// `plugboard run` does, so that a plugin that crashes, ends the
  /// process or hangs while the deployment is brought up is set aside
  /// instead of taking the program down.
  ///
  /// Call it as the first statement of `main`, while the process has one
  /// thread (before any `await`, task or Dispatch queue): the process
  /// forks. In the child it returns nil, and the program goes on to
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
  ///   on to the child; standard input, output and error are shared.
  ///
  /// Returns nil without forking when the process cannot fork: the
  /// program then runs unsupervised rather than not at all.
  public static func supervise(stageTimeout: Duration? = nil) -> Int32? {
    Supervisor(command: CommandSpec.run.name, timeout: stageTimeout).supervise()
  }
}
