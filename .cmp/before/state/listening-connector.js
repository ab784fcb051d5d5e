"use strict";
var __importDefault = (this && this.__importDefault) || function (mod) {
    return (mod && mod.__esModule) ? mod : { "default": mod };
};
Object.defineProperty(exports, "__esModule", { value: true });
exports.ListeningConnector = void 0;
const StandaloneConnector_1 = __importDefault(require("ioredis/built/connectors/StandaloneConnector"));
/**
 * ioredis's connector for one server, keeping an 'error' listener on every socket it opens.
 * ioredis listens to a socket's errors with once(), but a TLS socket whose handshake fails can emit
 * two: the client's verdict (`self-signed certificate in certificate chain`), then the server's
 * alert read before the socket is torn down (`tlsv1 alert decode error`). The second, with no
 * listener left, was an uncaught exception: it failed test/state/redis-tls.int.test.ts now and then,
 * and would end the service whenever Redis's certificate is not trusted (ioredis issue #1183,
 * PR #962 declined). The first error still reaches the client, its 'error' event and /readyz;
 * a later one on a socket that already failed says nothing new and is dropped.
 */
class ListeningConnector extends StandaloneConnector_1.default {
    // ioredis constructs a Connector with its options, typed unknown (ConnectorConstructor).
    constructor(options) {
        super(options);
    }
    async connect(emit) {
        const stream = await super.connect(emit);
        stream.on('error', () => { });
        return stream;
    }
}
exports.ListeningConnector = ListeningConnector;
//# sourceMappingURL=listening-connector.js.map