"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.zoneProblem = zoneProblem;
const luxon_1 = require("luxon");
/** Zone names already found valid: luxon's check builds an Intl.DateTimeFormat each time (slow, native memory). */
const validZones = new Set();
/** Why `zone` is not an IANA time zone name we can use, or undefined when it is. */
function zoneProblem(zone) {
    if (validZones.has(zone))
        return undefined;
    if (!luxon_1.IANAZone.isValidZone(zone))
        return `unknown time zone "${zone}"; use an IANA name such as Europe/Berlin, America/New_York or UTC`;
    validZones.add(zone);
    return undefined;
}
//# sourceMappingURL=zone-name.js.map