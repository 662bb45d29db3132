import Support
import Testing

/// A value delivered once, whether before or after its await began; later deliveries are ignored.
@Suite struct OneShotTests {
    @Test func aValueGivenBeforeTheAwaitIsReturned() async {
        let shot = OneShot<Int>()
        shot.resolve(1)
        shot.resolve(2)
        #expect(await shot.value == 1)
    }

    @Test func aValueGivenAfterTheAwaitBeganWakesIt() async {
        let shot = OneShot<String>()
        async let awaited = shot.value
        await Task.yield()
        shot.resolve("answer")
        shot.resolve("late")
        #expect(await awaited == "answer")
    }
}
