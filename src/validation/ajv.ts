import { createAjv } from './create-ajv';

/**
 * An ajv instance with the service's settings, for a schema compiled at run time (tests). The
 * service's own schemas are precompiled (scripts/build-validators.js): loading one costs no compile.
 */
export const ajv = createAjv();
