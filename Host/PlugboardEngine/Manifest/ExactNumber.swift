/// A JSON number as written, compared as the decimal it denotes rather than
/// as the nearest `Double`: `1.0000000000000001` is not 1, though both
/// round to the same `Double`; `1.0` and `10e-1` are 1.
struct ExactNumber {
  private let text: Substring

  /// `text` as the JSON parser kept it (valid JSON number syntax).
  init(_ text: String) {
    self.text = Substring(text)
  }

  /// Whether the number is exactly `value`. Linear in the text's length;
  /// an exponent too large to count is never `value`.
  func isExactly(_ value: Int) -> Bool {
    guard let (negative, digits, exponent) = decimal else { return false }
    guard !digits.isEmpty else { return value == 0 }
    let target = Self.normalized(Array(String(value.magnitude).utf8), exponent: 0)
    return negative == (value < 0) && digits == target.digits && exponent == target.exponent
  }

  /// The value as sign, significant digits without leading or trailing
  /// zeros (empty for zero), and a power of ten.
  private var decimal: (negative: Bool, digits: [UInt8], exponent: Int)? {
    var rest = text.utf8[...]
    let negative = rest.first == UInt8(ascii: "-")
    if negative { rest = rest.dropFirst() }
    let isDigit = { (byte: UInt8) in (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) }
    let integer = rest.prefix(while: isDigit)
    rest = rest.dropFirst(integer.count)
    var fraction: Substring.UTF8View.SubSequence = rest.prefix(0)
    if rest.first == UInt8(ascii: ".") {
      rest = rest.dropFirst()
      fraction = rest.prefix(while: isDigit)
      rest = rest.dropFirst(fraction.count)
    }
    var exponent = 0
    if let marker = rest.first, marker == UInt8(ascii: "e") || marker == UInt8(ascii: "E") {
      // Beyond this no digit string a manifest can hold brings it back to a
      // small integer.
      guard let written = Int(String(decoding: rest.dropFirst(), as: UTF8.self)), written.magnitude < 1 << 40
      else { return nil }
      exponent = written
    } else if !rest.isEmpty {
      return nil
    }
    let normal = Self.normalized(Array(integer) + Array(fraction), exponent: exponent - fraction.count)
    return (negative, normal.digits, normal.exponent)
  }

  private static func normalized(_ digits: [UInt8], exponent: Int) -> (digits: [UInt8], exponent: Int) {
    let zero = UInt8(ascii: "0")
    guard let first = digits.firstIndex(where: { $0 != zero }),
      let last = digits.lastIndex(where: { $0 != zero })
    else { return ([], 0) }
    return (Array(digits[first...last]), exponent + (digits.count - 1 - last))
  }
}
