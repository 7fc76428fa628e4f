import PlugboardABI

/// Runs the next stretch of a very deep dependency chain on a helper thread
/// with a large stack, so a chain of any depth resolves instead of
/// overflowing the caller's stack. The calling thread waits, so from the
/// outside resolution stays synchronous.
///
/// When to hop is decided by the stack that is left, not by counting levels:
/// a level takes several times more stack in debug builds than in release
/// builds (more again under sanitizers), and the calling thread may be one
/// an embedding program created with a small stack.
enum DeepChain {
  /// The stack that must be left for a resolution to go one level deeper
  /// on the same thread: many levels' worth, plus what starting a helper
  /// and reporting an error take. Small next to common thread stacks
  /// (256 KiB and up), so shallow resolutions never hop.
  static let margin: UInt = 64 << 10

  /// The stack address below which the calling thread's chain hops.
  static func stackLimitOfCurrentThread() -> UInt {
    let low = UInt(plugboard_stack_low_bound())
    if low != 0 { return low + margin }
    // The system cannot say: assume a small stack, so that the chain soon
    // continues on a helper, whose stack is known.
    let here = UInt(plugboard_stack_address())
    return here > 4 * margin ? here - 2 * margin : 0
  }

  /// Runs `body` on one of `threads` and waits for it, or throws what
  /// `refused` makes of the reason no helper could run it.
  static func run<Value>(
    _ context: ResolutionContext, on threads: HopThreads,
    refused: (ResolutionError.HopFailure) -> any Error, _ body: () throws -> Value
  ) throws -> Value {
    try withoutActuallyEscaping(body) { body in
      let box = HopBox(context: context, body: body)
      let callerLimit = context.stackLimit
      if let failure = threads.run(for: context, { box.runOnHelper() }) {
        box.body = nil
        throw refused(failure)
      }
      context.stackLimit = callerLimit
      return try box.result.get()
    }
  }
}

/// Hands one body and its result across the hop.
private final class HopBox<Value>: @unchecked Sendable {
  // `body`, `result` and the context's stack limit are written by the
  // helper and read by the caller after it has joined the helper's thread;
  // the join orders the two.
  let context: ResolutionContext
  /// Cleared before the hop ends, so the non-escaping body has no reference
  /// left when `run` returns.
  var body: (() throws -> Value)?
  var result: Result<Value, any Error> = .failure(CancellationError())

  init(context: ResolutionContext, body: @escaping () throws -> Value) {
    self.context = context
    self.body = body
  }

  func runOnHelper() {
    ResolutionContext.install(context)
    context.stackLimit = DeepChain.stackLimitOfCurrentThread()
    if let body { result = Result { try body() } }
    body = nil
    ResolutionContext.install(nil)
  }
}
