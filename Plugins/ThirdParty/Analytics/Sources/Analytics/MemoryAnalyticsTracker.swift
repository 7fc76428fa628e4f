import AppContracts
import Synchronization

/// Keeps events in memory; a real SDK would batch and upload them.
final class MemoryAnalyticsTracker: AnalyticsTracker {
  private let recorded = Mutex<[String]>([])

  func track(_ event: String) {
    recorded.withLock { $0.append(event) }
  }

  var events: [String] {
    recorded.withLock { $0 }
  }
}
