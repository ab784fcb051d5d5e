"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.keptTimers = exports.sleep = exports.realTimers = void 0;
/** The process's timers, unref'd: a notification waiting to be sent never keeps the process up. */
exports.realTimers = {
    setTimeout: (fn, ms) => setTimeout(fn, ms).unref(),
    clearTimeout: (handle) => clearTimeout(handle),
};
const sleep = (timers, ms) => new Promise((resolve) => {
    timers.setTimeout(resolve, ms);
});
exports.sleep = sleep;
/** The process's timers as they are: a command that waits to retry must keep the process up meanwhile. */
exports.keptTimers = {
    setTimeout: (fn, ms) => setTimeout(fn, ms),
    clearTimeout: (handle) => clearTimeout(handle),
};
//# sourceMappingURL=timers.js.map