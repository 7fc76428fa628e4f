import Synchronization

/// Events waiting to be sent: meant to be one per use (`.transient`).
final class EventBuffer: Sendable {
  let events = Mutex<[String]>([])
}
