#if canImport(Glibc)
  import Glibc
#endif

/// A plugin and the neighbours its `$ORIGIN` run path finds, sealed
/// (``SealedCopy``) and their signatures checked at vet, before anything of
/// them is mapped; then opened from those copies, as a pinned plugin is
/// (``PinnedLibrary/openPrivately(_:copy:neighbours:progress:)``), so what
/// is loaded is what was verified.
///
/// The plugin is copied from the descriptor its other checks read; each
/// neighbour with a `libraryPins` entry is held to its pin instead of its
/// signature (a pin wins); each other one must be signed by a key the
/// allowed signers file lists for its library name (`libAppContracts.so`:
/// `AppContracts`), and the plugin by one listed for the plugin's name.
final class SignedLibraries {
  let copy: SealedCopy
  private(set) var neighbours: [PinnedLibrary.SealedNeighbour] = []
  /// Who signed what: the plugin first, then its neighbours, signed ones only.
  private(set) var signatures: [LibrarySignature] = []

  private init(copy: SealedCopy) {
    self.copy = copy
  }

  deinit {
    copy.close()
    for neighbour in neighbours { neighbour.copy.close() }
  }

  /// Whether anything here was signed: an unsigned plugin whose trust
  /// does not require signatures is loaded as one without trust.
  var isSigned: Bool { !signatures.isEmpty }

  /// Seals `file` (canonical) from `descriptor` and its neighbours, and
  /// checks each; `name` is the plugin's name.
  static func vet(
    _ file: String, descriptor: Int32?, name: String, trust: SignatureTrust, keys: LibrarySignatureCheck.Keys,
    pins: LibraryPins, at time: Int
  ) -> Result<SignedLibraries, SignatureRefusal> {
    func refusal(
      _ reason: SignatureRefusal.Reason, library: String = file, neighbour: String? = nil,
      principal: String = name
    )
      -> SignatureRefusal
    {
      SignatureRefusal(
        reason: reason, library: library, neighbour: neighbour, principal: principal, trust: trust,
        allowedSigners: keys.file)
    }
    guard let descriptor, lseek(descriptor, 0, SEEK_SET) == 0 else {
      return .failure(refusal(.unreadable(SystemCallError("read \(file)"))))
    }
    let libraries: SignedLibraries
    switch SealedCopy.make(from: descriptor, name: file, digests: .sha512) {
    case .success(let copy): libraries = SignedLibraries(copy: copy)
    case .failure(let failure): return .failure(refusal(.unreadable(failure)))
    }
    switch LibrarySignatureCheck.check(
      file, of: name, copy: libraries.copy, principal: name, keys: keys, require: trust.requireSignatures,
      at: time)
    {
    case .success(let signature): libraries.signatures += signature.map { [$0] } ?? []
    case .failure(let reason): return .failure(refusal(reason))
    }
    // Each dynamic section still to follow, with the neighbour it is of.
    var pending: [(descriptor: Int32, of: (name: String, path: String)?)] = [(libraries.copy.descriptor, nil)]
    let folder = FilePath.directory(of: file)
    while let (next, owner) = pending.popLast() {
      let info: ELFDynamicInfo
      switch ELFDynamicInfo.read(next) {
      case .success(let read): info = read
      case .failure(let defect):
        return .failure(
          refusal(.malformed(defect.found), library: owner?.path ?? file, neighbour: owner?.name))
      }
      let found: Neighbours.Found
      switch Neighbours.find(info, folder: folder) {
      case .success(let neighbours): found = neighbours
      case .failure(.originInPath(let entry)):
        return .failure(refusal(.originInPath(entry), library: owner?.path ?? file, neighbour: owner?.name))
      case .failure(let failure):
        return .failure(
          refusal(.malformed(failure.detail(pin: "")), library: owner?.path ?? file, neighbour: owner?.name))
      }
      if trust.requireSignatures, let (library, path, entry) = found.elsewhere.first {
        return .failure(
          refusal(
            .elsewhere(entry: entry), library: FilePath.canonical(path) ?? path, neighbour: library,
            principal: PluginDiscovery.provisionalName(of: library)))
      }
      for (library, path) in found.beside where !libraries.neighbours.contains(where: { $0.name == library })
      {
        let canonical = FilePath.canonical(path) ?? path
        let principal = PluginDiscovery.provisionalName(of: library)
        func refused(_ reason: SignatureRefusal.Reason) -> SignatureRefusal {
          refusal(reason, library: canonical, neighbour: library, principal: principal)
        }
        let pin = pins.pin(for: canonical)
        let copy: SealedCopy
        switch PinnedLibrary.seal(canonical, digests: pin == nil ? .sha512 : .sha256) {
        case .success(let made): copy = made
        case .failure(let failure): return .failure(refused(.unreadable(failure)))
        }
        libraries.neighbours.append(.init(name: library, path: canonical, copy: copy))
        if let pin {
          guard copy.digest.hex == pin.sha256 else {
            return .failure(
              refused(.pinMismatch(place: pin.place, expected: pin.sha256, found: copy.digest.hex)))
          }
        } else {
          switch LibrarySignatureCheck.check(
            canonical, of: name, copy: copy, principal: principal, keys: keys,
            require: trust.requireSignatures,
            at: time)
          {
          case .success(let signature): libraries.signatures += signature.map { [$0] } ?? []
          case .failure(let reason): return .failure(refused(reason))
          }
        }
        pending.append((copy.descriptor, (library, canonical)))
      }
    }
    return .success(libraries)
  }
}
