import { LOYALTY_MESSAGES, POINTS_PER_DOLLAR } from '@studio/contracts';
import {
  $api,
  App,
  Flex,
  QueryGuard,
  Switch,
  Tag,
  Typography,
  invalidateLoyaltyProgram,
  loyaltyQueries,
  useQuery,
  useQueryClient,
  useSession,
  PageFrame,
} from '@studio/ui';

/**
 * /admin/settings/loyalty: the owner turns the loyalty points programme on or off (spec 000 §3, §4,
 * §9). While it is off, products cannot award points and points cannot be adjusted.
 */
export function LoyaltyPage() {
  const { message } = App.useApp();
  const { session } = useSession();
  const queryClient = useQueryClient();
  const query = useQuery(loyaltyQueries.program());
  const save = $api.useMutation('put', '/api/admin/loyalty-program', {
    onSuccess: (program) => {
      message.success(program.status === 'active' ? LOYALTY_MESSAGES.enabled : LOYALTY_MESSAGES.disabled);
      void invalidateLoyaltyProgram(queryClient);
    },
    onError: (error) => {
      console.error('Updating the loyalty program failed', error);
      message.error(LOYALTY_MESSAGES.saveFailed);
    },
  });
  const mayChange = session?.user.role === 'owner' || session?.user.role === 'super_admin';

  // While a switch is saving it shows the new position; a failed save falls back to what is stored.
  const shownStatus = (stored: string) =>
    save.isPending && save.variables ? save.variables.body.status : stored;
  const body = (
    <QueryGuard query={query} title={LOYALTY_MESSAGES.loadFailed}>
      {(program) => {
        const active = shownStatus(program.status) === 'active';
        return (
          <Flex vertical gap={16}>
            <Flex gap={12} align="center" wrap>
              <Switch
                checked={active}
                loading={save.isPending}
                disabled={!mayChange}
                aria-label="Loyalty program"
                onChange={(on) => save.mutate({ body: { status: on ? 'active' : 'disabled' } })}
              />
              <Typography.Text strong>Loyalty program</Typography.Text>
              <Tag color={active ? 'green' : 'default'}>{active ? 'Active' : 'Disabled'}</Tag>
            </Flex>
            <Typography.Paragraph style={{ margin: 0 }}>
              <Typography.Text strong>{LOYALTY_MESSAGES.rule}</Typography.Text>
            </Typography.Paragraph>
            <Typography.Paragraph type="secondary" style={{ margin: 0 }}>
              Students earn the points a product awards when they buy it, and spend them at checkout at{' '}
              {POINTS_PER_DOLLAR} points to the dollar. While the program is disabled, products cannot award
              points and balances cannot be adjusted.
            </Typography.Paragraph>
            {mayChange ? null : (
              <Typography.Text type="secondary">
                Only the studio owner can turn the program on or off.
              </Typography.Text>
            )}
          </Flex>
        );
      }}
    </QueryGuard>
  );
  return <PageFrame title="Loyalty">{body}</PageFrame>;
}
