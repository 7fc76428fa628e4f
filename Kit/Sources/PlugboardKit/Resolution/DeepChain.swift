import Foundation

/// Runs the next stretch of a very deep dependency chain on a fresh thread
/// with a large stack, so a chain of any depth resolves instead of
/// overflowing the caller's stack. The calling thread waits, so from the
/// outside resolution stays synchronous.
enum DeepChain {
  /// How many nested resolutions run on one stack before hopping. Debug
  /// builds use a few hundred bytes of stack per level; 256 levels stay far
  /// below the smallest stacks a caller is likely to have (512 KiB).
  static let levelsPerStack = 256
  static let stackSize = 16 << 20

  static func run<Value>(
    _ context: ResolutionContext, _ body: () throws -> Value
  ) throws -> Value {
    try withoutActuallyEscaping(body) { body in
      let box = HopBox(context: context, body: body)
      let thread = Thread { box.runOnHelper() }
      thread.stackSize = stackSize
      thread.start()
      box.done.wait()
      return try box.result.get()
    }
  }
}

/// Hands one body and its result across the hop.
private final class HopBox<Value>: @unchecked Sendable {
  // `result` is written by the helper before `done` is signalled and read by
  // the caller after; the semaphore orders the two.
  let context: ResolutionContext
  /// Cleared by the helper before it signals, so the non-escaping body
  /// has no reference left when `run` returns.
  var body: (() throws -> Value)?
  var result: Result<Value, any Error> = .failure(CancellationError())
  let done = DispatchSemaphore(value: 0)

  init(context: ResolutionContext, body: @escaping () throws -> Value) {
    self.context = context
    self.body = body
  }

  func runOnHelper() {
    ResolutionContext.install(context)
    if let body { result = Result { try body() } }
    body = nil
    ResolutionContext.install(nil)
    done.signal()
  }
}
