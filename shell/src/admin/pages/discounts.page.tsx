import { Button, useDrawer } from '@studio/ui';
import { PageFrame } from './page-frame';

export function DiscountsPage() {
  const drawer = useDrawer();
  return (
    <PageFrame
      title="Discounts"
      actions={
        <Button type="primary" onClick={() => drawer.open('discount', {})}>
          New discount
        </Button>
      }
    />
  );
}
