import type { DrawerView } from '@studio/contracts';
import { Descriptions, Drawer, useDrawerView } from '@studio/ui';
import { useCloseOnRouteChange } from './use-close-on-route-change';

const TITLES: Record<DrawerView, string> = {
  SIDE_MENU: 'Menu',
  FILTER_MENU: 'Filters',
  PHOTO_GALLERY: 'Photos',
  ACUITY_LINK: 'Booking link',
  LISTING_SIDEBAR: 'Listing',
  CALENDAR_SIDEBAR: 'Calendar',
  CHAT: 'Chat',
  BOOKING_FORM: 'Booking',
};

/** The drawer views of spec 000 §2. Their bodies come later; each is a titled panel with its props. */
export function DrawerViewHost() {
  const { current, close } = useDrawerView();
  useCloseOnRouteChange(close);
  if (!current) return null;
  const { view, props } = current;
  const items =
    view === 'CALENDAR_SIDEBAR'
      ? [
          { key: 'event', label: 'Event', children: props.eventId ?? '—' },
          { key: 'date', label: 'Date', children: props.selectedDate ?? '—' },
        ]
      : [];
  return (
    <Drawer
      open
      title={TITLES[view]}
      placement={view === 'SIDE_MENU' ? 'left' : 'right'}
      onClose={() => {
        close();
        props.fetch?.();
      }}
      destroyOnHidden
    >
      {items.length ? <Descriptions column={1} items={items} size="small" /> : null}
    </Drawer>
  );
}
