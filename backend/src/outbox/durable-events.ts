import { EntityManager } from '@mikro-orm/postgresql';
import { OutboxEvent, OutboxService } from './outbox.service';

type Handler<E> = (event: E) => Promise<void> | void;

/**
 * A module's announcements that must not be lost (OrderEvents, EnrollmentEvents, PaymentEvents, …),
 * carried by the transactional outbox. The module that makes a change calls `publish(em, event)`
 * inside the transaction of that change; each subscriber (`on`) runs later in a queue job, at least
 * once, so handlers are idempotent by keys of their own. Rows of one subscriber with the same
 * ordering key (`keyOf`) are handled in the order they were published.
 *
 * What may be lost (a cache to drop) stays on InProcessEvents.
 */
export abstract class DurableEvents<E extends OutboxEvent> {
  constructor(
    protected readonly outbox: OutboxService,
    /** The ordering key of an event: its order, enrollment or session; null for none. */
    private readonly keyOf: (event: E) => string | null,
  ) {}

  /**
   * Subscribes a handler to one event type under a stable `name` (`<module>.<what it does>`): the
   * outbox rows and jobs carry the name, so it must not change between releases.
   */
  on<T extends E['type']>(type: T, name: string, handler: Handler<Extract<E, { type: T }>>): void {
    this.outbox.subscribe(type, name, handler as Handler<never>);
  }

  /** Announces `event` in `em`'s transaction: it commits with the change, or not at all. */
  publish(em: EntityManager, event: E): Promise<void> {
    return this.outbox.publish(em, event, this.keyOf(event));
  }
}
