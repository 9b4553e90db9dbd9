import { answer, api } from '@studio/ui';

/**
 * Super admins: a one-time link (60 s) into the queue dashboard (bull-board). Opening it trades
 * the ticket for a cookie scoped to the dashboard, which re-checks the session on every request.
 */
export async function queueDashboardLink(): Promise<string> {
  const answered = await answer(api.POST('/api/admin/queue-dashboard/link', {}));
  return answered.url;
}
