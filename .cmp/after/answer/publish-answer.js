"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.publishAnswer = publishAnswer;
/**
 * Calls the subscribers in the order given (the service's order is documented in
 * docs/decisions/0019-composition-root.md: audit and metrics, archive, notifications, guard).
 * Each is isolated: one that throws, or returns a promise that rejects, is logged and the next
 * is called all the same; a promise is never awaited, so a slow subscriber holds up nothing.
 */
function publishAnswer(subscribers, logger) {
    const failed = (subscriber, record, err) => {
        try {
            logger.error(`after an answer, ${subscriber.name} failed; the answer was sent as decided`, {
                route: record.route,
                ...(record.route === '/preflight' ? { decisionId: record.decisionId } : {}),
                status: record.status,
                error: err instanceof Error ? err.message : String(err),
            });
        }
        catch {
            // The log is what failed; nothing after an answer may throw.
        }
    };
    return (record) => {
        for (const subscriber of subscribers) {
            try {
                const done = subscriber.onAnswer(record);
                if (done)
                    done.catch((err) => failed(subscriber, record, err));
            }
            catch (err) {
                failed(subscriber, record, err);
            }
        }
    };
}
//# sourceMappingURL=publish-answer.js.map