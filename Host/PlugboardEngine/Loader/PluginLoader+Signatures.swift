/// The signature stages: checked at vet, before `dlopen`, over a sealed
/// copy of the descriptor the other checks read; opened from that copy.
extension PluginLoader {
  /// `entry`'s library and its neighbours sealed and their signatures
  /// checked (``PluginSignatures``); nil when nothing of it is signed or
  /// must be.
  /// - Throws: at stage `vet`, the ``SignatureRefusal``.
  func vetSignatures(_ entry: PluginEntry, file elf: ELFFile, vetting: PluginVetting)
    throws(DeploymentProblem)
    -> SignedLibraries?
  {
    switch vetting.signatures.vet(entry, file: elf.path, descriptor: elf.descriptor) {
    case .success(let signed): return signed
    case .failure(let refusal): throw .plugin(entry.name, file: elf.path, stage: .vet, refusal.detail)
    }
  }

  /// Opens the signed plugin from the copies its signatures were checked
  /// over.
  func openSigned(
    _ entry: PluginEntry, _ file: String, signed: SignedLibraries, needs: PluginNeeds?,
    origins: PrivateOrigins
  ) throws(DeploymentProblem) -> DynamicLibrary {
    try opened(
      PinnedLibrary.openPrivately(
        file, copy: signed.copy, neighbours: signed.neighbours, origins: origins, progress: progress),
      entry, file, needs: needs, pin: "its signature")
  }
}
