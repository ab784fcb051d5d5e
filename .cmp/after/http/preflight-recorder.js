"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.preflightRecorder = preflightRecorder;
const observe_answers_1 = require("../observability/observe-answers");
const answer_record_1 = require("../answer/answer-record");
/**
 * Starts recording one answer to POST /preflight, before anything else can fail. Once the
 * response closed (sent, or the client went away) the one record of the answer is built, frozen
 * and published, exactly once. The handler fills in the returned PreflightAnswer (its decision id first).
 */
function preflightRecorder(deps) {
    return (res) => {
        const started = process.hrtime.bigint();
        const answer = { decisionId: '(none)' };
        res.once('close', () => {
            const answered = res.writableFinished;
            deps.publish((0, answer_record_1.freezeRecord)({
                route: '/preflight',
                decisionId: answer.decisionId,
                status: answered ? res.statusCode : observe_answers_1.CLIENT_CLOSED,
                body: answer.body,
                decision: answer.decision,
                decided: answer.decided,
                errorMessage: answered ? answer.errorMessage : 'the client closed the connection before the answer was sent',
                revision: deps.currentRevision(),
                timings: { answeredAt: deps.clock(), durationMs: Number(process.hrtime.bigint() - started) / 1e6 },
            }));
        });
        return answer;
    };
}
//# sourceMappingURL=preflight-recorder.js.map