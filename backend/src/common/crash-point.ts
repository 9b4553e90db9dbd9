/**
 * Fault injection for the crash tests (issue 31): a named point in a flow where a process may die
 * (between two commits, before a provider call). When the process runs with NODE_ENV=test and
 * CRASH_POINT names the point, it dies there with SIGKILL, as a power cut would: no finally block,
 * no shutdown hook. Otherwise it does nothing. `backend/test/crash-points.e2e-spec.ts` starts the
 * built app with each point and checks that the flow converges once the process is started again.
 */
export type CrashPointName =
  | 'checkout.before-page'
  | 'link.before-page'
  | 'payment.after-settlement'
  | 'refund.before-provider'
  | 'checkout-close.before-provider'
  | 'waiver.after-request'
  | 'waiver.before-mail';

export function crashPoint(name: CrashPointName): void {
  if (process.env.NODE_ENV === 'test' && process.env.CRASH_POINT === name) process.kill(process.pid, 'SIGKILL');
}
