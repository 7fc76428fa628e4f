import AppContracts

/// A tracker that keeps the one `EventBuffer` it was made with.
struct BufferedTracker: AnalyticsTracker {
  let buffer: EventBuffer

  func track(_ event: String) {
    buffer.events.withLock { $0.append(event) }
  }

  var events: [String] { buffer.events.withLock { $0 } }
}
