/// Rows of cells laid out in left-aligned columns, two spaces apart.
struct TextTable {
  var rows: [[String]]

  /// One line per row, each prefixed by `indent`; the last column is not
  /// padded, so lines carry no trailing spaces.
  func lines(indent: String = "") -> [String] {
    // Each cell's width is counted once (characters, not bytes), and each
    // line is built in one buffer: a listing has thousands of rows.
    let counts = rows.map { $0.map(Self.width) }
    var widths: [Int] = []
    for row in counts {
      for (column, count) in row.enumerated() {
        if column == widths.count {
          widths.append(count)
        } else {
          widths[column] = max(widths[column], count)
        }
      }
    }
    return zip(rows, counts).map { row, counts in
      var line = indent
      for (column, cell) in row.enumerated() {
        if column > 0 { line += "  " }
        line += cell
        if column < row.count - 1, widths[column] > counts[column] {
          line += String(repeating: " ", count: widths[column] - counts[column])
        }
      }
      return line
    }
  }

  /// The characters in `cell`. Counting them walks grapheme breaks, slow
  /// over thousands of cells; in ASCII text each byte is one character,
  /// save the carriage return, which joins a following line feed.
  private static func width(_ cell: String) -> Int {
    let bytes = cell.utf8
    guard bytes.allSatisfy({ $0 < 0x80 && $0 != 0x0D }) else { return cell.count }
    return bytes.count
  }
}
