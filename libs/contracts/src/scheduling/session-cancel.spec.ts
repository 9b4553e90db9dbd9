import {
  SESSION_CANCEL_MESSAGES as M,
  cancelOutcomeText,
  cancelProgressText,
  sessionCancelFormSchema,
  sessionCancelSchema,
} from './session-cancel';

const errorsOf = (result: { success: boolean; error?: { issues: { path: PropertyKey[]; message: string }[] } }) =>
  Object.fromEntries((result.error?.issues ?? []).map((i) => [i.path.join('.'), i.message]));

describe('the studio cancels a session: the body, the dialog, the drawer’s words', () => {
  it('the API body: the choice is required; the reason is optional here (required by the API when someone is told) but checked when present', () => {
    expect(sessionCancelSchema.safeParse({ refund: 'full', reason: '  Kiln broke ' }).data).toEqual({ refund: 'full', reason: 'Kiln broke' });
    expect(sessionCancelSchema.safeParse({ refund: 'none' }).success).toBe(true);
    expect(errorsOf(sessionCancelSchema.safeParse({ reason: 'x' }))).toEqual({ refund: M.choiceRequired });
    expect(errorsOf(sessionCancelSchema.safeParse({ refund: 'half', reason: 'x' }))).toEqual({ refund: M.choiceRequired });
    expect(errorsOf(sessionCancelSchema.safeParse({ refund: 'full', reason: 'x'.repeat(501) }))).toEqual({ reason: M.reasonTooLong });
    expect(errorsOf(sessionCancelSchema.safeParse({ refund: 'full', reason: 42 }))).toEqual({ reason: M.reasonRequired });
    expect(sessionCancelSchema.safeParse({ refund: 'full', reason: 'x', extra: 1 }).success).toBe(false);
  });

  it('the dialog: both fields required, a blank reason is no reason, line breaks are kept', () => {
    expect(errorsOf(sessionCancelFormSchema.safeParse({ reason: '' }))).toEqual({ refund: M.choiceRequired, reason: M.reasonRequired });
    expect(errorsOf(sessionCancelFormSchema.safeParse({ refund: 'none', reason: '   ' }))).toEqual({ reason: M.reasonRequired });
    expect(sessionCancelFormSchema.safeParse({ refund: 'none', reason: 'Ill.\nSorry.' }).data?.reason).toBe('Ill.\nSorry.');
  });

  it('the progress and outcomes as the drawer says them', () => {
    expect(cancelProgressText('full', 1, 5)).toBe('Refunding 2 of 5…');
    expect(cancelProgressText('none', 0, 2)).toBe('Removing 1 of 2…');
    expect(cancelProgressText('full', 2, 2)).toBe('All 2 students processed');
    expect(cancelProgressText('full', 1, 1)).toBe('All 1 student processed');
    expect(cancelProgressText('none', 0, 0)).toBe('Cancelled');
    expect(cancelOutcomeText('refunded', 2600)).toBe('Removed, refunded $26.00');
    expect(cancelOutcomeText('no_refund', 0)).toBe('Removed, no refund');
    expect(cancelOutcomeText('pending', 0)).toBe('Processing');
  });
});
