import { useEffect, useState } from 'react';
import { apiFetch } from '../api/api-client';

/**
 * Loads a list for a picker. A failure is only logged and the list falls back to empty
 * (spec 001 §8), so a drawer still works when an endpoint is missing.
 */
export function useList<R, T>(
  path: string | null,
  pick: (answer: R) => T[] | undefined,
): { items: T[]; loading: boolean } {
  const [state, setState] = useState<{ items: T[]; loading: boolean }>({ items: [], loading: path !== null });
  useEffect(() => {
    if (path === null) {
      setState({ items: [], loading: false });
      return;
    }
    let live = true;
    setState((previous) => ({ items: previous.items, loading: true }));
    apiFetch<R>(path)
      .then((answer) => live && setState({ items: pick(answer) ?? [], loading: false }))
      .catch((error: unknown) => {
        console.error(`Could not load ${path}`, error);
        if (live) setState({ items: [], loading: false });
      });
    return () => {
      live = false;
    };
    // pick is a selector literal; the path alone decides when to reload.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [path]);
  return state;
}
