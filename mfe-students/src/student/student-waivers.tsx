import { WAIVER_MESSAGES } from '@studio/contracts';
import {
  answer,
  api,
  App,
  Button,
  Dropdown,
  Empty,
  Flex,
  MoreOutlined,
  serverMessage,
  Tag,
  useDateFormat,
  Typography,
  type StudentDetail,
} from '@studio/ui';

type Submission = StudentDetail['Submission'][number];

/** Spec 001 §4: in the student drawer 'completed' is Completed and anything else Pending. */
const badge = (status: Submission['status']) =>
  status === 'completed' ? <Tag color="green">Completed</Tag> : <Tag color="gold">Pending</Tag>;

/** The row's link: the signed document when there is one, otherwise the page where the student signs. */
const linkOf = (s: Submission) => s.submission_url ?? s.sign_url;

function sendReminder(submissionId: string) {
  return answer(
    api.GET('/api/admin/submission/remind/{submission_id}', {
      params: { path: { submission_id: submissionId } },
    }),
  );
}

/**
 * The Waivers section of the student drawer (spec 001 §2): template name, 'Signed on {date}' or
 * 'Sent on {date}', the badge, and a menu with 'Send reminder' and 'View submission url' (pending) or
 * 'View signed waiver' (completed). The row opens submission_url if present, else sign_url, in a new tab.
 */
export function StudentWaivers({ submissions, timezone }: { submissions: Submission[]; timezone: string }) {
  const { message } = App.useApp();
  const dates = useDateFormat();
  if (submissions.length === 0)
    return <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description="No waivers" />;

  const remind = async (submissionId: string) => {
    try {
      await sendReminder(submissionId);
      message.success(WAIVER_MESSAGES.reminderSent);
    } catch (error) {
      message.error(serverMessage(error, 'API call failed'));
    }
  };

  return (
    <ul aria-label="Waivers" style={{ listStyle: 'none', margin: 0, padding: 0 }}>
      {submissions.map((s) => {
        const completed = s.status === 'completed';
        const when = dates.date(completed && s.completed_at ? s.completed_at : s.created_at, timezone);
        const href = linkOf(s);
        const name = s.DocusealTemplate.name;
        return (
          <li
            key={s.submission_id}
            style={{ borderBottom: '1px solid rgba(5, 5, 5, 0.06)', padding: '8px 4px' }}
          >
            <Flex gap={12} align="center">
              <Flex vertical style={{ flex: 1, minWidth: 0 }}>
                {href ? (
                  <a href={href} target="_blank" rel="noopener noreferrer">
                    <strong>{name}</strong>
                  </a>
                ) : (
                  <strong>{name}</strong>
                )}
                <Typography.Text type="secondary">
                  {completed ? `Signed on ${when}` : `Sent on ${when}`}
                </Typography.Text>
              </Flex>
              {badge(s.status)}
              <Dropdown
                trigger={['click']}
                menu={{
                  items: [
                    { key: 'remind', label: 'Send reminder' },
                    {
                      key: 'view',
                      label: completed ? 'View signed waiver' : 'View submission url',
                      disabled: !href,
                    },
                  ],
                  onClick: ({ key }) => {
                    if (key === 'remind') void remind(s.submission_id);
                    else if (href) window.open(href, '_blank', 'noopener,noreferrer');
                  },
                }}
              >
                <Button type="text" aria-label={`Actions for ${name}`} icon={<MoreOutlined />} />
              </Dropdown>
            </Flex>
          </li>
        );
      })}
    </ul>
  );
}
