"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.bodyExcerpt = bodyExcerpt;
/**
 * A body quoted in a denial: one line, at most `max` characters. Steadybit shows the message to the
 * person who started the run and it is cut to a size, so an error page pasted whole would push other
 * policies' reasons out (review finding: a calendar's 404 page). Markup is dropped (an HTML page is
 * said to be one), whitespace collapsed, the cut marked.
 */
function bodyExcerpt(text, max = 120) {
    const plain = text
        .replace(/<(script|style)\b[\s\S]*?<\/\1\s*>/gi, ' ')
        .replace(/<[^>]*>/g, ' ')
        .replace(/\s+/g, ' ')
        .trim();
    const shown = /^\s*<(!doctype|html|[a-z][a-z0-9]*[\s>])/i.test(text) ? `an HTML page: ${plain}` : plain;
    return shown.length <= max ? shown : `${shown.slice(0, max - 1)}…`;
}
//# sourceMappingURL=body-excerpt.js.map