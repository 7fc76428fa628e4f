import AppContracts

/// Writes the app's lines to standard output.
struct StandardOutputConsole: AppConsole {
  func write(_ line: String) {
    print(line)
  }
}
