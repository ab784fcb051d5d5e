"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.refuseAndClose = refuseAndClose;
const error_handler_1 = require("./error-handler");
const send_json_1 = require("./send-json");
/** An error answer that also ends the connection: what follows the request on it cannot be trusted. */
function refuseAndClose(res, error) {
    res.setHeader('Connection', 'close');
    (0, send_json_1.sendJson)(res, error.status, (0, error_handler_1.errorBody)(error));
}
//# sourceMappingURL=refuse-and-close.js.map