import PlugboardHost

#if canImport(Glibc)
  import Glibc
#endif

let arguments = Array(CommandLine.arguments.dropFirst())
if arguments.first == "--version" {
  print(HostVersion.line)
  exit(0)
}
print("usage: plugboard [--version] [--help]")
exit(arguments.first == "--help" ? 0 : 2)
