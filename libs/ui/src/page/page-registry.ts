import { lazy, type ComponentType, type LazyExoticComponent } from 'react';

/**
 * A page a remote brings (issue 20): the shell routes its path (react-router's syntax, under
 * /admin/) to the component; with a label the navigation lists it, at its menu place (lower first).
 * The remote's build reads path, label and menu from the object literal in src/pages.ts into
 * dist/mfe.json, so they must be written as literals there.
 */
export interface RemotePage {
  label?: string;
  menu?: number;
  component: LazyExoticComponent<ComponentType> | ComponentType;
}

/** What a remote exposes as './pages': route path to page. */
export type PageRegistry = Record<string, RemotePage>;

/** A page component loaded as its own chunk when its route is first visited. */
export function lazyPage<K extends string>(
  load: () => Promise<Record<K, ComponentType>>,
  name: K,
): LazyExoticComponent<ComponentType> {
  return lazy(async () => ({ default: (await load())[name] }));
}
