/**
 * The time, as every rule of the app reads it (issue 32): seat holds and waitlist offers running
 * out, one-time codes and sign-in sessions expiring, cancellation windows, the slots' notice, wallet
 * expiry, reminders falling due. One instance, provided to every module (ConfigModule); rules ask it
 * instead of `Date.now()`, and their SQL compares with the instant it gives instead of `now()`.
 *
 * Tests move it instead of sleeping (`TestApp.clock.advance`): it is the real time plus an offset
 * that only a test app (NODE_ENV=test) may change. Timestamps that only record when something
 * happened (created_at, removed_at) keep the database's or the machine's time.
 */
export class Clock {
  private offsetMs = 0;

  constructor(private readonly movable = false) {}

  /** Now, as the rules see it. */
  now(): Date {
    return new Date(this.nowMs());
  }

  nowMs(): number {
    return Date.now() + this.offsetMs;
  }

  /** An instant `ms` from now (a hold's or a code's end). */
  inMs(ms: number): Date {
    return new Date(this.nowMs() + ms);
  }

  /** Tests only: moves the app's time by `ms` (forward, or back with a negative amount). */
  advance(ms: number): void {
    if (!this.movable) throw new Error('The clock moves only in a test app (NODE_ENV=test)');
    this.offsetMs += ms;
  }

  /** Tests only: back to the real time. */
  reset(): void {
    if (!this.movable) throw new Error('The clock moves only in a test app (NODE_ENV=test)');
    this.offsetMs = 0;
  }
}
