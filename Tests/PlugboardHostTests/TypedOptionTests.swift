import Testing

@testable import PlugboardCLI
@testable import PlugboardEngine

/// Commands read their options through the specs the parser, the help and
/// the completion scripts use, so that an option is named in one place.
@Suite struct TypedOptionTests {
  @Test func valuesAndFlagsAreReadThroughTheirSpecs() throws {
    guard
      case .command(_, let options) = try InvocationParser.parse(["explain", "Clock", "--json", "--name=utc"])
    else {
      Issue.record("explain was not parsed as a command")
      return
    }
    #expect(options.isSet(.json))
    #expect(!options.isSet(.typeNames))
    #expect(options[.registrationName] == "utc")
    #expect(options[.manifest] == nil)
  }

  @Test func anOptionSharedByCommandsIsReadTheSameInEach() throws {
    for arguments in [["run", "--pid-file", "/run/p.pid"], ["reload", "--pid-file", "/run/p.pid"]] {
      guard case .command(_, let options) = try InvocationParser.parse(arguments) else {
        Issue.record("\(arguments) was not parsed as a command")
        continue
      }
      #expect(options[.pidFile] == "/run/p.pid")
      #expect(options[.pid] == nil)
    }
  }

  @Test func durationsAreReadThroughTheirSpecs() throws {
    guard case .command(_, let options) = try InvocationParser.parse(["run", "--stage-timeout", "2.5"]) else {
      Issue.record("run was not parsed as a command")
      return
    }
    #expect(options.duration(.stageTimeout) == .milliseconds(2500))
    #expect(options.duration(.exitTimeout) == nil)
  }

  /// The help text describes `check --json` and `reload --pid-file` in the
  /// command's own words, but it is one option, with one name and the same
  /// value: the parser hoists an option before the command by its name.
  @Test func anOptionTakesAValueInEveryCommandOrInNone() {
    var valueNames: [String: String?] = [:]
    for command in CommandSpec.all {
      for option in command.options {
        if let seen = valueNames[option.name] {
          #expect(seen == option.valueName, "\(option.name) of '\(command.name)'")
        } else {
          valueNames[option.name] = option.valueName
        }
      }
    }
  }
}
