/// What bring-up tells: a stage, the manifest's stage timeout, a crash
/// and the resolution chain at it, the report or the application starting.
/// In the child, every event feeds the terminal's feedback
/// (``StageFeedback``); supervised, stages and phases go to the parent
/// through the ``StageRecord``, and the rest, which are rare, as lines on
/// the progress pipe.
///
/// Wire format, one event per line, fields separated by tabs, with `\`,
/// tab and newline escaped as `\\`, `\t` and `\n`:
/// `T<seconds>[\t<exit seconds>]`, `C<signal>\t<message>`,
/// `W<kind>\t<hex offset>\t<object>\t<plugin>` (see ``CrashSite``),
/// `M<type>\t<site>`, `K<signal>`, `E<status>[\ta]`, `P<folder>` (empty once
/// removed), `R` (ready), `Q` (stopping), `I<kind>\t<name>\t<identity>` (see
/// ``DeploymentInventory``); and, should a stage ever be sent
/// as a line, `S<stage>\t<plugin>\t<file>`, `D` (reporting) and `A`
/// (running), which the parent applies as it would the record.
package enum ProgressEvent: Equatable, Sendable {
  /// A stage begins, for a plugin when `plugin` is set.
  case stage(LoadStage, plugin: String?, file: String?)
  /// The manifest's `stageTimeout`, once the child has read it, and its
  /// `exitTimeout` when it sets one. One event, so that the rule that
  /// makes the first one plugboard's (see ``StageWatch``) covers both.
  case stageTimeout(Duration, exit: Duration? = nil)
  /// The child caught a fatal signal; `message` is the Swift runtime's
  /// fatal error message, when it printed one.
  case crash(signal: Int32, message: String?)
  /// Where the crash happened: an address of the crash record.
  case crashSite(CrashSite)
  /// One link of the resolution chain running when the child crashed,
  /// outermost first.
  case making(type: String, site: String)
  /// During bring-up, the process sent itself this stop signal (plugin
  /// code calling `kill(getpid(), …)` or `raise`): a fault, not a request.
  case selfSignal(Int32)
  /// The child is exiting with this status: its exit-time code (library
  /// destructors, `atexit` handlers), plugin code, begins. Written by
  /// `plugboard_exit`.
  case exiting(status: Int32, afterApplication: Bool)
  /// A pinned plugin's private folder (``PrivateOrigin``) was made, or,
  /// with nil, removed. A crash inside `dlopen` leaves it behind, so the
  /// parent removes it once the child has ended.
  case privateFolder(String?)
  /// Bring-up is over and the command is writing its report: no plugin
  /// code runs any more, so no stage deadline applies.
  case reporting
  /// The application is running: its exit status is the command's.
  case running
  /// `run`'s start hooks ran and the application starts: the parent tells
  /// systemd the service is ready (``SystemdNotifier``). `stopLimit` bounds
  /// the orderly stop once asked for (``ServiceLifecycle/stopLimit``): a
  /// reload gives the old deployment that long to end.
  case ready(stopLimit: Duration? = nil)
  /// `run`'s orderly stop begins (the application ended, or was asked
  /// to): the parent tells systemd it is stopping.
  case stopping
  /// One thing `run`'s deployment brought up, for the parent to say what
  /// a reload changed.
  case inventory(DeploymentInventory.Item)

  var line: String {
    switch self {
    case .stage(let stage, let plugin, let file):
      "S" + [stage.rawValue, plugin ?? "", file ?? ""].map(Self.escape).joined(separator: "\t")
    case .stageTimeout(let duration, let exit):
      "T\(Self.seconds(duration))" + (exit.map { "\t\(Self.seconds($0))" } ?? "")
    case .crash(let signal, let message): "C\(signal)\t\(Self.escape(message ?? ""))"
    case .crashSite(let site):
      "W\(site.kind.rawValue)\t\(String(site.offset, radix: 16))\t\(Self.escape(site.object ?? ""))\t"
        + Self.escape(site.plugin ?? "")
    case .making(let type, let site): "M\(Self.escape(type))\t\(Self.escape(site))"
    case .selfSignal(let signal): "K\(signal)"
    case .exiting(let status, let afterApplication): "E\(status)" + (afterApplication ? "\ta" : "")
    case .privateFolder(let folder): "P" + Self.escape(folder ?? "")
    case .reporting: "D"
    case .running: "A"
    case .ready(let stopLimit): "R" + (stopLimit.map(Self.seconds) ?? "")
    case .stopping: "Q"
    case .inventory(let item):
      "I\(item.kind.rawValue)\t\(Self.escape(item.name))\t\(Self.escape(item.identity))"
    }
  }

  /// The event a line encodes, or nil for a line that is not one: the
  /// parent reads lines that plugin code may have written, so a line is an
  /// event only if it is exactly what ``line`` makes of one (its fields
  /// counted, `\` followed only by `\`, `t` or `n`, signals 1–64).
  init?(line: Substring) {
    guard let tag = line.first else { return nil }
    var fields: [String] = []
    for field in line.dropFirst().split(separator: "\t", omittingEmptySubsequences: false) {
      guard let text = Self.unescape(field) else { return nil }
      fields.append(text)
    }
    func signal(_ text: String) -> Int32? {
      guard let number = Int32(text), (1...64).contains(number) else { return nil }
      return number
    }
    switch (tag, fields.count) {
    case ("S", 3):
      guard let stage = LoadStage(rawValue: fields[0]) else { return nil }
      self = .stage(
        stage, plugin: fields[1].isEmpty ? nil : fields[1], file: fields[2].isEmpty ? nil : fields[2])
    case ("T", 1), ("T", 2):
      guard let event = Self.stageTimeout(fields) else { return nil }
      self = event
    case ("C", 2):
      guard let signal = signal(fields[0]) else { return nil }
      let message = fields[1].trimmingSuffix(while: \.isNewline)
      self = .crash(signal: signal, message: message.isEmpty ? nil : message)
    case ("W", 4):
      guard let event = Self.crashSite(fields) else { return nil }
      self = event
    case ("M", 2): self = .making(type: fields[0], site: fields[1])
    case ("K", 1):
      guard let signal = signal(fields[0]) else { return nil }
      self = .selfSignal(signal)
    case ("E", 1), ("E", 2):
      guard let status = Int32(fields[0]), (0...255).contains(status), fields.count == 1 || fields[1] == "a"
      else {
        return nil
      }
      self = .exiting(status: status, afterApplication: fields.count == 2)
    case ("P", 1): self = .privateFolder(fields[0].isEmpty ? nil : fields[0])
    case ("D", 1) where fields[0].isEmpty: self = .reporting
    case ("A", 1) where fields[0].isEmpty: self = .running
    case ("R", 1) where fields[0].isEmpty: self = .ready()
    case ("R", 1):
      guard let stopLimit = StageTimeout.parse(fields[0]) else { return nil }
      self = .ready(stopLimit: stopLimit)
    case ("Q", 1) where fields[0].isEmpty: self = .stopping
    case ("I", 3):
      guard fields[0].count == 1,
        let kind = fields[0].first.flatMap(DeploymentInventory.Item.Kind.init(rawValue:))
      else { return nil }
      self = .inventory(DeploymentInventory.Item(kind: kind, name: fields[1], identity: fields[2]))
    default: return nil
    }
  }

  /// `T<stage timeout>[\t<exit timeout>]`'s event, from its one or two
  /// fields; nil when one is not a duration.
  private static func stageTimeout(_ fields: [String]) -> ProgressEvent? {
    guard let duration = StageTimeout.parse(fields[0]) else { return nil }
    guard fields.count == 2 else { return .stageTimeout(duration) }
    guard let exit = StageTimeout.parse(fields[1]) else { return nil }
    return .stageTimeout(duration, exit: exit)
  }

  /// `W<kind>\t<offset>\t<object>\t<plugin>`'s event, from its four
  /// fields; nil when the kind is unknown or the offset is not 1 to 16
  /// hexadecimal digits.
  private static func crashSite(_ fields: [String]) -> ProgressEvent? {
    guard fields[0].count == 1, let kind = fields[0].first.flatMap(CrashSite.Kind.init(rawValue:)),
      !fields[1].isEmpty, fields[1].count <= 16, let offset = UInt64(fields[1], radix: 16)
    else { return nil }
    return .crashSite(
      CrashSite(
        kind: kind, offset: offset, object: fields[2].isEmpty ? nil : fields[2],
        plugin: fields[3].isEmpty ? nil : fields[3]))
  }

  /// Whether the child sends this event on the pipe. Stages and phases go
  /// through the ``StageRecord``; a line claiming one was not written by
  /// plugboard, and is ignored.
  var travelsOnThePipe: Bool {
    switch self {
    case .stageTimeout, .crash, .crashSite, .making, .selfSignal, .exiting, .privateFolder, .ready, .stopping,
      .inventory:
      true
    case .stage, .reporting, .running: false
    }
  }

  static func escape(_ text: String) -> String {
    var result = ""
    result.reserveCapacity(text.utf8.count)
    for character in text.unicodeScalars {
      switch character {
      case "\\": result += "\\\\"
      case "\t": result += "\\t"
      case "\n": result += "\\n"
      default: result.unicodeScalars.append(character)
      }
    }
    return result
  }

  /// The text of an escaped field; nil when it holds an escape ``escape(_:)``
  /// never writes (or ends in the middle of one).
  static func unescape(_ field: Substring) -> String? {
    // A byte test: `contains("\\")` would be Foundation's locale-aware
    // search, a third of the parent's work on each progress line.
    guard field.utf8.contains(UInt8(ascii: "\\")) else { return String(field) }
    var result = ""
    var escaping = false
    for character in field.unicodeScalars {
      if escaping {
        switch character {
        case "t": result += "\t"
        case "n": result += "\n"
        case "\\": result += "\\"
        default: return nil
        }
        escaping = false
      } else if character == "\\" {
        escaping = true
      } else {
        result.unicodeScalars.append(character)
      }
    }
    return escaping ? nil : result
  }

  /// `10`, or `0.5`: a duration in seconds as people write it.
  static func seconds(_ duration: Duration) -> String {
    let (seconds, attoseconds) = duration.components
    guard attoseconds != 0 else { return "\(seconds)" }
    return "\(Double(seconds) + Double(attoseconds) / 1e18)"
  }
}

extension String {
  fileprivate func trimmingSuffix(while predicate: (Character) -> Bool) -> String {
    var text = self
    while let last = text.last, predicate(last) { text.removeLast() }
    return text
  }
}
