import Testing

/// A trait for tests that block their thread: they wait for a child
/// process or a line it prints, a semaphore, a thread, or sleep. Such a
/// test runs on the ``BlockingExecutor``'s threads instead of Swift's
/// cooperative pool, so that it never holds up a test that suspends.
///
/// Apply it to a suite (it applies to every test in it) or to one test:
///
/// ```swift
/// @Suite(.blocking) struct LauncherTests {
///   @Test func runsTheHost() throws {
///     let result = try Subprocess.plugboard(["--version"])  // waits for the process
///     #expect(result.status == 0)
///   }
/// }
/// ```
///
/// The helpers that block (running a process, waiting for its output)
/// record an issue when they run on the cooperative pool (see
/// ``Blocking/requireBlockingThread(_:)``), so a suite that lacks the
/// trait is found by its first run.
public struct Blocking: SuiteTrait, TestTrait, TestScoping {
  public var isRecursive: Bool { true }

  public func provideScope(
    for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void
  ) async throws {
    try await withTaskExecutorPreference(BlockingExecutor.shared, operation: function)
  }

  /// Records an issue when the caller, which is about to block its thread
  /// doing `what`, runs in a task on a thread other than the
  /// ``BlockingExecutor``'s: a test on the cooperative pool that lacks
  /// the ``Blocking`` trait. A thread of the test's own (no task) may
  /// block.
  public static func requireBlockingThread(_ what: String) {
    let inTask = withUnsafeCurrentTask { $0 != nil }
    guard inTask, !BlockingExecutor.shared.isCurrent else { return }
    let text =
      "\(what) blocks its thread, and this test runs on Swift's cooperative pool: give its suite the "
      + "trait .blocking"
    Issue.record(Comment(rawValue: text))
  }
}

extension Trait where Self == Blocking {
  /// Runs the tests on the ``BlockingExecutor``: see ``Blocking``.
  public static var blocking: Self { Blocking() }
}
