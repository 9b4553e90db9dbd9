import {
  $api,
  Button,
  Empty,
  QueryGuard,
  Table,
  Tag,
  Typography,
  useQuery,
  PageFrame,
  useNavigate,
} from '@studio/ui';
import type { WaiverSummary } from '@studio/contracts';

/**
 * /admin/settings/waivers: the organization's waiver templates, each with its signature requests
 * counted (pending and completed; expired when any), and the way to add one (/admin/waivers/new).
 */
export function WaiversPage() {
  const navigate = useNavigate();
  const query = useQuery($api.queryOptions('get', '/api/admin/submission/summary'));

  const body = (
    <QueryGuard query={query} title="Could not load the waivers">
      {({ templates }) =>
        templates.length === 0 ? (
          <Empty description="No waivers yet" />
        ) : (
          <Table<WaiverSummary>
            rowKey="template_id"
            pagination={false}
            dataSource={templates}
            aria-label="Waivers"
            columns={[
              {
                key: 'name',
                title: 'Name',
                render: (_, t) => (
                  <>
                    <Typography.Text strong>{t.name}</Typography.Text>
                    {t.document_url && (
                      <>
                        {' '}
                        <a href={t.document_url} target="_blank" rel="noopener noreferrer">
                          Document
                        </a>
                      </>
                    )}
                  </>
                ),
              },
              {
                key: 'pending',
                title: 'Pending',
                align: 'right',
                render: (_, t) => <span aria-label={`${t.name} pending`}>{t.pending}</span>,
              },
              {
                key: 'completed',
                title: 'Completed',
                align: 'right',
                render: (_, t) => <span aria-label={`${t.name} completed`}>{t.completed}</span>,
              },
              {
                key: 'expired',
                title: '',
                render: (_, t) => (t.expired > 0 ? <Tag>{t.expired} expired</Tag> : null),
              },
            ]}
          />
        )
      }
    </QueryGuard>
  );

  return (
    <PageFrame
      title="Waivers"
      actions={
        <Button type="primary" onClick={() => navigate('/admin/waivers/new')}>
          New waiver
        </Button>
      }
    >
      {body}
    </PageFrame>
  );
}
