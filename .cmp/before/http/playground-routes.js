"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.PLAYGROUND_PATH = void 0;
exports.playgroundRouter = playgroundRouter;
const express_1 = require("express");
const playground_page_1 = require("../playground/playground-page");
/** Where the service serves the playground page with PLAYGROUND=on (docs/playground.md). */
exports.PLAYGROUND_PATH = '/playground';
/**
 * GET /playground/: the playground page (PLAYGROUND=on), three static files read at start. The page
 * decides in the browser and sends nothing back (its CSP forbids connections), so this route never
 * sees a policy or a payload. `/playground` redirects to `/playground/` so the page's relative URLs resolve.
 */
function playgroundRouter(files) {
    const router = (0, express_1.Router)({ strict: true });
    router.get(exports.PLAYGROUND_PATH, (req, res) => {
        const query = req.originalUrl.slice(req.path.length);
        res.redirect(301, `${exports.PLAYGROUND_PATH}/${query}`);
    });
    const send = (name, res, next) => {
        const file = (0, playground_page_1.pageFileFor)(files, name);
        if (!file)
            return next();
        res.set({ ...playground_page_1.PAGE_HEADERS, 'content-type': file.contentType }).send(file.body);
    };
    router.get(`${exports.PLAYGROUND_PATH}/`, (_req, res, next) => send('', res, next));
    router.get(`${exports.PLAYGROUND_PATH}/:file`, (req, res, next) => send(req.params.file, res, next));
    return router;
}
//# sourceMappingURL=playground-routes.js.map