"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.createContext = createContext;
const memo_1 = require("../core/memo");
const action_steps_1 = require("./action-steps");
const environments_1 = require("./environments");
/** The context of one decision on `payload` with `bundle`, at `now`. */
function createContext(bundle, payload, facts, now, decisionId) {
    return {
        payload,
        execution: payload.execution,
        now,
        facts,
        environments: (0, environments_1.runEnvironments)(payload.execution, bundle, facts.environments),
        actionSteps: (0, action_steps_1.actionSteps)(payload.execution.steps),
        upperCased: {
            teamKey: payload.execution.teamKey?.toUpperCase(),
            createdVia: payload.execution.createdVia?.toUpperCase(),
        },
        decisionId,
        revision: bundle.revision,
        memo: new memo_1.Memo(),
        ruleAnswers: new Array(bundle.sharedChecks),
    };
}
//# sourceMappingURL=create-context.js.map