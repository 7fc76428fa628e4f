/// Rows of cells laid out in left-aligned columns, two spaces apart.
struct TextTable {
  var rows: [[String]]

  /// One line per row, each prefixed by `indent`; the last column is not
  /// padded, so lines carry no trailing spaces.
  func lines(indent: String = "") -> [String] {
    let columns = rows.map(\.count).max() ?? 0
    let widths = (0..<columns).map { column in
      rows.map { column < $0.count ? $0[column].count : 0 }.max() ?? 0
    }
    return rows.map { row in
      let cells = row.enumerated().map { column, cell in
        column == row.count - 1 ? cell : cell.padded(to: widths[column])
      }
      return indent + cells.joined(separator: "  ")
    }
  }
}
