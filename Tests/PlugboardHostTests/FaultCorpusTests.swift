import Foundation
import Testing

@testable import PlugboardHost

/// One smoke test per case of the fault corpus: the deployment is laid out
/// as described, and `plugboard list` on it ends the way it does today in
/// what will stay true once the host is supervised. The messages, and the
/// exact statuses of the cases that crash today, are asserted elsewhere.
@Suite struct FaultCorpusTests {
  /// How `plugboard list` ends on a case, in terms that stay true.
  enum Ending {
    /// Exits with status 1, as for every problem it diagnoses.
    case exitsWithFailure
    /// Exits (today with status 0: the fault goes unnoticed).
    case exits
    /// Does not report success (today a signal kills it).
    case doesNotSucceed
  }

  /// Today's ending of `plugboard list`, by case; a hanging case is not run.
  static let endings: [FaultCase: Ending] = [
    .missingFile: .exitsWithFailure, .folder: .exitsWithFailure, .notELF: .exitsWithFailure,
    .emptyFile: .exitsWithFailure,
    .truncatedELF: .doesNotSucceed,  // SIGBUS inside dlopen
    .noEntry: .exitsWithFailure, .nullEntry: .exitsWithFailure,
    .entryCrash: .doesNotSucceed,  // SIGSEGV
    .entryAbort: .doesNotSucceed,  // SIGABRT
    .constructorCrash: .doesNotSucceed,  // SIGSEGV inside dlopen
    .constructorExit: .exits,  // status 0, no output
    .trappingAssembly: .doesNotSucceed,  // SIGILL (Swift runtime trap)
    .trappingFactory: .exits,  // status 0: list resolves nothing; run dies of SIGILL
    .unresolvedSymbol: .exitsWithFailure, .otherABI: .exitsWithFailure, .ownKitCopy: .exitsWithFailure,
    .worldWritableFile: .exits, .worldWritableFolder: .exits, .parentEscape: .exits, .symlinkEscape: .exits,
    .symlinkLoop: .exitsWithFailure, .duplicateName: .exitsWithFailure,
    .libraryListedTwice: .exitsWithFailure,
    .threeCrashes: .doesNotSucceed,  // SIGSEGV in the first
    .truncatedJSON: .exitsWithFailure, .wrongTypes: .exitsWithFailure, .unknownKeys: .exitsWithFailure,
    .hugeManifest: .exits,  // status 0: read, loaded and listed
    .deepNesting: .exitsWithFailure,
  ]

  @Test(arguments: FaultCase.allCases)
  func plugboardListEnds(on fault: FaultCase) throws {
    let deployment = try FaultCorpus.deployment(fault)
    #expect(FileManager.default.fileExists(atPath: deployment.manifest))
    #expect(deployment.plugins.contains { $0.name == deployment.plugin && $0.file == deployment.file })
    if fault.hangs {
      // Today `plugboard` waits forever on it: only the layout is checked.
      let header = try ELFHeader.read(path: deployment.file).get()
      #expect(header.type == ELFHeader.sharedObjectType)
      return
    }
    let ending = try #require(Self.endings[fault])
    let result = try Subprocess.plugboard(["list", "--manifest", deployment.manifest])
    switch ending {
    case .exitsWithFailure:
      #expect(result.exited)
      #expect(result.status == 1)
    case .exits:
      #expect(result.exited)
    case .doesNotSucceed:
      #expect(!(result.exited && result.status == 0))
    }
  }
}
