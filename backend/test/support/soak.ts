/*
 * The soak suites (the crash test, reminders and sync reliability, the OpenAPI fuzz) keep killing,
 * racing and fuzzing on every push at a size that takes a minute or two each (issue 32); `npm run
 * soak` (SOAK=1) runs them at full size, as before a release. A suite's own env variable (CRASH_N,
 * SYNC_RELIABILITY_JOBS, ...) still wins over both.
 */
export const SOAK = process.env.SOAK === '1';

/** The size of a soak suite: `everyPush` in `npm test`, `full` under `npm run soak`. */
export const soakSize = (everyPush: number, full: number): number => (SOAK ? full : everyPush);
