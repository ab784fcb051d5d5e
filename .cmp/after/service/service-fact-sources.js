"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.serviceFactSources = serviceFactSources;
/**
 * Every fact source the capabilities declare, in their order (service-capabilities.ts): the one
 * place sources are put together, for preflights (create-app.ts) and the guard (build-service.ts) alike.
 */
function serviceFactSources(capabilities) {
    const sources = capabilities.flatMap((c) => c.sources ?? []);
    const ticks = capabilities.flatMap((c) => (c.nextTick ? [c.nextTick] : []));
    return {
        preflight: sources.map((s) => s.preflight),
        guard: sources.map((s) => s.guard),
        nextTick: () => {
            for (const tick of ticks)
                tick();
        },
    };
}
//# sourceMappingURL=service-fact-sources.js.map