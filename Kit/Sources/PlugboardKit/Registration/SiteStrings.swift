/// The source file and plugin names of registration sites, each kept once
/// for the whole process and known by a 32-bit number, so that a record
/// holds its site in 12 bytes where a ``RegistrationSite`` takes 40
/// (see ``RecordSite``).
///
/// Process-wide and never emptied: a record can outlive its container (a
/// ``ResolutionError`` keeps records), so a number must stay good as long
/// as any record might; and there are only as many strings as source
/// files that register and plugins assembled.
enum SiteStrings {
  private struct Table {
    var strings: [String] = []
    var numbers: [String: UInt32] = [:]
  }

  private static let table = Protected(Table())

  /// The number of `string`, giving it the next one if it has none.
  static func number(of string: String) -> UInt32 {
    table.withLock { table in
      if let number = table.numbers[string] { return number }
      // More than 2³² distinct file and plugin names would not fit in
      // memory; wrapping keeps this total rather than trapping.
      let number = UInt32(truncatingIfNeeded: table.strings.count)
      table.strings.append(string)
      table.numbers[string] = number
      return number
    }
  }

  /// The number of `string` if it has one: a string never numbered names
  /// no site.
  static func existingNumber(of string: String) -> UInt32? {
    table.withLock { $0.numbers[string] }
  }

  /// The string numbered `number`; empty for a number never given.
  static func string(numbered number: UInt32) -> String {
    table.withLock { table in
      Int(number) < table.strings.count ? table.strings[Int(number)] : ""
    }
  }
}
