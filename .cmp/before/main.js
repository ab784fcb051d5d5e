"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.serve = serve;
exports.exitOnStartupError = exitOnStartupError;
const config_1 = require("./service/config");
const logger_1 = require("./common/logger");
const load_error_1 = require("./policy/compile/load-error");
const check_needs_1 = require("./service/check-needs");
const start_server_1 = require("./service/start-server");
/**
 * Runs the service until SIGTERM/SIGINT; SIGHUP reloads POLICY_DIR. What `npm start` and
 * `preflight-gate serve` run. Only entry points pass `process.env` in.
 */
async function serve(env) {
    const config = (0, config_1.loadConfig)(env);
    const logger = (0, logger_1.createLogger)(config.logLevel);
    const running = await (0, start_server_1.startServer)(config, logger);
    process.on('SIGHUP', () => {
        logger.info('SIGHUP: reloading the policy directory');
        running.reload('SIGHUP');
    });
    process.once('SIGTERM', () => {
        logger.info('SIGTERM: finishing requests in flight, then exiting');
        void running.shutdown().then(() => {
            logger.info('stopped');
            process.exit(0);
        });
    });
    process.once('SIGINT', () => void running.shutdown().then(() => process.exit(0)));
    return running;
}
/** A start-up failure: the message says what to fix; exit 1. */
function exitOnStartupError(err) {
    if (err instanceof config_1.ConfigError || err instanceof load_error_1.PolicyLoadError || err instanceof check_needs_1.LackingNeedError) {
        process.stderr.write(`preflight-gate: ${err.message}\n`);
    }
    else {
        process.stderr.write(`preflight-gate: failed to start: ${err instanceof Error ? err.stack : String(err)}\n`);
    }
    process.exit(1);
}
if (require.main === module)
    serve(process.env).catch(exitOnStartupError);
//# sourceMappingURL=main.js.map