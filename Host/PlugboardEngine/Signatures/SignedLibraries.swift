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
    pins: LibraryPins, at time: Int, proofs: SignatureProofs
  ) -> Result<SignedLibraries, SignatureRefusal> {
    let vetting = Vetting(
      file: file, plugin: name, trust: trust, keys: keys, pins: pins, time: time, proofs: proofs)
    guard let descriptor, lseek(descriptor, 0, SEEK_SET) == 0 else {
      return .failure(vetting.refusal(.unreadable(SystemCallError("read \(file)"))))
    }
    let libraries: SignedLibraries
    switch vetting.seal(file, from: descriptor, principal: name) {
    case .success(let (copy, signature)):
      libraries = SignedLibraries(copy: copy)
      libraries.signatures += signature.map { [$0] } ?? []
    case .failure(let reason): return .failure(vetting.refusal(reason))
    }
    // Each dynamic section still to follow, with the neighbour it is of.
    var pending: [(descriptor: Int32, of: Owner?)] = [(libraries.copy.descriptor, nil)]
    while let (next, owner) = pending.popLast() {
      let beside: [(library: String, path: String)]
      switch vetting.neighbours(read: next, of: owner) {
      case .success(let found): beside = found
      case .failure(let refusal): return .failure(refusal)
      }
      for (library, path) in beside where !libraries.neighbours.contains(where: { $0.name == library }) {
        switch vetting.seal(library, at: path) {
        case .success(let (neighbour, signature)):
          libraries.neighbours.append(neighbour)
          libraries.signatures += signature.map { [$0] } ?? []
          pending.append((neighbour.copy.descriptor, Owner(name: library, path: neighbour.path)))
        case .failure(let refusal): return .failure(refusal)
        }
      }
    }
    return .success(libraries)
  }

  /// The neighbour a dynamic section being followed belongs to (nil for
  /// the plugin's own).
  private struct Owner {
    let name: String
    let path: String
  }

  /// What one plugin's libraries are vetted against, and how a refusal
  /// names them.
  private struct Vetting {
    let file: String
    let plugin: String
    let trust: SignatureTrust
    let keys: LibrarySignatureCheck.Keys
    let pins: LibraryPins
    let time: Int
    let proofs: SignatureProofs

    func refusal(
      _ reason: SignatureRefusal.Reason, library: String? = nil, neighbour: String? = nil,
      principal: String? = nil
    ) -> SignatureRefusal {
      SignatureRefusal(
        reason: reason, library: library ?? file, neighbour: neighbour, principal: principal ?? plugin,
        trust: trust, allowedSigners: keys.file)
    }

    /// `library` read from `source`, sealed, and who signed it for
    /// `principal`.
    func seal(_ library: String, from source: Int32, principal: String) -> Result<
      (copy: SealedCopy, signature: LibrarySignature?), SignatureRefusal.Reason
    > {
      LibrarySignatureCheck.seal(
        library, from: source, of: plugin, principal: principal, keys: keys, require: trust.requireSignatures,
        at: time, proofs: proofs)
    }

    /// The libraries the dynamic section read from `descriptor` (the
    /// plugin's, or `owner`'s) finds beside the plugin; refused when it
    /// cannot be read, names `$ORIGIN` in a path, or, with signatures
    /// required, finds one in another folder that no signature covers.
    func neighbours(read descriptor: Int32, of owner: Owner?) -> Result<
      [(library: String, path: String)], SignatureRefusal
    > {
      func refused(_ reason: SignatureRefusal.Reason) -> SignatureRefusal {
        refusal(reason, library: owner?.path, neighbour: owner?.name)
      }
      let info: ELFDynamicInfo
      switch ELFDynamicInfo.read(descriptor) {
      case .success(let read): info = read
      case .failure(let defect): return .failure(refused(.malformed(defect.found)))
      }
      let found: Neighbours.Found
      switch Neighbours.find(info, folder: FilePath.directory(of: file)) {
      case .success(let neighbours): found = neighbours
      case .failure(.originInPath(let entry)): return .failure(refused(.originInPath(entry)))
      case .failure(let failure): return .failure(refused(.malformed(failure.detail(pin: ""))))
      }
      if trust.requireSignatures, let (library, path, entry) = found.elsewhere.first {
        return .failure(
          refusal(
            .elsewhere(entry: entry), library: FilePath.canonical(path) ?? path, neighbour: library,
            principal: PluginDiscovery.provisionalName(of: library)))
      }
      return .success(found.beside.map { (library: $0.0, path: $0.1) })
    }

    /// The neighbour `library` found at `path`, sealed and held to its pin
    /// (a pin wins), else to its signature for its library name.
    func seal(_ library: String, at path: String) -> Result<
      (PinnedLibrary.SealedNeighbour, LibrarySignature?), SignatureRefusal
    > {
      let canonical = FilePath.canonical(path) ?? path
      let principal = PluginDiscovery.provisionalName(of: library)
      func refused(_ reason: SignatureRefusal.Reason) -> SignatureRefusal {
        refusal(reason, library: canonical, neighbour: library, principal: principal)
      }
      if let pin = pins.pin(for: canonical) {
        let copy: SealedCopy
        switch PinnedLibrary.seal(canonical, digests: .sha256) {
        case .success(let made): copy = made
        case .failure(let failure): return .failure(refused(.unreadable(failure)))
        }
        guard copy.digest.hex == pin.sha256 else {
          copy.close()
          return .failure(
            refused(.pinMismatch(place: pin.place, expected: pin.sha256, found: copy.digest.hex)))
        }
        return .success((PinnedLibrary.SealedNeighbour(name: library, path: canonical, copy: copy), nil))
      }
      let source: Int32
      switch RegularFile.open(canonical) {
      case .success(let opened): source = opened
      case .failure(let failure): return .failure(refused(.unreadable(failure)))
      }
      defer { close(source) }
      switch seal(canonical, from: source, principal: principal) {
      case .success(let (copy, signature)):
        return .success(
          (PinnedLibrary.SealedNeighbour(name: library, path: canonical, copy: copy), signature))
      case .failure(let reason): return .failure(refused(reason))
      }
    }
  }
}
