"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.unrecordedSilences = unrecordedSilences;
/**
 * The Alertmanager sources whose recorded answer lists a silenced alert but not the silences' times
 * (an archive written before they were read, docs/decisions/0023-silences-since-the-run.md): today's rule would count such an
 * alert as firing, so replaying the run would report a change the policies did not make.
 */
function unrecordedSilences(needs, signals) {
    const sources = new Set(needs.flatMap((n) => (n.kind === 'alerts' ? [n.source] : [])));
    return [...sources].filter((source) => {
        const answer = signals?.alertmanager !== undefined && Object.hasOwn(signals.alertmanager, source)
            ? signals.alertmanager[source]
            : undefined;
        if (answer === undefined || !('alerts' in answer))
            return false;
        if (answer.silences !== undefined || answer.silencesError !== undefined)
            return false;
        return answer.alerts.some((a) => (a.status?.silencedBy?.length ?? 0) > 0);
    });
}
//# sourceMappingURL=unrecorded-silences.js.map