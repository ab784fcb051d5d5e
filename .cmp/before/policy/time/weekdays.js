"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.DAY_PATTERN = exports.WEEKDAYS = void 0;
exports.parseDays = parseDays;
exports.describeDays = describeDays;
const rule_spec_error_1 = require("../core/rule-spec-error");
/** Day names in ISO order: Mon = 1 ... Sun = 7 (luxon's `weekday`). */
exports.WEEKDAYS = ['Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun'];
/** The YAML pattern of one `days` entry: a day (`Mon`) or a range (`Mon-Fri`, `Fri-Mon` wraps). */
exports.DAY_PATTERN = '^(Mon|Tue|Wed|Thu|Fri|Sat|Sun)(-(Mon|Tue|Wed|Thu|Fri|Sat|Sun))?$';
const isoDay = (name) => exports.WEEKDAYS.indexOf(name) + 1;
/** Expands `[Mon-Fri, Sun]` to the ISO weekday numbers {1,2,3,4,5,7}; every bad entry is reported. */
function parseDays(entries, path) {
    const days = new Set();
    (0, rule_spec_error_1.checkEach)(entries, (entry, i) => {
        const [from, to = from] = entry.split('-');
        const a = isoDay(from);
        const b = isoDay(to);
        if (a === 0 || b === 0)
            throw new rule_spec_error_1.RuleSpecError(`"${entry}" is not a day or day range; use ${exports.WEEKDAYS.join(', ')} or a range such as Mon-Fri`, [...path, String(i)]);
        for (let d = a;; d = (d % 7) + 1) {
            days.add(d);
            if (d === b)
                break;
        }
    });
    return days;
}
/** "Mon-Fri", "Sat, Sun", "every day": the shortest readable form of a day set. */
function describeDays(days) {
    if (days.size === 7)
        return 'every day';
    const sorted = [...days].sort((x, y) => x - y);
    const runs = [];
    for (let i = 0; i < sorted.length; i++) {
        let j = i;
        while (j + 1 < sorted.length && sorted[j + 1] === sorted[j] + 1)
            j++;
        const first = exports.WEEKDAYS[sorted[i] - 1];
        const last = exports.WEEKDAYS[sorted[j] - 1];
        runs.push(j === i ? first : j === i + 1 ? `${first}, ${last}` : `${first}-${last}`);
        i = j;
    }
    return runs.join(', ');
}
//# sourceMappingURL=weekdays.js.map