// Type-checked against the built PlugboardEngine module by
// ChildSessionTests: each function takes a command's phases out of order,
// and none compiles.
import PlugboardEngine

func runAfterTheReport(_ bringingUp: consuming ChildSession.BringingUp, _ deployment: Deployment) {
  let reporting = bringingUp.beginReport()
  _ = reporting.handOverToApplication(of: deployment)
}

func handOverToTheProgramAfterTheApplication(_ running: consuming ChildSession.ApplicationRunning) {
  _ = running.handOverToProgram()
}

func makeAPhase(_ session: ChildSession) {
  _ = ChildSession.ApplicationRunning(session: session)
}
