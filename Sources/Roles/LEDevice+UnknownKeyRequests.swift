import HCIPackets
extension LEDevice {
    /// The controller asks for the LTK of a handle with no link here (HCI_LE_Long_Term_Key_Request, Core v5.4
    /// Vol 4 Part E §7.7.65.5): answered HCI_LE_Long_Term_Key_Request_Negative_Reply (§7.8.26), as BlueZ does,
    /// in a task of its own. Not in the follow-up loop: behind a Command Complete that granted 0 credits the reply
    /// waits up to its deadline for a credit, and every link's PDUs and ends would wait with it (hci-fuzz `host`).
    func answerUnknownLongTermKeyRequest(handle: UInt16) {
        let id = nextUnknownKeyRequestAnswer
        nextUnknownKeyRequestAnswer += 1
        let host = host
        // The loop runs one job at a time: the task starts after this method stored it.
        unknownKeyRequestAnswers[id] = Task(executorPreference: host.loop) { [weak self] in
            _ = try? await host.send(LELongTermKeyRequestNegativeReply(handle: handle))
            await self?.unknownKeyRequestAnswerEnded(id)
        }
    }

    private func unknownKeyRequestAnswerEnded(_ id: UInt64) {
        unknownKeyRequestAnswers[id] = nil
    }

    /// Negative Replies to unknown handles' LTK requests not yet ended.
    package var pendingUnknownKeyRequestAnswers: Int { unknownKeyRequestAnswers.count }

    /// Waits until every Negative Reply to an unknown handle's LTK request has ended: answered, failed, or at its
    /// command deadline.
    package func unknownKeyRequestAnswersEnded() async {
        while let (id, answer) = unknownKeyRequestAnswers.first {
            await answer.value
            unknownKeyRequestAnswers[id] = nil
        }
    }
}
