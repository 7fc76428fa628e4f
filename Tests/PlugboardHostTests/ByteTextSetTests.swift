import Testing

@testable import PlugboardEngine

@Suite struct ByteTextSetTests {
  /// The repeats of `texts`, found one `ByteTextSet` insert at a time: what
  /// the partitioned search must agree with.
  private func repeatsOneByOne(_ texts: [[UInt8]]) -> [Bool] {
    var seen = ByteTextSet(capacity: texts.count)
    return texts.map { text in text.withUnsafeBufferPointer { !seen.insert($0) } }
  }

  private func repeats(_ texts: [[UInt8]]) -> [Bool] {
    let buffers = texts.map { text in
      let buffer = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: text.count)
      _ = buffer.initialize(from: text)
      return UnsafeBufferPointer(buffer)
    }
    defer { for buffer in buffers { buffer.deallocate() } }
    return ByteTextSet.repeats(count: texts.count) { buffers[$0] }
  }

  /// Past the threshold of distinct texts, texts are sorted into
  /// partitions by hash before they are compared: the later of two equal
  /// texts is still the repeat, wherever the two are, whatever their
  /// lengths (the empty text too). 40 texts stay in one set; 12,000 and
  /// 50,000, with thousands of distinct ones, are partitioned.
  @Test(arguments: [40, 12_000, 50_000])
  func marksTheLaterOfEqualTexts(count: Int) {
    var generator = SeededGenerator(seed: UInt64(count))
    let texts = (0..<count).map { _ -> [UInt8] in
      let length = Int(generator.next() % 12)
      // Few distinct texts of each short length, so many repeat.
      return (0..<length).map { _ in UInt8(0x61 + generator.next() % 3) }
    }
    let expected = repeatsOneByOne(texts)
    #expect(expected.contains(true) && expected.contains(false))
    #expect((Set(texts).count > ByteTextSet.partitionThreshold) == (count > 40))
    #expect(repeats(texts) == expected)
  }

  @Test func marksEveryCopyOfOneTextButTheFirst() {
    let texts = Array(repeating: Array("city".utf8), count: 20_000) + [Array("town".utf8)]
    let repeated = repeats(texts)
    #expect(repeated.first == false)
    #expect(repeated.last == false)
    #expect(repeated.filter { $0 }.count == 19_999)
  }

  @Test func marksNothingAmongDistinctTexts() {
    let texts = (0..<30_000).map { Array("Weather\($0)".utf8) }
    #expect(!repeats(texts).contains(true))
  }
}
