import { DriverException } from '@mikro-orm/core';
import { EntityManager } from '@mikro-orm/postgresql';

/*
 * What every writer of an appointment's time shares (issue 22): the instructor's lock, the
 * exclusion constraint's refusal told apart from other errors, and the id check that answers 404
 * before a query for a malformed id.
 */

/** SQLSTATE of an exclusion constraint violation: the instructor already has an overlapping appointment. */
const EXCLUSION_VIOLATION = '23P01';
export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Whether a driver error is the appointments' exclusion constraint refusing an overlap. */
export function isOverlapRefusal(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  const code = (error as { code?: unknown }).code ?? (error as DriverException & { cause?: { code?: unknown } }).cause?.code;
  return code === EXCLUSION_VIOLATION;
}

/**
 * Takes the instructor's appointment lock until the transaction ends. Every statement that makes an
 * appointment take time (hold; a later move) takes it first, so concurrent writers for one
 * instructor queue here rather than deadlock inside the exclusion constraint's check (two inserts
 * each waiting for the other's commit, one then killed after deadlock_timeout). The constraint, not
 * this lock, is what refuses an overlap: a writer that forgets the lock is still refused.
 */
export async function lockInstructorAppointments(em: EntityManager, instructorId: string): Promise<void> {
  if (!em.isInTransaction()) throw new Error('lockInstructorAppointments must run inside a transaction');
  await em.execute(`select pg_advisory_xact_lock(hashtextextended(?, 22))`, [`appointment:${instructorId}`]);
}

