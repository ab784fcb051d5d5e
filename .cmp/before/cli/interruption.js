"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.listenForInterruption = listenForInterruption;
const node_os_1 = require("node:os");
/** The signals an operator stops a command with: Ctrl-C, and what `kill` and Kubernetes send. */
const STOP_SIGNALS = ['SIGINT', 'SIGTERM'];
/**
 * Listens for SIGINT and SIGTERM while a command changes something outside this process and must
 * undo it when stopped halfway (connect puts the webhooks back). The first signal aborts `signal`,
 * and the command undoes and exits; a second one exits at once, as the signal alone would have.
 */
function listenForInterruption(proc = process) {
    const controller = new AbortController();
    let by;
    const codeOf = (signal) => 128 + node_os_1.constants.signals[signal];
    const handlers = STOP_SIGNALS.map((signal) => {
        const handler = () => {
            if (by !== undefined)
                proc.exit(codeOf(signal));
            by = signal;
            controller.abort(new Error(`interrupted by ${signal}`));
        };
        proc.on(signal, handler);
        return [signal, handler];
    });
    return {
        signal: controller.signal,
        by: () => by,
        exitCode: () => (by === undefined ? 0 : codeOf(by)),
        dispose: () => {
            for (const [signal, handler] of handlers)
                proc.off(signal, handler);
        },
    };
}
//# sourceMappingURL=interruption.js.map