"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.RULES_BY_KEY = exports.RULE_KINDS = void 0;
const actions_1 = require("./actions");
const alerts_1 = require("./alerts");
const blast_radius_1 = require("./blast-radius");
const concurrency_1 = require("./concurrency");
const condition_1 = require("./condition");
const cooldown_1 = require("./cooldown");
const emergency_stop_1 = require("./emergency-stop");
const environments_1 = require("./environments");
const parameters_1 = require("./parameters");
const json_signal_1 = require("./json-signal");
const no_muting_1 = require("./no-muting");
const no_overlap_1 = require("./no-overlap");
const prometheus_1 = require("./prometheus");
const quota_1 = require("./quota");
const target_attributes_1 = require("./target-attributes");
const per_group_1 = require("./per-group");
const targets_1 = require("./targets");
const time_window_1 = require("./time-window");
/** Every rule kind a policy can use, keyed by its YAML name. Add new kinds here. */
exports.RULE_KINDS = [
    environments_1.environmentsRule,
    actions_1.actionsRule,
    targets_1.targetsRule,
    blast_radius_1.blastRadiusRule,
    per_group_1.perGroupRule,
    target_attributes_1.targetAttributesRule,
    parameters_1.parametersRule,
    time_window_1.timeWindowRule,
    condition_1.conditionRule,
    emergency_stop_1.emergencyStopRule,
    concurrency_1.concurrencyRule,
    cooldown_1.cooldownRule,
    quota_1.quotaRule,
    no_overlap_1.noOverlapRule,
    no_muting_1.noMutingRule,
    alerts_1.alertsRule,
    prometheus_1.prometheusRule,
    json_signal_1.jsonSignalRule,
];
exports.RULES_BY_KEY = new Map(exports.RULE_KINDS.map((k) => [k.key, k]));
//# sourceMappingURL=index.js.map