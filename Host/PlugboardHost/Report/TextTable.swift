/// Rows of cells laid out in left-aligned columns, two spaces apart.
struct TextTable {
  var rows: [[String]]

  /// One line per row, each prefixed by `indent`; the last column is not
  /// padded, so lines carry no trailing spaces.
  func lines(indent: String = "") -> [String] {
    let layout = Layout(rows)
    return rows.indices.map { row in
      var line = indent
      layout.append(rows[row], counts: layout.counts[row], to: &line)
      return line
    }
  }

  /// ``lines(indent:)``, each after a line break, appended to `text`: for
  /// a report printed in one piece, without a string per line.
  func append(to text: inout String, indent: String = "") {
    let layout = Layout(rows)
    for row in rows.indices {
      text += "\n"
      text += indent
      layout.append(rows[row], counts: layout.counts[row], to: &text)
    }
  }

  /// Each cell's width, counted once (characters, not bytes), and each
  /// column's: a listing has thousands of rows.
  private struct Layout {
    let counts: [[Int]]
    let widths: [Int]
    /// Spaces enough for any padding, cut to length instead of a new
    /// string per padded cell.
    let spaces: String

    init(_ rows: [[String]]) {
      counts = rows.map { $0.map(Layout.width) }
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
      self.widths = widths
      spaces = String(repeating: " ", count: widths.max() ?? 0)
    }

    func append(_ row: [String], counts: [Int], to text: inout String) {
      for (column, cell) in row.enumerated() {
        if column > 0 { text += "  " }
        text += cell
        if column < row.count - 1, widths[column] > counts[column] {
          text += Substring(spaces.utf8.prefix(widths[column] - counts[column]))
        }
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
}
