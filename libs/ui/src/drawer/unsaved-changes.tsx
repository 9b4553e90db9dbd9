import { createContext, useCallback, useContext, useEffect, useId, useMemo, useRef } from 'react';
import { App } from 'antd';

/** The confirm a drawer with unsaved changes shows before it closes. */
export const DISCARD_CHANGES_CONFIRM = {
  title: 'Discard unsaved changes?',
  content: 'What you typed in this panel will be lost.',
  okText: 'Discard',
  cancelText: 'Keep editing',
} as const;

interface UnsavedChangesRegistry {
  setDirty(id: string, dirty: boolean): void;
  /** Closes the drawer as its close button does: asks first while a form has unsaved changes. */
  requestClose?(): void;
}

/** Provided by the drawer host around the open drawer; forms inside report whether they are dirty. */
export const UnsavedChangesContext = createContext<UnsavedChangesRegistry | null>(null);

/**
 * A drawer form registers its react-hook-form `isDirty` here: `useUnsavedChanges(form.formState.isDirty)`.
 * While it is true, closing the drawer by its backdrop, close button, Escape or a route change asks
 * "Discard unsaved changes?" first, and leaving the page asks the browser's own question.
 * Outside a drawer host it does nothing.
 */
export function useUnsavedChanges(isDirty: boolean): void {
  const registry = useContext(UnsavedChangesContext);
  const id = useId();
  useEffect(() => {
    registry?.setDirty(id, isDirty);
  }, [registry, id, isDirty]);
  useEffect(() => () => registry?.setDirty(id, false), [registry, id]);
}

/**
 * The drawer's Cancel button: `<Button onClick={useCancel(close)}>Cancel</Button>`. Inside a drawer
 * host it asks "Discard unsaved changes?" first, as the close button does; `close` itself (used after
 * a save) never asks. Outside a host it is `close`.
 */
export function useCancel(close: () => void): () => void {
  const registry = useContext(UnsavedChangesContext);
  return useCallback(() => {
    if (registry?.requestClose) registry.requestClose();
    else close();
  }, [registry, close]);
}

export interface UnsavedChangesGuard {
  registry: UnsavedChangesRegistry;
  /** True when some form of the open drawer has unsaved changes. */
  isDirty(): boolean;
  /** Resolves true when nothing is unsaved or the admin chose Discard; false when they keep editing. */
  confirmDiscard(): Promise<boolean>;
  /** Forgets the dirty forms (the drawer closed itself, e.g. after saving). */
  reset(): void;
}

/** The drawer host's side: holds what its drawer registered and asks before a close. */
export function useUnsavedChangesGuard(): UnsavedChangesGuard {
  const dirty = useRef(new Set<string>());
  const asking = useRef<Promise<boolean> | null>(null);
  const { modal } = App.useApp();

  useEffect(() => {
    const onBeforeUnload = (event: BeforeUnloadEvent) => {
      if (dirty.current.size === 0) return;
      event.preventDefault();
      // Older browsers need a returnValue to show their own "Leave site?" question.
      event.returnValue = '';
    };
    window.addEventListener('beforeunload', onBeforeUnload);
    return () => window.removeEventListener('beforeunload', onBeforeUnload);
  }, []);

  const registry = useMemo<UnsavedChangesRegistry>(
    () => ({
      setDirty(id, isDirty) {
        if (isDirty) dirty.current.add(id);
        else dirty.current.delete(id);
      },
    }),
    [],
  );

  const confirmDiscard = useCallback((): Promise<boolean> => {
    if (dirty.current.size === 0) return Promise.resolve(true);
    // Escape pressed twice, or a backdrop click while the question is up: one question only.
    if (asking.current) return asking.current;
    asking.current = new Promise<boolean>((resolve) => {
      const done = (answer: boolean) => {
        asking.current = null;
        if (answer) dirty.current.clear();
        resolve(answer);
      };
      modal.confirm({
        ...DISCARD_CHANGES_CONFIRM,
        okButtonProps: { danger: true },
        // Keep editing is the safe default of Enter and Escape.
        autoFocusButton: 'cancel',
        onOk: () => done(true),
        onCancel: () => done(false),
      });
    });
    return asking.current;
  }, [modal]);

  return useMemo(
    () => ({
      registry,
      isDirty: () => dirty.current.size > 0,
      confirmDiscard,
      reset: () => dirty.current.clear(),
    }),
    [registry, confirmDiscard],
  );
}
