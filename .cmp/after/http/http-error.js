"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.HttpError = void 0;
/**
 * The one error type of the HTTP layer. It carries its status; error-handler.ts maps it (and
 * everything else) to a JSON `{"message": ...}` answer, the text Steadybit shows its users.
 */
class HttpError extends Error {
    status;
    details;
    constructor(status, message, details) {
        super(message);
        this.status = status;
        this.details = details;
        this.name = 'HttpError';
    }
}
exports.HttpError = HttpError;
//# sourceMappingURL=http-error.js.map