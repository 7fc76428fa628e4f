import PlugboardHost

#if canImport(Glibc)
  import Glibc
#endif

// A closed pipe (`plugboard list | head -1`) must not kill the process with
// SIGPIPE: plugboard ends by exiting, with a documented status, always.
signal(SIGPIPE, SIG_IGN)
exit(await Plugboard.main(Array(CommandLine.arguments.dropFirst())))
