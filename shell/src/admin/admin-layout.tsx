import { useState } from 'react';
import { Outlet, useLocation, useNavigate } from 'react-router-dom';
import {
  Button,
  Dropdown,
  Flex,
  Layout,
  Menu,
  RemoteRegistryContext,
  Typography,
  useDrawer,
  useSession,
  type MenuProps,
} from '@studio/ui';
import { loadDrawerRegistry } from '../federation/remotes';
import { DrawerHost } from '../hosts/drawer-host';
import { DrawerViewHost } from '../hosts/drawer-view-host';
import { GalleryHost } from '../hosts/gallery-host';
import { ModalHost } from '../hosts/modal-host';

/** A menu item: a page's path and label, from the manifest's pages. */
export interface MenuEntry {
  key: string;
  label: string;
}

const SUPER_ADMIN_KEY = 'super_admin';

/** The account menu: sign this browser out, or every browser signed in to the account. */
const ACCOUNT_MENU: NonNullable<MenuProps['items']> = [
  { key: 'sign-out', label: 'Sign out' },
  { key: 'sign-out-everywhere', label: 'Sign out everywhere' },
];

export function AdminLayout({ menu }: { menu: MenuEntry[] }) {
  const { session, signOut } = useSession();
  const navigate = useNavigate();
  const { pathname } = useLocation();
  const drawer = useDrawer();
  // Only a super admin sees the organization switch.
  const items: NonNullable<MenuProps['items']> = menu.map(({ key, label }) => ({ key, label }));
  if (session?.user.role === 'super_admin')
    items.push({ key: SUPER_ADMIN_KEY, label: 'Super Admin Settings' });
  // The longest menu path the address starts with (/admin/settings/loyalty, not /admin/settings).
  const selected = menu
    .map((item) => item.key)
    .filter((key) => pathname === key || pathname.startsWith(`${key}/`))
    .sort((a, b) => b.length - a.length)[0];
  // Below antd's lg breakpoint (992 px) the menu folds away behind a Menu button and, when open,
  // lies over the page instead of squeezing it (a 390 px phone keeps whole words on every line).
  const [narrow, setNarrow] = useState(false);
  const [menuOpen, setMenuOpen] = useState(false);
  const collapsed = narrow && !menuOpen;

  return (
    <Layout style={{ minHeight: '100vh' }}>
      {/* Hosts come before the page so a page that opens a drawer on arrival is not closed by the route change. */}
      <DrawerHost />
      <DrawerViewHost />
      <ModalHost />
      <GalleryHost />
      <Layout.Sider
        theme="light"
        width={220}
        breakpoint="lg"
        collapsedWidth={0}
        collapsed={collapsed}
        trigger={null}
        onBreakpoint={(broken) => {
          setNarrow(broken);
          setMenuOpen(false);
        }}
        style={
          narrow
            ? {
                position: 'fixed',
                insetBlock: 0,
                insetInlineStart: 0,
                zIndex: 200,
                overflowY: 'auto',
                boxShadow: menuOpen ? '0 0 24px rgba(0,0,0,0.2)' : undefined,
              }
            : undefined
        }
      >
        <Typography.Title level={4} ellipsis={{ tooltip: true }} style={{ padding: '16px 24px', margin: 0 }}>
          {session?.organization.name ?? 'Studio'}
        </Typography.Title>
        <nav aria-label="Main">
          <Menu
            mode="inline"
            items={items}
            selectedKeys={selected ? [selected] : []}
            onClick={({ key }) => {
              if (narrow) setMenuOpen(false);
              if (key === SUPER_ADMIN_KEY) drawer.open('super_admin', {});
              else navigate(key);
            }}
          />
        </nav>
      </Layout.Sider>
      {narrow && menuOpen ? (
        <div
          aria-hidden
          onClick={() => setMenuOpen(false)}
          style={{ position: 'fixed', inset: 0, zIndex: 199, background: 'rgba(0,0,0,0.25)' }}
        />
      ) : null}
      <Layout>
        <Layout.Header style={{ background: '#fff', paddingInline: narrow ? 12 : 24 }}>
          <Flex justify="flex-end" align="center" gap={narrow ? 8 : 16} style={{ height: '100%' }}>
            {narrow ? (
              <Button
                aria-label="Menu"
                aria-expanded={menuOpen}
                onClick={() => setMenuOpen((on) => !on)}
                style={{ marginInlineEnd: 'auto' }}
              >
                Menu
              </Button>
            ) : null}
            <Dropdown
              trigger={['click']}
              menu={{
                items: ACCOUNT_MENU,
                // Signed out, the session is gone and the router shows the sign-in page.
                onClick: ({ key }) => void signOut({ everywhere: key === 'sign-out-everywhere' }),
              }}
            >
              {/* A long email shortens with an ellipsis on a phone instead of pushing the Menu button out. */}
              <Button
                style={{
                  minWidth: 0,
                  maxWidth: narrow ? 220 : undefined,
                  overflow: 'hidden',
                  textOverflow: 'ellipsis',
                }}
              >
                {session?.user.email ?? 'Account'}
              </Button>
            </Dropdown>
          </Flex>
        </Layout.Header>
        <Layout.Content style={{ padding: narrow ? 12 : 24, minWidth: 0 }}>
          {/* Pages too may show dialogs another remote registers (the Booking card's and the calendar's
              appointment dialogs are mfe-students'), as drawers do. */}
          <RemoteRegistryContext.Provider value={loadDrawerRegistry}>
            <Outlet />
          </RemoteRegistryContext.Provider>
        </Layout.Content>
      </Layout>
    </Layout>
  );
}
