/** Types of release-state.js (the tests import it; sync-version.js runs it with plain node). */
export const NOTICE_FILES: string[];
export const RELEASE_REFERENCE: RegExp;
export function releasedVersions(changelog: string): string[];
export function notices(text: string): Array<{ at: number; text: string; block: boolean }>;
export function withoutNotices(text: string): string;
export function firstReleaseReference(text: string): number;
