import PlugboardHost

#if canImport(Glibc)
  import Glibc
#endif

// A closed pipe (`plugboard list | head -1`) must not kill the process with
// SIGPIPE: plugboard ends by exiting, with a documented status, always.
signal(SIGPIPE, SIG_IGN)
let arguments = Array(CommandLine.arguments.dropFirst())
// Before anything else, while this process has a single thread: a command
// that loads plugins forks here, and the parent only supervises.
if let status = Plugboard.superviseIfNeeded(arguments) { exit(status) }
exit(await Plugboard.main(arguments))
