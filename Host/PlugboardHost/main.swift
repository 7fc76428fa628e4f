import PlugboardCLI
import PlugboardEngine

#if canImport(Glibc)
  import Glibc
#endif

// A closed pipe (`plugboard list | head -1`) must not kill the process with
// SIGPIPE: plugboard ends by exiting, with a documented status, always.
signal(SIGPIPE, SIG_IGN)
// What the launcher (`plugboard`) handed over when it forked already, out
// of the environment before plugin code could read it.
let launch = LauncherHandoff.take()
// Before any file is opened: what plugboard inherited above 2 is not for
// plugin code, and a closed descriptor 0, 1 or 2 must not be reused for one.
StandardStreams.closeInheritedDescriptors(keeping: launch?.descriptorCount ?? 0)
StandardStreams.secure()
// The command's session: in a supervised child, attached to its parent
// before any thread exists; every deployment the command brings up reports
// to it.
let session = ChildSession()
// A process given a secret setting leaves no core file and admits no
// debugger of the same user. The command line adds its own settings.
let settings = HostSettings(hidesProcessHoldingSecrets: true)
let arguments = Array(CommandLine.arguments.dropFirst())
// Parsed once: the supervising parent and the command read the same result.
let invocation = Plugboard.parse(arguments)
// Before any child exists: the socket `run --listen` asks for is this
// process's, handed to each child as socket activation's.
if let status = Plugboard.listenIfAsked(invocation) { Plugboard.exit(status) }
// Then, while this process has a single thread: a command
// that loads plugins forks here (or the launcher forked), and the parent
// only supervises.
// Plugboard.exit ends the process by the signal that asked it to stop, if
// one did.
if let status = Plugboard.superviseIfNeeded(invocation, launch: launch, session: session) {
  Plugboard.exit(status)
}
// In the process that runs the command (unsupervised, or the child), still
// single-threaded; the supervising parent keeps its small table.
StandardStreams.reserveHighDescriptors()
Plugboard.exit(await Plugboard.main(invocation, session: session, settings: settings))
