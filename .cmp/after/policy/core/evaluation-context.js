"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.nowText = nowText;
const memo_1 = require("./memo");
const NOW_TEXT = (0, memo_1.memoKey)('now as ISO text');
/** The decision's time as ISO text, e.g. `2026-01-05T10:00:00.000Z`: once per decision (the decision states it too). */
function nowText(ctx) {
    return ctx.memo.get(NOW_TEXT, () => ctx.now.toISOString());
}
//# sourceMappingURL=evaluation-context.js.map