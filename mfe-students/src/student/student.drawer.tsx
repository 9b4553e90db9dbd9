import { formatInZone } from '@studio/contracts';
import {
  Alert,
  Collapse,
  Descriptions,
  DrawerShell,
  FEATURE_NOT_AVAILABLE,
  LoadingSkeleton,
  QueryError,
  Tag,
  invalidateStudent,
  studentQueries,
  useOrganizationTimezone,
  useQuery,
  useQueryClient,
  useSkeletonDelay,
  type DrawerProps,
} from '@studio/ui';
import { StudentName } from './student-name';

export interface StudentDrawerData {
  student_id: string;
}

const notYet = (text: string) => <Alert type="info" showIcon title={text} />;

/**
 * Student drawer (spec 001 §2): what GET /api/admin/student/{id} answers (name, sign-up state,
 * email, phone, first seen). Loyalty points, waivers and orders need APIs on the known-missing list
 * (students issue 10, orders issue 9): those parts say they are not available yet.
 */
export function StudentDrawer({ data }: DrawerProps<StudentDrawerData>) {
  const timezone = useOrganizationTimezone();
  const waiting = useSkeletonDelay();
  const queryClient = useQueryClient();
  const query = useQuery(studentQueries.detail(data.student_id));

  if (query.isError) {
    return (
      <QueryError
        title="Could not load this student"
        error={query.error}
        onRetry={query.refetch}
        retrying={query.isFetching}
      />
    );
  }
  const student = query.data;
  if (!student || waiting) return <LoadingSkeleton />;
  const { phone } = student;

  return (
    <DrawerShell
      title={
        <StudentName
          studentId={student.student_id}
          firstName={student.first_name}
          lastName={student.last_name}
          onSaved={(first_name, last_name) => {
            queryClient.setQueryData(studentQueries.detail(student.student_id).queryKey, (old) =>
              old ? { ...old, first_name, last_name } : old,
            );
            void invalidateStudent(queryClient, student.student_id);
          }}
        />
      }
      extra={
        <Tag color={student.user_id ? 'green' : 'default'}>
          {student.user_id ? 'Signed up' : 'Not signed up'}
        </Tag>
      }
    >
      <Descriptions
        column={1}
        size="small"
        items={[
          { key: 'email', label: 'Email', children: student.email },
          ...(phone ? [{ key: 'phone', label: 'Phone', children: phone }] : []),
          {
            key: 'first-seen',
            label: 'First seen',
            children: formatInZone(student.created_at, 'dd MMM, yyyy', timezone),
          },
          { key: 'points', label: 'Loyalty points', children: FEATURE_NOT_AVAILABLE.loyalty },
        ]}
      />
      <Collapse
        style={{ marginTop: 16 }}
        defaultActiveKey={['orders']}
        items={[
          { key: 'waivers', label: 'Waivers', children: notYet(FEATURE_NOT_AVAILABLE.studentWaivers) },
          { key: 'orders', label: 'Orders', children: notYet(FEATURE_NOT_AVAILABLE.studentOrders) },
        ]}
      />
    </DrawerShell>
  );
}
