/**
 * Whether the policy files on disk are the set being served, as /readyz shows it (`policyFiles`)
 * and `preflight_policy_files_in_sync` counts it. Known after every load attempt (start-up, the
 * watch, SIGHUP, the watch noticing the directory gone or back).
 *
 * - `in-sync`: the last attempt loaded (or found unchanged) what is served.
 * - `rejected`: the files on disk are an invalid set (`diskRevision`); the previous set serves.
 * - `missing`: POLICY_DIR does not exist, or holds no policy files; the previous set serves.
 * - `unreadable`: POLICY_DIR cannot be read (permissions, not a directory).
 */
export type PolicySync =
  | { inSync: true; reason: 'in-sync'; servedRevision: string; checkedAt: string }
  | {
      inSync: false;
      reason: 'rejected' | 'missing' | 'unreadable';
      message: string;
      diskRevision?: string;
      servedRevision?: string;
      checkedAt: string;
    };
