import type { DrawerType, DrawerView, ModalView } from '@studio/contracts/src/ui-constants';
import type { DrawerData } from '../drawer/drawer-types';

export interface OpenDrawer {
  type: DrawerType | string;
  data: DrawerData;
}

/** CALENDAR_SIDEBAR takes an event, a day, the course and a callback that reloads the calendar. */
export interface CalendarSidebarProps {
  eventId?: string;
  selectedDate?: string;
  activity?: unknown;
  fetch?: () => void;
}

export interface OpenDrawerView {
  view: DrawerView;
  props: CalendarSidebarProps & Record<string, unknown>;
}

/** State of the global modal host (spec 001 §2). */
export interface ModalState {
  url?: string;
  email?: string;
  redirect_to?: string;
  activity_id?: string;
  back_url?: string;
  data?: unknown;
  exitLabels?: { confirm?: string; cancel?: string };
  onConfirm?: () => void;
  onExit?: () => void;
  onClose?: () => void;
}

export interface OpenModal {
  view: ModalView;
  state: ModalState;
}

export interface GalleryState {
  images: string[];
  startIndex: number;
}
