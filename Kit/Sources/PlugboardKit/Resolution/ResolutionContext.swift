import PlugboardABI

/// The state of the resolution running on one thread: the chain from the
/// top-level request down to the registration being made, and the instances
/// shared by `.graph` registrations within it.
///
/// It lives in thread-local storage rather than in the resolver passed to
/// factories, so that a factory which calls a captured container directly
/// still extends the same chain (and its cycles are still caught), and so
/// that a top-level resolve allocates nothing. The chain is a manually
/// managed buffer of unretained records: it is touched on every resolution,
/// and array bookkeeping, exclusivity checks and reference counting would
/// cost more than the rest of the lookup.
final class ResolutionContext {

  struct Frame {
    // The records outlive the resolution: their container holds them.
    unowned(unsafe) let record: RegistrationRecord
    /// Whether the record took runtime arguments here; a registration with
    /// arguments may legitimately recurse (a tree built level by level), so
    /// only argument-free re-entry counts as a cycle.
    let hasArguments: Bool

    @inline(__always)
    init(record: RegistrationRecord, hasArguments: Bool) {
      self.record = record
      self.hasArguments = hasArguments
    }
  }

  // The fields a direct call reads (see `DirectCall`) are visible to the
  // inlined resolve; the rest stay internal.

  struct State {
    var frames: UnsafeMutablePointer<Frame>
    var capacity: Int
    var depth = 0
    /// Frames beyond the first `scanLimit`, counted per record, so that
    /// checking for a cycle stays cheap in very deep chains.
    var deepFrames: [ObjectIdentifier: Int] = [:]
    /// `.graph` instances of the current top-level resolution, in the
    /// order they were made: a few per resolution, found by a scan of
    /// unretained pointers, with no hashing and no copy-on-write.
    fileprivate var graphInstances: UnsafeMutablePointer<GraphInstance>
    var graphCount = 0
    var graphCapacity: Int
    /// Positions in `graphInstances`, kept only once a resolution holds
    /// more than `graphScanLimit` of them, so that a graph of thousands
    /// of `.graph` registrations does not scan quadratically.
    var graphIndex: [ObjectIdentifier: Int] = [:]
    /// A second buffer, swapped in while the first one's instances are
    /// released (their deinits may resolve again on this thread).
    fileprivate var spareGraphInstances: UnsafeMutablePointer<GraphInstance>?
    var spareGraphCapacity = 0
    /// Below this stack address the chain continues on a helper thread
    /// (see ``DeepChain``). It belongs to the thread running the chain right
    /// now: a hop sets the helper's and restores the caller's afterwards.
    var stackLimit: UInt
    /// Frames below this depth are construction that an `initCompleted`
    /// handler further down runs after; see ``isActive(_:)``.
    var cycleFloor = 0
    /// How many times `initCompleted` handlers have run on this thread, so
    /// that a `.graph` construction can tell cheaply whether one ran below
    /// it (and may have made its instance).
    var completions = 0
  }

  /// A `.graph` instance kept for the rest of a top-level resolution: a
  /// class instance in the entry itself (`reference`, one word), anything
  /// else in memory of its own (`storage`), so the common case costs no
  /// allocation.
  struct GraphInstance {
    var storage: UnsafeMutableRawPointer?
    /// The reference, retained, when `storage` is `nil`.
    var reference: UnsafeMutableRawPointer?
    // Alive until the top-level resolve returns, which is when the
    // instance is released.
    unowned(unsafe) let record: RegistrationRecord
  }

  /// Where an entry's `reference` lies in it; `nil` (never in practice)
  /// keeps every instance in memory of its own.
  private static let referenceOffset = MemoryLayout<GraphInstance>.offset(of: \.reference)

  /// The address of the instance the entry at `index` keeps; valid until
  /// the entries grow, so only for immediate use.
  private func instanceAddress(at index: Int) -> UnsafeMutableRawPointer {
    Self.instanceAddress(of: state.pointee.graphInstances + index)
  }

  private static func instanceAddress(of entry: UnsafeMutablePointer<GraphInstance>)
    -> UnsafeMutableRawPointer
  {
    entry.pointee.storage ?? UnsafeMutableRawPointer(entry) + (referenceOffset ?? 0)
  }

  static var scanLimit: Int { 32 }
  private static let graphScanLimit = 16
  let state: UnsafeMutablePointer<State>
  /// The chain's place in line for helper threads while it holds any (see
  /// ``HopThreads``), 0 otherwise. Read and written only under the lock of
  /// the `HopThreads` the chain hops on.
  var hopTicket: UInt64 = 0

  init() {
    let capacity = 64
    let graphCapacity = 8
    state = .allocate(capacity: 1)
    state.initialize(
      to: State(
        frames: .allocate(capacity: capacity), capacity: capacity,
        graphInstances: .allocate(capacity: graphCapacity), graphCapacity: graphCapacity,
        stackLimit: DeepChain.stackLimitOfCurrentThread()))
  }

  deinit {
    state.pointee.frames.deallocate()
    state.pointee.graphInstances.deallocate()
    state.pointee.spareGraphInstances?.deallocate()
    state.deinitialize(count: 1)
    state.deallocate()
  }

  var depth: Int {
    @inline(__always) get { state.pointee.depth }
  }

  /// Whether the calling thread's stack is too nearly full to go one
  /// resolution deeper on it.
  @inline(__always)
  var stackIsLow: Bool {
    @inline(__always) get { UInt(plugboard_stack_address()) < state.pointee.stackLimit }
  }

  /// See `State.stackLimit`.
  var stackLimit: UInt {
    get { state.pointee.stackLimit }
    set { state.pointee.stackLimit = newValue }
  }

  /// The records being made, from the top-level request down.
  var frames: UnsafeBufferPointer<Frame> {
    UnsafeBufferPointer(start: state.pointee.frames, count: state.pointee.depth)
  }

  /// Whether `record` is already being made (without arguments) further up.
  @inline(__always)
  func isActive(_ record: RegistrationRecord) -> Bool {
    if state.pointee.cycleFloor != 0 { return isActiveAboveFloor(record) }
    let depth = state.pointee.depth
    if isActive(record, amongFirst: min(depth, Self.scanLimit)) { return true }
    return depth > Self.scanLimit && state.pointee.deepFrames[ObjectIdentifier(record)] != nil
  }

  /// Whether `record` is made without arguments in one of the first
  /// `count` frames. A pointer walk: a range loop over indices kept a
  /// bounds check per frame, and this scan runs on every resolution at
  /// every level.
  @inline(__always)
  func isActive(_ record: RegistrationRecord, amongFirst count: Int) -> Bool {
    var frame = state.pointee.frames
    let end = frame + count
    while frame != end {
      if frame.pointee.record === record && !frame.pointee.hasArguments { return true }
      frame += 1
    }
    return false
  }

  /// ``isActive(_:)`` while an `initCompleted` handler runs: above the
  /// floor as usual; below it, only a `.transient` registration counts,
  /// because re-entering it would make a new instance forever.
  @inline(never)
  private func isActiveAboveFloor(_ record: RegistrationRecord) -> Bool {
    let floor = state.pointee.cycleFloor
    for (index, frame) in frames.enumerated()
    where frame.record === record && !frame.hasArguments
      && (index >= floor || record.scope == .transient)
    {
      return true
    }
    return false
  }

  /// Whether `record` is being made without arguments below the cycle
  /// floor: an `initCompleted` handler further down, running on this
  /// thread, asks again for an instance this thread is constructing.
  func isMakingBelowCycleFloor(_ record: RegistrationRecord) -> Bool {
    let floor = state.pointee.cycleFloor
    guard floor != 0 else { return false }
    return frames[..<floor].contains { $0.record === record && !$0.hasArguments }
  }

  /// See `State.completions`.
  var completions: Int {
    @inline(__always) get { state.pointee.completions }
    set { state.pointee.completions = newValue }
  }

  /// See `State.cycleFloor`.
  var cycleFloor: Int {
    get { state.pointee.cycleFloor }
    set { state.pointee.cycleFloor = newValue }
  }

  // `push` and `pop` run on every resolution: the counting of deep frames
  // is out of line (inlined, its dictionary code cost every resolution a
  // call), and the depth, bounded by the container's maximum depth, needs
  // no overflow check.
  @inline(__always)
  func push(_ record: RegistrationRecord, hasArguments: Bool) {
    if state.pointee.depth == state.pointee.capacity { grow() }
    let depth = state.pointee.depth
    if depth >= Self.scanLimit && !hasArguments { countDeepFrame(of: record, by: 1) }
    (state.pointee.frames + depth).initialize(to: Frame(record: record, hasArguments: hasArguments))
    state.pointee.depth = depth &+ 1
  }

  @inline(__always)
  func pop() {
    let depth = state.pointee.depth &- 1
    state.pointee.depth = depth
    if depth >= Self.scanLimit && !state.pointee.frames[depth].hasArguments {
      countDeepFrame(of: state.pointee.frames[depth].record, by: -1)
    }
    if depth == 0 && state.pointee.graphCount != 0 { releaseGraphInstances() }
  }

  /// ``push(_:hasArguments:)`` for a ``DirectCall``, only when the chain
  /// is shallow and plain: fewer than `scanLimit` frames (so nothing to
  /// count and no buffer to grow), under `limit`, no `initCompleted`
  /// handler running, `record` not active and the stack not low. `false`,
  /// with nothing pushed, otherwise. Kept free of the rare cases' code,
  /// so that it needs no registers saved.
  @inline(__always)
  func pushIfShallow(_ record: RegistrationRecord, hasArguments: Bool, limit: Int) -> Bool {
    let depth = state.pointee.depth
    guard depth < Self.scanLimit, depth < limit, state.pointee.cycleFloor == 0, !stackIsLow else {
      return false
    }
    if !hasArguments && isActive(record, amongFirst: depth) { return false }
    (state.pointee.frames + depth).initialize(to: Frame(record: record, hasArguments: hasArguments))
    state.pointee.depth = depth &+ 1
    return true
  }

  /// Pops the frame ``pushIfShallow(_:hasArguments:limit:)`` pushed,
  /// which lies below `scanLimit`.
  @inline(__always)
  func popShallow() {
    let depth = state.pointee.depth &- 1
    state.pointee.depth = depth
    if depth == 0 && state.pointee.graphCount != 0 { releaseGraphInstances() }
  }

  /// Counts a frame beyond the first `scanLimit` in (`change` 1) or out
  /// (-1); see `State.deepFrames`.
  @inline(never)
  private func countDeepFrame(of record: RegistrationRecord, by change: Int) {
    let id = ObjectIdentifier(record)
    let count = state.pointee.deepFrames[id, default: 0] + change
    state.pointee.deepFrames[id] = count > 0 ? count : nil
  }

  private func grow() {
    let capacity = state.pointee.capacity * 2
    let frames = UnsafeMutablePointer<Frame>.allocate(capacity: capacity)
    frames.moveInitialize(from: state.pointee.frames, count: state.pointee.depth)
    state.pointee.frames.deallocate()
    state.pointee.frames = frames
    state.pointee.capacity = capacity
  }

  // MARK: Graph scope

  /// The `.graph` instance of `record` made earlier in this resolution.
  func graphInstance(of record: RegistrationRecord) -> UnsafeMutableRawPointer? {
    let count = state.pointee.graphCount
    if count > Self.graphScanLimit {
      return state.pointee.graphIndex[ObjectIdentifier(record)].map(instanceAddress(at:))
    }
    // Newest first: a later instance of a record replaces an earlier one.
    let instances = state.pointee.graphInstances
    var index = count
    while index > 0 {
      index -= 1
      if instances[index].record === record { return instanceAddress(at: index) }
    }
    return nil
  }

  /// Keeps a copy of the instance at `source` for the rest of this
  /// top-level resolution.
  func keepGraphInstance(of record: RegistrationRecord, copying source: UnsafeMutableRawPointer) {
    let count = state.pointee.graphCount
    if count == state.pointee.graphCapacity {
      let capacity = count * 2
      let grown = UnsafeMutablePointer<GraphInstance>.allocate(capacity: capacity)
      grown.moveInitialize(from: state.pointee.graphInstances, count: count)
      state.pointee.graphInstances.deallocate()
      state.pointee.graphInstances = grown
      state.pointee.graphCapacity = capacity
    }
    // A later instance of the same record (a registration with arguments
    // recursing level by level) is found before the earlier one; both are
    // released when the resolution ends.
    let entry = state.pointee.graphInstances + count
    if record.isReference, let offset = Self.referenceOffset {
      entry.initialize(to: GraphInstance(storage: nil, reference: nil, record: record))
      record.copy(source, to: UnsafeMutableRawPointer(entry) + offset)
    } else {
      let storage = record.allocateScratch()
      record.copy(source, to: storage)
      entry.initialize(to: GraphInstance(storage: storage, reference: nil, record: record))
    }
    state.pointee.graphCount = count + 1
    if count + 1 > Self.graphScanLimit {
      if count == Self.graphScanLimit {
        for index in 0..<count {
          state.pointee.graphIndex[ObjectIdentifier(state.pointee.graphInstances[index].record)] = index
        }
      }
      state.pointee.graphIndex[ObjectIdentifier(record)] = count
    }
  }

  func releaseGraphInstances() {
    // Taken out first: an instance's deinit may resolve again on this
    // thread and start a graph of its own.
    let count = state.pointee.graphCount
    let instances = state.pointee.graphInstances
    let capacity = state.pointee.graphCapacity
    if let spare = state.pointee.spareGraphInstances {
      state.pointee.graphInstances = spare
      state.pointee.graphCapacity = state.pointee.spareGraphCapacity
      state.pointee.spareGraphInstances = nil
    } else {
      state.pointee.graphInstances = .allocate(capacity: capacity)
    }
    state.pointee.graphCount = 0
    if count > Self.graphScanLimit { state.pointee.graphIndex.removeAll(keepingCapacity: true) }
    for index in 0..<count {
      instances[index].record.destroy(Self.instanceAddress(of: instances + index))
      instances[index].storage?.deallocate()
    }
    instances.deinitialize(count: count)
    if state.pointee.spareGraphInstances == nil {
      state.pointee.spareGraphInstances = instances
      state.pointee.spareGraphCapacity = capacity
    } else {
      instances.deallocate()
    }
  }

  /// The chain as diagnostics show it.
  var links: [ChainLink] {
    frames.map { ChainLink(key: $0.record.key, site: $0.record.site, scope: $0.record.scope) }
  }

  // MARK: Thread-local storage

  /// Registers the destructor that releases a thread's context at thread
  /// exit; runs once, the first time any thread needs a context.
  private static let destructorInstalled: Bool = {
    plugboard_set_context_destructor { pointer in
      guard let pointer else { return }
      Unmanaged<ResolutionContext>.fromOpaque(pointer).release()
    }
    return true
  }()

  /// Runs `body` with the calling thread's context (created on first use),
  /// without retaining it: the thread's slot holds it.
  @inline(__always)
  static func withCurrent<Result>(_ body: (ResolutionContext) throws -> Result) rethrows -> Result {
    if let pointer = plugboard_current_context() {
      return try Unmanaged<ResolutionContext>.fromOpaque(pointer)._withUnsafeGuaranteedRef(body)
    }
    return try body(makeCurrent())
  }

  /// The context of the calling thread, created on first use.
  static var current: ResolutionContext {
    withCurrent { $0 }
  }

  @inline(never)
  private static func makeCurrent() -> ResolutionContext {
    _ = destructorInstalled
    let context = ResolutionContext()
    install(context)
    return context
  }

  /// Makes `context` the calling thread's context (used when a deep chain
  /// continues on a helper thread).
  static func install(_ context: ResolutionContext?) {
    _ = destructorInstalled
    if let old = plugboard_current_context() {
      Unmanaged<ResolutionContext>.fromOpaque(old).release()
    }
    plugboard_set_current_context(context.map { Unmanaged.passRetained($0).toOpaque() })
  }
}
