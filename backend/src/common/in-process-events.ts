import { Logger } from '@nestjs/common';

type Handler<E> = (event: E) => Promise<void> | void;

/**
 * The in-process observer behind each module's announcements (PaymentEvents, SubscriptionEvents,
 * OrderEvents, EnrollmentEvents; the repository has no @nestjs/event-emitter). Handlers of a type run
 * one after the other. A failing handler is logged and the others still run; with `rethrow` (or a bus
 * whose events come from a retried job) the first failure is thrown once all have run, so the job is
 * retried. Handlers must be idempotent: an announcement may repeat.
 */
export abstract class InProcessEvents<E extends { type: string }> {
  private readonly handlers = new Map<E['type'], Handler<E>[]>();
  private readonly logger = new Logger(this.constructor.name);

  /** Whether emit throws a handler's failure when the caller does not say. */
  protected readonly rethrowByDefault: boolean = false;

  /** Subscribes to one event type; answers a function that unsubscribes. */
  on<T extends E['type']>(type: T, handler: Handler<Extract<E, { type: T }>>): () => void {
    const list = this.handlers.get(type) ?? [];
    list.push(handler as Handler<E>);
    this.handlers.set(type, list);
    return () =>
      this.handlers.set(
        type,
        (this.handlers.get(type) ?? []).filter((h) => h !== handler),
      );
  }

  async emit(event: E, options: { rethrow?: boolean } = {}): Promise<void> {
    let failure: unknown = null;
    for (const handler of this.handlers.get(event.type) ?? []) {
      try {
        await handler(event);
      } catch (error) {
        this.logger.error(`Handler of ${event.type} failed: ${(error as Error).message}`);
        failure ??= error;
      }
    }
    if (failure && (options.rethrow ?? this.rethrowByDefault)) throw failure;
  }
}
