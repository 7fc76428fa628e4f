// plugboard-dlopen-baseline: the floor the `startup` scenarios compare
// `plugboard run` against. It opens each library named on the command line
// exactly as the host does (RTLD_NOW | RTLD_LOCAL, never closed), so the
// dynamic loader and every library initialiser run, then prints one line.
// Anything `plugboard run` spends beyond this program is the host's own cost.
//
//   plugboard-dlopen-baseline /path/libA.so /path/libB.so …

#if canImport(Glibc)
  import Glibc
#endif

var opened = 0
for path in CommandLine.arguments.dropFirst() {
  guard dlopen(path, RTLD_NOW | RTLD_LOCAL) != nil else {
    let reason = dlerror().map { String(cString: $0) } ?? "unknown error"
    // On stderr, so the benchmark never takes a failure for the ready line.
    let message = "plugboard-dlopen-baseline: cannot open \(path): \(reason)\n"
    _ = message.withCString { write(2, $0, strlen($0)) }
    exit(1)
  }
  opened += 1
}
// The one line the benchmark waits for; it reads up to the first newline.
print("opened \(opened) libraries")
exit(0)
