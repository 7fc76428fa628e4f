import PlugboardSupervision

#if canImport(Glibc)
  import Glibc
#endif

/// What woke the supervising parent from one sleep in `poll(2)` on the
/// descriptors of the children it follows and on the request pipe.
/// ``ChildFollower`` (one child) and ``ReloadFollower`` (two, during a
/// reload) both sleep through ``sleep(on:requests:sparing:milliseconds:)``
/// and take in what it found with ``FollowedChild/takeIn(_:)``, so that
/// they read a wake, and a poll that failed, the same way.
enum Wakeup {
  /// The time ran out, or a signal interrupted the sleep: nothing to take
  /// in.
  case nothing
  /// Descriptors are ready: the entries slept on, with what each reported.
  case woken([pollfd])
  /// `poll` failed for another reason than a signal: nothing tells the
  /// parent when a child ends any more, so it waits for the end (see
  /// ``FollowedChild/takeIn(_:)``) rather than poll again at once and spin.
  case failed

  /// What a `poll` that returned `ready`, with `error` its errno, found on
  /// `watched`.
  init(ready: Int32, error: Int32, watched: [pollfd]) {
    if ready > 0 {
      self = .woken(watched)
    } else if ready < 0 && error != EINTR {
      self = .failed
    } else {
      self = .nothing
    }
  }

  /// Sleeps in `poll(2)` for at most `wait` milliseconds (-1: no limit) on
  /// `entries` (the followed children's descriptors) and `requests` (-1:
  /// none). Requests that woke it are taken in here, sparing the
  /// supervised `children` (see ``takeRequests(_:sparing:)``).
  static func sleep(
    on entries: [pollfd], requests: Int32, sparing children: [pid_t], milliseconds wait: Int32
  )
    -> Wakeup
  {
    var watched = entries
    if requests >= 0 { watched.append(pollfd(fd: requests, events: Int16(POLLIN), revents: 0)) }
    let ready = poll(&watched, nfds_t(watched.count), wait)
    let wake = Wakeup(ready: ready, error: ready < 0 ? errno : 0, watched: watched)
    if case .woken = wake, woke(requests, in: watched) { takeRequests(requests, sparing: children) }
    return wake
  }

  /// Whether `descriptor` is among the `woken`.
  static func woke(_ descriptor: Int32, in woken: [pollfd]) -> Bool {
    descriptor >= 0 && woken.contains { $0.fd == descriptor && $0.revents != 0 }
  }

  /// Empties the request pipe and reaps what plugin code left behind that
  /// ended, sparing the supervised `children` (one or two). The request
  /// itself is kept by the handler; the bytes only wake.
  static func takeRequests(_ requests: Int32, sparing children: [pid_t]) {
    var bytes = [UInt8](repeating: 0, count: 64)
    while bytes.withUnsafeMutableBytes({ read(requests, $0.baseAddress, $0.count) }) > 0 {}
    if children.count == 1 {
      plugboard_reap_strays(children[0])
    } else {
      plugboard_reap_strays_except(children[0], children[children.count - 1])
    }
  }
}

extension FollowedChild {
  /// Takes in what `wake` found for this child: its ending once it has
  /// ended. After a poll that failed, waits for the end.
  mutating func takeIn(_ wake: Wakeup) -> ChildEnding? {
    switch wake {
    case .nothing: return nil
    case .failed: return waitForTheEnd()
    case .woken(let watched):
      guard let status = take(watched) else { return nil }
      return ended(status)
    }
  }
}
