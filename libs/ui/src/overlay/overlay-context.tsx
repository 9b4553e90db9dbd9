import { createContext, useCallback, useContext, useMemo, useState, type ReactNode } from 'react';
import type { DrawerType, DrawerView, ModalView } from '@studio/contracts/src/ui-constants';
import type { DrawerData } from '../drawer/drawer-types';
import type { GalleryState, ModalState, OpenDrawer, OpenDrawerView, OpenModal } from './overlay-state';

interface Slot<T> {
  current: T | null;
  set: (value: T | null) => void;
}

interface OverlayContextValue {
  drawer: Slot<OpenDrawer>;
  drawerView: Slot<OpenDrawerView>;
  modal: Slot<OpenModal>;
  gallery: Slot<GalleryState>;
}

const OverlayContext = createContext<OverlayContextValue | null>(null);

function useSlot<T>(): Slot<T> {
  const [current, set] = useState<T | null>(null);
  return useMemo(() => ({ current, set }), [current]);
}

/** Holds what is open: one drawer, one drawer view, one modal and the gallery. Hosts render them. */
export function OverlayProvider({ children }: { children: ReactNode }) {
  const drawer = useSlot<OpenDrawer>();
  const drawerView = useSlot<OpenDrawerView>();
  const modal = useSlot<OpenModal>();
  const gallery = useSlot<GalleryState>();
  const value = useMemo(() => ({ drawer, drawerView, modal, gallery }), [drawer, drawerView, modal, gallery]);
  return <OverlayContext.Provider value={value}>{children}</OverlayContext.Provider>;
}

function useOverlay(): OverlayContextValue {
  const value = useContext(OverlayContext);
  if (!value) throw new Error('OverlayProvider is missing');
  return value;
}

/** Opens a drawer by type name: useDrawer().open('super_admin', {...}). */
export function useDrawer() {
  const { drawer } = useOverlay();
  const { current, set } = drawer;
  const open = useCallback((type: DrawerType | string, data: DrawerData = {}) => set({ type, data }), [set]);
  const close = useCallback(() => set(null), [set]);
  return { current, open, close };
}

export function useDrawerView() {
  const { drawerView } = useOverlay();
  const { current, set } = drawerView;
  const open = useCallback(
    (view: DrawerView, props: OpenDrawerView['props'] = {}) => set({ view, props }),
    [set],
  );
  const close = useCallback(() => set(null), [set]);
  return { current, open, close };
}

export function useModal() {
  const { modal } = useOverlay();
  const { current, set } = modal;
  const open = useCallback((view: ModalView, state: ModalState = {}) => set({ view, state }), [set]);
  const close = useCallback(() => set(null), [set]);
  return { current, open, close };
}

/** The full-screen gallery, opened on a given slide. */
export function useGallery() {
  const { gallery } = useOverlay();
  const { current, set } = gallery;
  const open = useCallback((images: string[], startIndex = 0) => set({ images, startIndex }), [set]);
  const close = useCallback(() => set(null), [set]);
  return { current, open, close };
}
