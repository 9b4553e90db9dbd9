/**
 * How a mail is composed, once for every mail the backend sends (issue 33): a text kept on one
 * line (`oneLine`), a subject line (`mailSubject`: each value on one line, at most the 300
 * characters a mail's subject takes) and a booking's calendar file (`calendarFile`, with its
 * attachment `calendarAttachment`). Pure functions: what is mailed and when stays with each mailer.
 */
import { createEvent, type EventAttributes } from 'ics';

/** The longest subject the mail service takes (mailMessageSchema). */
export const MAIL_SUBJECT_MAX = 300;

/** A text on one line: its line breaks become spaces, its ends trimmed (a name in a subject or a greeting). */
export const oneLine = (text: string): string => text.replace(/[\r\n]+/g, ' ').trim();

/**
 * A mail's subject, as a tagged template: each value put on one line, the whole cut to the subject's
 * limit. mailSubject`You're booked: ${session.name}`.
 */
export function mailSubject(parts: TemplateStringsArray, ...values: (string | number)[]): string {
  const text = parts.reduce((out, part, i) => out + part + (i < values.length ? oneLine(String(values[i])) : ''), '');
  return text.slice(0, MAIL_SUBJECT_MAX);
}

/** A booking in a calendar file: its instants (any form Date takes), where, and who it is with. */
export interface CalendarEntry {
  /** The same UID in a later file replaces the entry the calendar has (with a higher sequence). */
  uid: string;
  title: string;
  startsAt: Date | string;
  endsAt: Date | string;
  /** Where it is (an address, or "Online" and its link); cut to 500 characters. */
  location: string;
  description: string;
  /** The studio's name. */
  organizer: string;
  sequence?: number;
  /** PUBLISH (a booking, a new time) or CANCEL; left out, the file says PUBLISH and no status. */
  method?: 'PUBLISH' | 'CANCEL';
}

/**
 * A booking's calendar file (.ics). Its times are the booking's instants written in UTC, so every
 * calendar shows them in its reader's own zone: a session at 18:00 in its location's zone is the same
 * instant wherever the file is opened.
 */
export function calendarFile(entry: CalendarEntry): string {
  const attributes: EventAttributes = {
    uid: entry.uid,
    ...(entry.sequence !== undefined ? { sequence: entry.sequence } : {}),
    title: entry.title,
    start: new Date(entry.startsAt).getTime(),
    end: new Date(entry.endsAt).getTime(),
    startInputType: 'utc',
    startOutputType: 'utc',
    endInputType: 'utc',
    endOutputType: 'utc',
    location: entry.location.slice(0, 500),
    description: entry.description,
    organizer: { name: entry.organizer },
    ...(entry.method ? { method: entry.method, status: entry.method === 'CANCEL' ? 'CANCELLED' : 'CONFIRMED' } : {}),
  };
  const ics = createEvent(attributes);
  if (ics.error || !ics.value) throw ics.error ?? new Error('No calendar file');
  return ics.value;
}

/** A calendar file as a mail's attachment (`booking.ics`, `appointment.ics`). */
export function calendarAttachment(content: string, filename: string, method: 'PUBLISH' | 'CANCEL' = 'PUBLISH') {
  return { filename, contentType: `text/calendar; charset=utf-8; method=${method}`, content };
}
