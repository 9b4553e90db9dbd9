/** Drawer types of spec 001 §2: the drawer host opens only these names; any other shows nothing. */
export const DRAWER_TYPES = [
  'discount',
  'share',
  'eventbrite',
  'mailchimp',
  'zoom',
  'super_admin',
  'klaviyo',
  'course_builder',
  'schedule_course',
  'order',
  'event',
  'subscription',
  'course',
  'product',
  'student',
  'edit_course',
] as const;
export type DrawerType = (typeof DRAWER_TYPES)[number];

export function isDrawerType(value: unknown): value is DrawerType {
  return typeof value === 'string' && (DRAWER_TYPES as readonly string[]).includes(value);
}

/** Drawer views of spec 000 §2 (the storefront-side drawers). */
export const DRAWER_VIEWS = [
  'SIDE_MENU',
  'FILTER_MENU',
  'PHOTO_GALLERY',
  'ACUITY_LINK',
  'LISTING_SIDEBAR',
  'CALENDAR_SIDEBAR',
  'CHAT',
  'BOOKING_FORM',
] as const;
export type DrawerView = (typeof DRAWER_VIEWS)[number];

/** Global modal host views of spec 001 §2. */
export const MODAL_VIEWS = [
  'SIGN_IN',
  'SIGN_UP',
  'CREATE_NEW_ACCOUNT',
  'SIGN_UP_ORG',
  'FORGOT_PASSWORD',
  'ADD_REVIEW',
  'LEAVE_CHECKOUT',
  'APPLY_GIFTCARD',
  'REPORT_LISTING',
  'CANCEL_BOOKING',
  'MODIFY_BOOKING',
  'CONTACT_HOST',
  'SHARE',
  'SEARCH_MODAL',
  'QUANTITY_MODAL',
] as const;
export type ModalView = (typeof MODAL_VIEWS)[number];

/** Modal views that an outside click must not close (spec 001 §2). */
export const MODAL_VIEWS_STICKY: readonly ModalView[] = ['CREATE_NEW_ACCOUNT'];

/** The fullscreen choice is remembered per drawer type for one year (spec 001 §2, §9). */
export const FULLSCREEN_COOKIE_MAX_AGE_SECONDS = 31536000;
export const fullscreenCookieName = (type: DrawerType) => `drawer_fullscreen_${type}`;
/**
 * "Add a waiver" opens /admin/waivers/new in a new tab, so the half-filled course form stays; the
 * new tab announces the waiver it created on this BroadcastChannel and closes itself.
 */
export const WAIVER_CREATED_CHANNEL = 'studio-waiver-created';
export const ADD_WAIVER_PATH = '/admin/waivers/new?then=close';

/** Spec 001 §2: "Event drawers have a fullscreen toggle"; no other drawer has one. */
export const FULLSCREEN_DRAWER_TYPES: readonly DrawerType[] = ['event'];
export const hasFullscreenToggle = (type: DrawerType) => FULLSCREEN_DRAWER_TYPES.includes(type);

/** Drawer widths: narrow for share, wider by default, full width when fullscreen. */
export const DRAWER_WIDTH = { narrow: 480, default: 820, fullscreen: '100%' } as const;

/** The loading skeleton shows for 500 ms (spec 000 §9). */
export const LOADING_SKELETON_MS = 500;

/** The header that carries the session token (spec 000 §6, spec 001 §6). */
export const TOKEN_HEADER = 'token';
