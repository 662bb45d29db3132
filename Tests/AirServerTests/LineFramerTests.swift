@testable import AirServer
import Testing

/// The control protocol's line framing: lines as sent, and never more than the limit held of one.
@Suite struct LineFramerTests {
    @Test func framesLinesAcrossChunksAndDropsTheCarriageReturn() {
        var framer = LineFramer(maximumLineLength: 16)
        #expect(framer.feed(ArraySlice("sta".utf8)) == [])
        #expect(framer.feed(ArraySlice("tus\r\n\nhelp\nqu".utf8)) == [.line("status"), .line(""), .line("help")])
        #expect(framer.feed(ArraySlice("it\n".utf8)) == [.line("quit")])
    }

    @Test func aLineOfTheLimitPassesAndOneByteMoreIsOverlong() {
        var framer = LineFramer(maximumLineLength: 4)
        #expect(framer.feed(ArraySlice("abcd\r\nabcd\n".utf8)) == [.line("abcd"), .line("abcd")])
        #expect(framer.feed(ArraySlice("abcde\nok\n".utf8)) == [.overlong])
        #expect(framer.feed(ArraySlice("ok\n".utf8)) == [], "nothing after an overlong line")
    }

    @Test func anUnendedLineIsOverlongAsSoonAsItPassesTheLimit() {
        var framer = LineFramer(maximumLineLength: 4)
        #expect(framer.feed(ArraySlice("abcd\r".utf8)) == [], "four bytes and a carriage return may still end well")
        #expect(framer.feed(ArraySlice("x".utf8)) == [.overlong])
    }
}
