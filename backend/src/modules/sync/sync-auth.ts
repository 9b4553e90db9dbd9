import { RequestContext as OrmRequestContext } from '@mikro-orm/core';
import { EntityManager } from '@mikro-orm/postgresql';

/** Runs a job's work in its own MikroORM context (jobs run outside any HTTP request). */
export function inJobContext<T>(em: EntityManager, fn: () => Promise<T>): Promise<T> {
  return OrmRequestContext.create(em, fn);
}
