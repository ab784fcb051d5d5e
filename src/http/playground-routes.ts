import { type NextFunction, type Response, Router } from 'express';
import { PAGE_HEADERS, type PageFile, pageFileFor } from '../playground/playground-page';

/** Where the service serves the playground page with PLAYGROUND=on (docs/playground.md). */
export const PLAYGROUND_PATH = '/playground';

/**
 * GET /playground/: the playground page (PLAYGROUND=on), three static files read at start. The page
 * decides in the browser and sends nothing back (its CSP forbids connections), so this route never
 * sees a policy or a payload. `/playground` redirects to `/playground/` so the page's relative URLs resolve.
 */
export function playgroundRouter(files: ReadonlyMap<string, PageFile>): Router {
  const router = Router({ strict: true });
  router.get(PLAYGROUND_PATH, (req, res) => {
    const query = req.originalUrl.slice(req.path.length);
    res.redirect(301, `${PLAYGROUND_PATH}/${query}`);
  });
  const send = (name: string, res: Response, next: NextFunction) => {
    const file = pageFileFor(files, name);
    if (!file) return next();
    res.set({ ...PAGE_HEADERS, 'content-type': file.contentType }).send(file.body);
  };
  router.get(`${PLAYGROUND_PATH}/`, (_req, res, next) => send('', res, next));
  router.get(`${PLAYGROUND_PATH}/:file`, (req, res, next) => send(req.params.file, res, next));
  return router;
}
