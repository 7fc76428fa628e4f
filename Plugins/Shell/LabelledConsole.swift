import AppContracts

/// Writes the app's lines to standard output, each after a label, so that
/// output produced from fixtures can never be mistaken for the real thing.
struct LabelledConsole: AppConsole {
  let label: String

  func write(_ line: String) {
    print("\(label) \(line)")
  }
}
