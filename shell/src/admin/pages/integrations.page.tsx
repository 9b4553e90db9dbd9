import { Button, Card, Flex, Typography, useDrawer, useSession } from '@studio/ui';
import { PageFrame } from './page-frame';

export function IntegrationsPage() {
  const { session } = useSession();
  const drawer = useDrawer();
  const superAdmin = session?.user.role === 'super_admin';
  return (
    <PageFrame title="Integrations">
      <Flex vertical gap={16}>
        <Typography.Text type="secondary">Sync providers are set up here.</Typography.Text>
        {superAdmin ? (
          <Card title="Super Admin Settings" size="small">
            <Button onClick={() => drawer.open('super_admin', {})}>Switch organization</Button>
          </Card>
        ) : null}
      </Flex>
    </PageFrame>
  );
}
