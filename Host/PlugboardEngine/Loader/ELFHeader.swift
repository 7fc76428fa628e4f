#if canImport(Glibc)
  import Glibc
#endif

/// The identifying part of an ELF file header: enough to tell a shared
/// library for this machine from anything else *before* `dlopen`, which
/// would run the file's initializers.
struct ELFHeader: Equatable {
  /// 1 for 32-bit, 2 for 64-bit.
  let fileClass: UInt8
  /// `e_type`: 1 relocatable, 2 executable, 3 shared object, 4 core.
  let type: UInt16
  /// `e_machine`: 62 is x86-64, 183 is AArch64.
  let machine: UInt16

  static let sharedObjectType: UInt16 = 3

  /// The header of the file at `path`, or what the file is instead
  /// ("an empty file", "text starting \"…\"").
  static func read(path: String) -> Result<ELFHeader, NotELF> {
    // A descriptor, not Foundation's FileHandle: `run` reads the host's
    // own header on its way to the first plugin, and FileHandle's first
    // use (an NSObject) cost more than the read.
    let descriptor = open(path, O_RDONLY | O_CLOEXEC)
    guard descriptor >= 0 else {
      return .failure(NotELF(found: "a file that cannot be opened for reading"))
    }
    defer { close(descriptor) }
    return parse(FileBytes.pread(descriptor, at: 0, count: 64))
  }

  static func parse(_ bytes: [UInt8]) -> Result<ELFHeader, NotELF> {
    guard bytes.count >= 20, bytes.starts(with: [0x7F, 0x45, 0x4C, 0x46]) else {
      return .failure(NotELF(found: describe(bytes)))
    }
    let littleEndian = bytes[5] == 1
    func half(_ offset: Int) -> UInt16 {
      let low = UInt16(bytes[offset])
      let high = UInt16(bytes[offset + 1])
      return littleEndian ? low | high << 8 : high | low << 8
    }
    return .success(ELFHeader(fileClass: bytes[4], type: half(16), machine: half(18)))
  }

  /// The header of the running executable: the machine plugins must match.
  static let host: ELFHeader? = try? read(path: "/proc/self/exe").get()

  var typeDescription: String {
    switch type {
    case 1: "an ELF relocatable object (ET_REL)"
    case 2: "an ELF executable (ET_EXEC)"
    case 3: "an ELF shared object (ET_DYN)"
    case 4: "an ELF core dump (ET_CORE)"
    default: "an ELF file of type \(type)"
    }
  }

  var machineDescription: String {
    let name =
      switch machine {
      case 3: "x86"
      case 40: "ARM"
      case 62: "x86-64"
      case 183: "AArch64"
      case 243: "RISC-V"
      default: "machine \(machine)"
      }
    return "\(name), \(fileClass == 2 ? 64 : 32)-bit"
  }

  private static func describe(_ bytes: [UInt8]) -> String {
    if bytes.isEmpty { return "an empty file" }
    if bytes.starts(with: Array("#!".utf8)) { return "a script" }
    let printable = bytes.prefix(16).allSatisfy { (0x20..<0x7F).contains($0) || $0 == 0x0A || $0 == 0x09 }
    if printable {
      let text = String(decoding: bytes.prefix(16), as: UTF8.self)
        .replacingOccurrences(of: "\n", with: "\\n").replacingOccurrences(of: "\t", with: "\\t")
      return "text starting \"\(text)\""
    }
    return "data starting " + bytes.prefix(4).map { String(format: "%02x", $0) }.joined(separator: " ")
  }
}

/// What a file that is not ELF looks like instead.
struct NotELF: Error, Equatable {
  let found: String
}
