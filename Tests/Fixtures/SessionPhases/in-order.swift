// Type-checked against the built PlugboardEngine module by
// ChildSessionTests: a command's phases, in each order a command takes them.
import PlugboardEngine

func report(_ session: ChildSession) {
  let bringingUp = session.beginBringUp(divertingPluginOutput: false)
  _ = bringingUp.beginReport()
}

func runThenFailToStart(_ session: ChildSession, _ deployment: Deployment) {
  let running = session.beginBringUp(divertingPluginOutput: false).handOverToApplication(of: deployment)
  _ = running.beginReport()
}

func embedThenRun(_ session: ChildSession, _ deployment: Deployment) {
  let program = session.beginBringUp(divertingPluginOutput: false).handOverToProgram()
  _ = program.handOverToApplication(of: deployment)
}
