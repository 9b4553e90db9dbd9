import { Button, useDrawer } from '@studio/ui';
import { PageFrame } from './page-frame';

export function ProductsPage() {
  const drawer = useDrawer();
  return (
    <PageFrame
      title="Products"
      actions={<Button onClick={() => drawer.open('share', { mode: 'product' })}>Share product</Button>}
    />
  );
}
