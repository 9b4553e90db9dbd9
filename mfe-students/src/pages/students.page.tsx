import { useEffect, useRef, useState } from 'react';
import { STUDENT_PAGE_SIZE } from '@studio/contracts';
import {
  Button,
  PlusOutlined,
  QueryFailure,
  Table,
  Tag,
  useDateFormat,
  useDrawer,
  useOrganizationTimezone,
  PageFrame,
  useNavigate,
  useParams,
  useListSearch,
  ListSearch,
  emptyListText,
  listPagination,
} from '@studio/ui';
import { useStudentPage, type StudentListRow } from './students.api';
import { NewStudentDialog } from './new-student-dialog';

/**
 * /admin/students: the organization's students, searched and paged on the server, with New student.
 * A row opens the student drawer; /admin/students/{student_id} (spec 001 §2 links) opens it too.
 */
export function StudentsPage() {
  const { studentId } = useParams();
  const { open } = useDrawer();
  const navigate = useNavigate();
  const timezone = useOrganizationTimezone();
  const dates = useDateFormat();
  const [query, setQuery] = useState({ search: '', page: 1, limit: STUDENT_PAGE_SIZE });
  const search = useListSearch(setQuery);
  const [adding, setAdding] = useState(false);
  // Keyset paging: the page after one already shown starts after its last student (its
  // `next_cursor`), so paging deep into 100,000 students never makes the database skip rows. A page
  // reached otherwise (a jump) is asked for by number. Cursor pages answer no count: the first stands.
  const listKey = JSON.stringify([query.search, query.limit]);
  const cursors = useRef(new Map<string, string>());
  const totals = useRef(new Map<string, number>());
  const cursor = query.page > 1 ? cursors.current.get(`${listKey}|${query.page}`) : undefined;
  const list = useStudentPage({ ...query, cursor });
  useEffect(() => {
    const answer = list.data;
    if (!answer || list.isPlaceholderData) return;
    if (answer.next_cursor) cursors.current.set(`${listKey}|${answer.currentPage + 1}`, answer.next_cursor);
    if (answer.totalCount !== null) totals.current.set(listKey, answer.totalCount);
  }, [list.data, list.isPlaceholderData, listKey]);

  useEffect(() => {
    if (studentId) open('student', { student_id: studentId, onClose: () => navigate('/admin/students') });
  }, [studentId, open, navigate]);

  const openStudent = (row: StudentListRow) => navigate(`/admin/students/${row.student_id}`);

  return (
    <PageFrame
      title="Students"
      actions={
        <Button type="primary" icon={<PlusOutlined />} onClick={() => setAdding(true)}>
          New student
        </Button>
      }
    >
      <ListSearch search={search} label="Search students" placeholder="Search name or email" />
      {/* The page's main data: a failure shows an error with Retry, never "No students yet". */}
      <QueryFailure query={list} title="Could not load the students" />
      <Table<StudentListRow>
        rowKey="student_id"
        size="middle"
        loading={list.isFetching}
        dataSource={list.data?.students ?? []}
        locale={{ emptyText: emptyListText('student', query.search, list.isError) }}
        scroll={{ x: 'max-content' }}
        onRow={(row) => ({
          onClick: () => openStudent(row),
          onKeyDown: (event) => {
            if (event.key === 'Enter') openStudent(row);
          },
          tabIndex: 0,
          style: { cursor: 'pointer' },
          'aria-label': `Open ${row.first_name} ${row.last_name}`,
        })}
        pagination={listPagination(
          'student',
          {
            current: query.page,
            pageSize: query.limit,
            total: list.data?.totalCount ?? totals.current.get(listKey) ?? 0,
          },
          (page) => setQuery((q) => ({ ...q, page })),
        )}
        columns={[
          { key: 'name', title: 'Name', render: (_, s) => `${s.first_name} ${s.last_name}` },
          { key: 'email', title: 'Email', dataIndex: 'email' },
          { key: 'phone', title: 'Phone', render: (_, s) => s.phone ?? '' },
          {
            key: 'signed_up',
            title: 'Account',
            render: (_, s) => (s.user_id ? <Tag color="green">Signed up</Tag> : <Tag>Not signed up</Tag>),
          },
          { key: 'created_at', title: 'First seen', render: (_, s) => dates.date(s.created_at, timezone) },
        ]}
      />
      <NewStudentDialog
        open={adding}
        onClose={() => setAdding(false)}
        onCreated={(student) => {
          setAdding(false);
          // Show the new student: search for them from the first page.
          search.setText(student.email);
          setQuery((q) => ({ ...q, search: student.email, page: 1 }));
        }}
      />
    </PageFrame>
  );
}
