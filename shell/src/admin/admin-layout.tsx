import { Outlet, useLocation, useNavigate } from 'react-router-dom';
import { Button, Flex, Layout, Menu, Typography, useDrawer, useSession, type MenuProps } from '@studio/ui';
import { DrawerHost } from '../hosts/drawer-host';
import { DrawerViewHost } from '../hosts/drawer-view-host';
import { GalleryHost } from '../hosts/gallery-host';
import { ModalHost } from '../hosts/modal-host';

const MENU: NonNullable<MenuProps['items']> = [
  { key: '/admin/courses', label: 'Courses' },
  { key: '/admin/orders', label: 'Orders' },
  { key: '/admin/students', label: 'Students' },
  { key: '/admin/products', label: 'Products' },
  { key: '/admin/discounts', label: 'Discounts' },
  { key: '/admin/settings/integrations', label: 'Integrations' },
  { key: '/admin/settings/locations', label: 'Locations' },
  { key: '/admin/settings/instructors', label: 'Instructors' },
];

const SUPER_ADMIN_KEY = 'super_admin';

export function AdminLayout() {
  const { session, signOut } = useSession();
  const navigate = useNavigate();
  const { pathname } = useLocation();
  const drawer = useDrawer();
  // Only a super admin sees the organization switch.
  const items =
    session?.user.role === 'super_admin'
      ? [...MENU, { key: SUPER_ADMIN_KEY, label: 'Super Admin Settings' }]
      : MENU;
  const selected = MENU.map((item) => String(item?.key)).find((key) => pathname.startsWith(key));

  return (
    <Layout style={{ minHeight: '100vh' }}>
      {/* Hosts come before the page so a page that opens a drawer on arrival is not closed by the route change. */}
      <DrawerHost />
      <DrawerViewHost />
      <ModalHost />
      <GalleryHost />
      <Layout.Sider theme="light" width={220} breakpoint="lg" collapsedWidth={0}>
        <Typography.Title level={4} style={{ padding: '16px 24px', margin: 0 }}>
          {session?.organization.name ?? 'Studio'}
        </Typography.Title>
        <nav aria-label="Main">
          <Menu
            mode="inline"
            items={items}
            selectedKeys={selected ? [selected] : []}
            onClick={({ key }) => (key === SUPER_ADMIN_KEY ? drawer.open('super_admin', {}) : navigate(key))}
          />
        </nav>
      </Layout.Sider>
      <Layout>
        <Layout.Header style={{ background: '#fff', paddingInline: 24 }}>
          <Flex justify="flex-end" align="center" gap={16} style={{ height: '100%' }}>
            <Typography.Text>{session?.user.email}</Typography.Text>
            <Button onClick={() => void signOut()}>Sign out</Button>
          </Flex>
        </Layout.Header>
        <Layout.Content style={{ padding: 24 }}>
          <Outlet />
        </Layout.Content>
      </Layout>
    </Layout>
  );
}
