// Compiled against the built PlugboardEngine module by ChildSessionTests:
// each function takes a phase a second time, or from a copy, and none
// compiles (a phase is used up by its transition).
import PlugboardEngine

func reportTwice(_ bringingUp: consuming ChildSession.BringingUp) {
  _ = bringingUp.beginReport()
  _ = bringingUp.beginReport()
}

func reportAndRun(_ bringingUp: consuming ChildSession.BringingUp, _ deployment: Deployment) {
  _ = bringingUp.beginReport()
  _ = bringingUp.handOverToApplication(of: deployment)
}

func reportFromABorrowedPhase(_ bringingUp: borrowing ChildSession.BringingUp) {
  _ = bringingUp.beginReport()
}

func reportFromACopy(_ bringingUp: consuming ChildSession.BringingUp) {
  let copy = bringingUp
  _ = bringingUp.beginReport()
  _ = copy.beginReport()
}
