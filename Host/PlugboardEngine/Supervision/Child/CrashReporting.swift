import PlugboardKit
import PlugboardSupervision

/// The supervised child's part in crash reports: a handler of fatal signals
/// that says, down the progress pipe, what was being resolved when one
/// came; and each thread that runs plugin code made ready for it. The
/// state is the C library's (PlugboardSupervision): a signal handler
/// can reach nothing else.
enum CrashReporting {
  /// Catches fatal signals from now on, writing the crash and the chain of
  /// resolutions in progress to `descriptor` (the progress pipe).
  static func install(reportingTo descriptor: Int32) {
    plugboard_install_crash_reporter(descriptor) { fd in
      guard plugboard_progress_is_intact() != 0 else { return }
      for link in ResolutionTrace.activeChain() {
        let site = link.site.map(\.description) ?? ""
        DescriptorLine.write(ProgressEvent.making(type: link.key.description, site: site).line, to: fd)
      }
    }
  }

  /// Whatever thread runs plugin code gets an alternate signal stack (a
  /// thread-local check after its first stage), so that a stack overflow
  /// there is still reported; and an address in a plugin's library is
  /// blamed on it, whichever stage it crashes in.
  static func prepareThread(for stage: LoadStage, plugin: String?, file: String?) {
    plugboard_prepare_thread_for_crashes()
    if stage == .open, let plugin, let file { plugboard_note_plugin_library(plugin, file) }
  }
}
