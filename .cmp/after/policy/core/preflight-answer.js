"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.preflightAnswer = preflightAnswer;
/**
 * The one translation of a Decision into Steadybit's answer: used by the route, the decision
 * archive and replay, so a replayed answer compares byte for byte with the one that was sent.
 */
function preflightAnswer(decision, explain) {
    const explanation = explain ? { explanation: decision } : {};
    return decision.allowed
        ? { status: 200, body: { message: decision.message, modifications: decision.modifications, ...explanation } }
        : { status: 403, body: { message: decision.message, ...explanation } };
}
//# sourceMappingURL=preflight-answer.js.map