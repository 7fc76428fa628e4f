/// Every registration a container holds, in the order made, in storage
/// that only grows at its end.
///
/// A ``RegistrySnapshot`` is this log and a count: the records below a
/// snapshot's count are never written again, so taking a snapshot copies
/// nothing, and the registrations made after it are appended behind it in
/// place. (A `[RegistrationRecord]` shared with a snapshot would be copied
/// whole by the next append, which made registering after every resolve
/// quadratic.) Only the container appends, under its lock; when the
/// storage is full it moves to a log of twice the capacity, and snapshots
/// keep the old one alive.
final class RegistrationLog: @unchecked Sendable {
  private let storage: UnsafeMutablePointer<RegistrationRecord>
  private let capacity: Int
  /// How many records the log holds; changed by the container, under its
  /// lock, only.
  private(set) var count = 0

  init(capacity: Int = 16) {
    self.capacity = max(capacity, 1)
    self.storage = .allocate(capacity: self.capacity)
  }

  /// A log of `records`, with room to grow.
  convenience init(_ records: [RegistrationRecord]) {
    self.init(capacity: max(16, records.count * 2))
    for record in records { append(record) }
  }

  deinit {
    storage.deinitialize(count: count)
    storage.deallocate()
  }

  /// The log with `record` at its end: this log while it has room, else a
  /// new one of twice the capacity.
  func appending(_ record: RegistrationRecord) -> RegistrationLog {
    guard count == capacity else {
      append(record)
      return self
    }
    let grown = RegistrationLog(capacity: capacity * 2)
    // Copied against a local count rather than by `append`, whose
    // accesses to `count` a debug build checks for exclusivity on every
    // record copied.
    let copied = count
    var index = 0
    while index < copied {
      (grown.storage + index).initialize(to: storage[index])
      index += 1
    }
    grown.count = copied
    grown.append(record)
    return grown
  }

  private func append(_ record: RegistrationRecord) {
    (storage + count).initialize(to: record)
    count += 1
  }

  subscript(index: Int) -> RegistrationRecord { storage[index] }

  /// The first `count` records (at most the log's count).
  func records(upTo count: Int) -> [RegistrationRecord] {
    Array(UnsafeBufferPointer(start: storage, count: min(count, self.count)))
  }
}
