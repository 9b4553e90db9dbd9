import { useEffect, useState } from 'react';
import {
  App,
  DrawerShell,
  Flex,
  Form,
  Select,
  Tabs,
  Typography,
  courseQueries,
  productQueries,
  usePickerList,
  usePublicHost,
  type DrawerProps,
  LabeledSwitch,
} from '@studio/ui';
import { CopyLinkBox } from './copy-link-box';
import { sessionLabel, shareLink, type ShareTarget } from './share-link';

/** Settings → Organization's Checkout overlay section: the header code with this studio's addresses. */
export const OVERLAY_DOCS_URL = '/admin/settings/organization#checkout-overlay';
export const NO_DATES_AVAILABLE = 'No dates available';

export interface ShareDrawerData {
  /** 'product' shares a product; anything else shares a course (opened from a course or an event). */
  mode?: 'course' | 'product';
  activity_id?: string;
  event_id?: string;
  product_id?: string;
}

/** Share drawer (spec 001 §2): a checkout link or overlay link for a course, a course date or a product. */
export function ShareDrawer({ data }: DrawerProps<ShareDrawerData>) {
  const product = data.mode === 'product';
  return product ? <ProductShare initialId={data.product_id} /> : <CourseShare data={data} />;
}

function CourseShare({ data }: { data: ShareDrawerData }) {
  const { message } = App.useApp();
  const [activityId, setActivityId] = useState<string | undefined>(data.activity_id);
  const [eventId, setEventId] = useState<string | undefined>(data.event_id);
  const [byDate, setByDate] = useState(Boolean(data.event_id));

  // Pickers: a failed load is only logged and the list stays empty (spec 001 §8).
  const { items: courses } = usePickerList(courseQueries.list(), (a) => a.activities, 'courses');
  const { items: sessions, loading: sessionsLoading } = usePickerList(
    courseQueries.sessions(activityId ?? '', false),
    (a) => a.sessions,
    'sessions',
    Boolean(activityId),
  );

  useEffect(() => {
    setActivityId((current) => current ?? courses[0]?.activity_id);
  }, [courses]);

  // A new session list (another course chosen): keep the chosen date if it is there, else the first.
  useEffect(() => {
    if (sessionsLoading) return;
    if (sessions.length === 0) setByDate(false);
    setEventId((current) =>
      current && sessions.some((s) => s.event_id === current) ? current : sessions[0]?.event_id,
    );
  }, [sessions, sessionsLoading]);

  const changeCourse = (id: string) => {
    setEventId(undefined);
    setActivityId(id);
  };

  const toggleDate = (on: boolean) => {
    if (on && sessions.length === 0) {
      // The toggle is refused with a toast when the course has no dates (spec 001 §4).
      message.warning(NO_DATES_AVAILABLE);
      setByDate(false);
      return;
    }
    setByDate(on);
  };

  const target: ShareTarget | null =
    byDate && eventId
      ? { kind: 'event', id: eventId }
      : activityId
        ? { kind: 'activity', id: activityId }
        : null;

  return (
    <DrawerShell title="Share course">
      <Form layout="vertical" component={false}>
        <Form.Item label="Course" htmlFor="share-course">
          <Select
            id="share-course"
            aria-label="Course"
            value={activityId}
            onChange={changeCourse}
            placeholder="Select a course"
            options={courses.map((c) => ({ value: c.activity_id, label: c.name }))}
          />
        </Form.Item>
        <Form.Item extra="Customers will be sent directly to checkout and bypass date selection.">
          <LabeledSwitch
            label="Link to a specific course date?"
            checked={byDate}
            onChange={toggleDate}
            loading={sessionsLoading}
            disabled={sessionsLoading}
          />
        </Form.Item>
        {byDate ? (
          <Form.Item label="Session" htmlFor="share-session">
            <Select
              id="share-session"
              aria-label="Session"
              value={eventId}
              onChange={setEventId}
              placeholder="Select a session"
              notFoundContent="No sessions available"
              options={sessions.map((s) => ({ value: s.event_id, label: sessionLabel(s) }))}
            />
          </Form.Item>
        ) : null}
      </Form>
      <LinkTabs target={target} />
    </DrawerShell>
  );
}

/** Product mode: a product picker over the real list (GET /api/admin/products?limit=10000, spec 001 §7). */
function ProductShare({ initialId }: { initialId?: string }) {
  const [productId, setProductId] = useState<string | undefined>(initialId);
  // Picker: a failed load is only logged and the list stays empty (spec 001 §8).
  const { items: products } = usePickerList(productQueries.list(), (a) => a.products, 'products');

  useEffect(() => {
    setProductId((current) => current ?? products[0]?.product_id);
  }, [products]);

  return (
    <DrawerShell title="Share product">
      <Form layout="vertical" component={false}>
        <Form.Item label="Product" htmlFor="share-product">
          <Select
            id="share-product"
            aria-label="Product"
            value={productId}
            onChange={setProductId}
            placeholder="Select a product"
            options={products.map((p) => ({ value: p.product_id, label: p.name }))}
          />
        </Form.Item>
      </Form>
      <LinkTabs target={productId ? { kind: 'product', id: productId } : null} />
    </DrawerShell>
  );
}

function LinkTabs({ target }: { target: ShareTarget | null }) {
  const host = usePublicHost();
  const link = (overlay: boolean) => (target ? shareLink(host, target, overlay) : '');
  return (
    <Tabs
      items={[
        {
          key: 'link',
          label: 'Checkout link',
          children: <CopyLinkBox link={link(false)} label="Checkout link" />,
        },
        {
          key: 'overlay',
          label: 'Checkout overlay',
          children: (
            <Flex vertical gap={12}>
              <CopyLinkBox link={link(true)} label="Checkout overlay link" />
              <Typography.Text type="secondary">
                The checkout overlay needs the header code installed on your site.{' '}
                <a href={OVERLAY_DOCS_URL} target="_blank" rel="noreferrer">
                  Read the docs
                </a>
              </Typography.Text>
            </Flex>
          ),
        },
      ]}
    />
  );
}
