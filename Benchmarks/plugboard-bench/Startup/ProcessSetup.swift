/// What every process scenario needs first: a work folder, the build and
/// repository folders, and the host, baseline and probe built.
struct ProcessSetup {
  let work: WorkFolder
  let locations: BenchLocations

  init(_ name: String) throws {
    work = try WorkFolder(name)
    locations = try BenchLocations.find().get()
    try HostProducts.ensure(locations, work: work.url).get()
  }
}
