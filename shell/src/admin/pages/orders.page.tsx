import { PageFrame } from './page-frame';

export function OrdersPage() {
  return <PageFrame title="Orders" />;
}
