import type { ComponentType, LazyExoticComponent } from 'react';

/** Every drawer's data may carry a callback that runs after the drawer closes (spec 001 §2). */
export interface DrawerData {
  onClose?: () => void;
  [key: string]: unknown;
}

export interface DrawerProps<D extends object = DrawerData> {
  data: D & DrawerData;
  close: () => void;
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type DrawerComponent = ComponentType<DrawerProps<any>>;

/** What each remote exposes as './drawers': drawer type name to lazy component. */
export type DrawerRegistry = Record<string, LazyExoticComponent<DrawerComponent> | DrawerComponent>;
