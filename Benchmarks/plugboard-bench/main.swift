// plugboard-bench: times PlugboardKit against hand-written code.
//
//   swift run -c release plugboard-bench            # the full run BENCHMARKS.md reports
//   swift run -c release plugboard-bench --quick    # proves it still works (CI)
//   plugboard-bench --iterations N --only S [--side baseline|plugboard]
//                                                    # for callgrind (BENCHMARKS.md)
//   plugboard-bench --only versus --versus OTHER/.build/release
//                                                    # this host side by side with another build's
//   plugboard-bench --only startup_sample --before DIR
//                                                    # the sample's start-up rows of DIR's host too
//
// Each scenario prints the median and minimum ns per operation over the
// repetitions, next to a hand-written baseline from the same run; the
// in-process ones run each in processes of their own, the best of three.

#if canImport(Glibc)
  import Glibc
#endif

let arguments = CommandLine.arguments.dropFirst()
let quick = arguments.contains("--quick")
var plan: MeasurementPlan = quick ? .quick : .full
if let index = arguments.firstIndex(of: "--iterations"), index < arguments.endIndex - 1 {
  plan.fixedIterations = Int(arguments[arguments.index(after: index)])
}

#if DEBUG
  print("note: this is a debug build; the figures mean nothing (use -c release)")
#endif
print("plugboard-bench: \(plan.repetitions) repetitions of ≥ \(plan.secondsPerRepetition) s each")

if let index = arguments.firstIndex(of: "--side"), index < arguments.endIndex - 1 {
  plan.side = MeasuredSide(rawValue: arguments[arguments.index(after: index)])
}

let only = arguments.firstIndex(of: "--only").map { arguments[arguments.index(after: $0)] }
if arguments.contains(IsolatedRuns.childFlag) {
  print(IsolatedRuns.report(ContainerScenarios(plan: plan).run(only: only, exactly: true)))
  exit(0)
}
// Timed, the in-process scenarios each run in processes of their own (see
// IsolatedRuns); counted by callgrind (`--iterations`, `--side`), in this one.
var rows =
  plan.fixedIterations == nil && plan.side == nil
  ? IsolatedRuns.run(
    ContainerScenarios.names.filter { only == nil || $0.hasPrefix(only ?? "") }, quick: quick)
  : ContainerScenarios(plan: plan).run(only: only)
if only == nil || only?.hasPrefix("startup") == true {
  let before = arguments.firstIndex(of: "--before").flatMap {
    $0 < arguments.endIndex - 1 ? arguments[arguments.index(after: $0)] : nil
  }
  rows += StartupScenarios(plan: plan, quick: quick, only: only, before: before).run()
}
if only == nil || only?.hasPrefix("reload") == true {
  rows += ReloadScenarios(quick: quick, only: only).run()
}
if let index = arguments.firstIndex(of: "--versus"), index < arguments.endIndex - 1,
  only == nil || only?.hasPrefix("versus") == true
{
  rows += VersusBuild.rows(against: arguments[arguments.index(after: index)], quick: quick)
}
if only == nil || only?.hasPrefix("manifest") == true {
  rows += ManifestScenarios(plan: plan, quick: quick).run()
}
if only == nil || only?.hasPrefix("memory") == true {
  rows += MemoryScenarios(plan: plan).run()
}
if only == nil || only?.hasPrefix("hostile") == true {
  rows += HostileInputScenarios(plan: plan, quick: quick).run(only: only)
}
if only == nil || only?.hasPrefix("hash") == true {
  rows += HashingScenarios(plan: plan).run()
}
if only == nil || only?.hasPrefix("lifecycle") == true {
  rows += LifecycleScenarios(plan: plan).run()
}
if only == nil || only?.hasPrefix("validate") == true {
  rows += ValidationScenarios(plan: plan).run()
}
// Not in the default run: the first one builds about a thousand modules.
if only?.hasPrefix("scale") == true, !quick {
  rows += ScaleScenarios(plan: plan).run()
}
print(ResultTable.render(rows))
