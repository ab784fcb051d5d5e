"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.notifyCommand = notifyCommand;
const notify_config_1 = require("../../notify/notify-config");
const sample_notification_1 = require("../../notify/sample-notification");
const send_delivery_1 = require("../../notify/send-delivery");
const timers_1 = require("../../notify/timers");
const exit_codes_1 = require("../exit-codes");
const bad_input_error_1 = require("../../common/bad-input-error");
/**
 * `preflight-gate notify --test --target <name>`: sends a sample denial, marked `[test]`, to one
 * configured target, with the service's settings (NOTIFY_*, STEADYBIT_URL) and its retries, and
 * says what came of it. Exit 0 when the target answered 2xx, 1 when not, 2 when the target is not
 * configured or the settings are invalid.
 */
async function notifyCommand(opts, env, write, deps = {}) {
    if (!opts.test)
        throw new bad_input_error_1.BadInputError('notify only sends a test message so far: give --test --target <name>');
    if (!opts.target)
        throw new bad_input_error_1.BadInputError('give --target <name>, one of the targets of NOTIFY_WEBHOOK_URL (named webhook) or NOTIFY_TARGETS_FILE');
    const config = (0, bad_input_error_1.readSettings)(() => (0, notify_config_1.parseNotifyConfig)(env));
    const target = config.targets.find((t) => t.name === opts.target);
    if (!target) {
        const names = config.targets.map((t) => t.name);
        throw new bad_input_error_1.BadInputError(`no notification target named "${opts.target}"; ${names.length > 0 ? `configured: ${names.join(', ')}` : 'none is configured (set NOTIFY_WEBHOOK_URL and NOTIFY_WEBHOOK_SECRET, or NOTIFY_TARGETS_FILE)'}`);
    }
    const now = deps.now ?? Date.now;
    const notification = (0, sample_notification_1.sampleNotification)(new Date(now()), config.runUrl, config.exceptionHelp);
    const delivery = {
        id: `msg_test_${now()}`,
        notification,
        count: 1,
        firstTime: notification.time,
        lastTime: notification.time,
    };
    const result = await (0, send_delivery_1.sendDelivery)(target, delivery, {
        fetch: deps.fetch ?? fetch,
        timers: deps.timers ?? timers_1.keptTimers,
        now,
        timeoutMs: config.timeoutMs,
        maxAttempts: config.maxAttempts,
    });
    const attempts = `${result.attempts} attempt${result.attempts === 1 ? '' : 's'}`;
    if (result.outcome === 'sent') {
        write(`sent a test message to ${target.name} (${target.type}): HTTP ${result.status} after ${attempts}\n`);
        return exit_codes_1.EXIT.ok;
    }
    write(`the test message to ${target.name} (${target.type}) was not delivered (${result.outcome}): ${result.reason}\n`);
    return exit_codes_1.EXIT.failed;
}
//# sourceMappingURL=notify-command.js.map