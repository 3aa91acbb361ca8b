import Testing

@testable import Fido2Belvo

@Suite struct PollingPolicyTests {
    /// Polls `policy` with a fetch that answers on attempt `answerOn` (never when nil), and
    /// returns the outcome, the attempts and the times they happened at.
    private func run(
        _ policy: BelvoPollingPolicy, answerOn: Int?, fetchTakes: Duration = .zero,
        clock: ManualClock = ManualClock()
    ) async -> (Result<String?, BelvoError>, [Duration]) {
        var times = [Duration]()
        let result: Result<String?, BelvoError>
        do {
            let value = try await policy.poll(clock: clock) { () throws -> String? in
                times.append(clock.elapsed)
                clock.advance(by: fetchTakes)
                return times.count == answerOn ? "ready" : nil
            }
            result = .success(value)
        } catch {
            result = .failure(error as? BelvoError ?? BelvoError(.unexpectedStatus, "\(error)"))
        }
        return (result, times)
    }

    @Test func presetsAreTheGuidesAndTheSDKs() {
        #expect(BelvoPollingPolicy.guide.interval == .seconds(2))
        #expect(BelvoPollingPolicy.guide.deadline == .seconds(120))
        #expect(BelvoPollingPolicy.guide.onTimeout == .throwsError)
        #expect(BelvoPollingPolicy.sdk.interval == .seconds(1))
        #expect(BelvoPollingPolicy.sdk.deadline == .seconds(300))
        #expect(BelvoPollingPolicy.sdk.onTimeout == .returnsNil)
    }

    @Test func returnsTheFirstAnswerBeforeTheDeadline() async throws {
        let clock = ManualClock()
        let (result, times) = await run(.guide, answerOn: 5, clock: clock)
        #expect(try result.get() == "ready")
        #expect(times == [.zero, .seconds(2), .seconds(4), .seconds(6), .seconds(8)])
        #expect(clock.elapsed == .seconds(8))
    }

    @Test func sdkPolicyAnswersOnTheFirstAttemptWithoutSleeping() async throws {
        let clock = ManualClock()
        let (result, times) = await run(.sdk, answerOn: 1, clock: clock)
        #expect(try result.get() == "ready")
        #expect(times == [.zero])
        #expect(clock.sleeps.isEmpty)
    }

    @Test func guidePolicyAnswerOnTheLastAttemptAtTheDeadlineIsTaken() async throws {
        let (result, times) = await run(.guide, answerOn: 61)
        #expect(try result.get() == "ready")
        #expect(times.last == .seconds(120))
    }

    @Test func guidePolicyThrowsAtTheDeadline() async {
        let clock = ManualClock()
        let (result, times) = await run(.guide, answerOn: nil, clock: clock)
        guard case .failure(let error) = result else {
            Issue.record("expected a time-out, got \(result)")
            return
        }
        #expect(error.code == .pollingTimedOut)
        #expect(error.kind == .unknown)
        #expect(error.description.contains("61 attempts"))
        #expect(times.count == 61)
        #expect(times.first == .zero)
        #expect(times.last == .seconds(120))
        #expect(clock.elapsed == .seconds(120))
        #expect(clock.sleeps.allSatisfy { $0 == .seconds(2) })
    }

    @Test func sdkPolicyReturnsNilAtTheDeadline() async throws {
        let clock = ManualClock()
        let (result, times) = await run(.sdk, answerOn: nil, clock: clock)
        #expect(try result.get() == nil)
        #expect(times.count == 301)
        #expect(times.last == .seconds(300))
        #expect(clock.elapsed == .seconds(300))
    }

    @Test func slowFetchesKeepTheScheduleAndStopAtTheDeadline() async {
        let clock = ManualClock()
        let policy = BelvoPollingPolicy(
            interval: .seconds(2), deadline: .seconds(20), onTimeout: .throwsError)
        let (result, times) = await run(
            policy, answerOn: nil, fetchTakes: .seconds(5), clock: clock)
        guard case .failure(let error) = result else {
            Issue.record("expected a time-out, got \(result)")
            return
        }
        #expect(error.code == .pollingTimedOut)
        // Each 5 s fetch overruns its 2 s slot, so the next attempt starts at once.
        #expect(times == [.zero, .seconds(5), .seconds(10), .seconds(15), .seconds(20)])
    }

    @Test func fetchErrorsEndThePollAtOnce() async {
        let clock = ManualClock()
        var attempts = 0
        do {
            _ = try await BelvoPollingPolicy.guide.poll(clock: clock) {
                () throws -> String? in
                attempts += 1
                throw BelvoError(.authentication, "token expired", httpStatus: 401)
            }
            Issue.record("the fetch error was swallowed")
        } catch let error as BelvoError {
            #expect(error.code == .authentication)
        } catch {
            Issue.record("expected a BelvoError, got \(error)")
        }
        #expect(attempts == 1)
        #expect(clock.elapsed == .zero)
    }

    @Test func cancelledSleepIsATypedError() async {
        do {
            _ = try await BelvoPollingPolicy.sdk.poll(clock: CancelledClock()) {
                () throws -> String? in nil
            }
            Issue.record("a cancelled poll returned")
        } catch let error as BelvoError {
            #expect(error.code == .cancelled)
        } catch {
            Issue.record("expected a BelvoError, got \(error)")
        }
    }

    @Test func nonPositiveIntervalStillAdvances() async {
        let policy = BelvoPollingPolicy(
            interval: .zero, deadline: .milliseconds(5), onTimeout: .returnsNil)
        let (result, times) = await run(policy, answerOn: nil)
        #expect((try? result.get()) == .some(nil))
        #expect(times.count == 6)
    }
}

/// Polling from an actor with a closure over that actor's state.
@Suite struct PollingFromAnActorTests {
    @MainActor final class Screen {
        var attempts = 0
    }

    @MainActor @Test func pollsWithAnActorIsolatedFetch() async throws {
        let clock = ManualClock()
        let screen = Screen()
        let value = try await BelvoPollingPolicy.guide.poll(clock: clock) {
            () throws -> Int? in
            screen.attempts += 1
            return screen.attempts == 3 ? screen.attempts : nil
        }
        #expect(value == 3)
        #expect(clock.elapsed == .seconds(4))
    }
}
