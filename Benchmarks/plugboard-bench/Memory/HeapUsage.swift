import PlugboardBenchSupport

/// Bytes of heap in use right now, by the C allocator's own account
/// (`mallinfo2()`, mapped blocks included): every Swift allocation goes
/// through it.
func heapInUse() -> Int {
  Int(plugboard_bench_heap_in_use())
}
