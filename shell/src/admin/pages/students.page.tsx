import { useEffect, useState } from 'react';
import { useNavigate, useParams } from 'react-router-dom';
import { Button, Flex, Input, useDrawer } from '@studio/ui';
import { PageFrame } from './page-frame';

/** /admin/students/{student_id} opens that student's drawer (spec 001 §2 links). */
export function StudentsPage() {
  const { studentId } = useParams();
  const drawer = useDrawer();
  const navigate = useNavigate();
  const [lookup, setLookup] = useState('');
  const { open } = drawer;

  useEffect(() => {
    if (studentId) open('student', { student_id: studentId, onClose: () => navigate('/admin/students') });
  }, [studentId, open, navigate]);

  return (
    <PageFrame
      title="Students"
      actions={
        <Flex gap={8}>
          <Input
            aria-label="Student id"
            placeholder="Student id"
            value={lookup}
            onChange={(event) => setLookup(event.target.value)}
          />
          <Button disabled={!lookup.trim()} onClick={() => navigate(`/admin/students/${lookup.trim()}`)}>
            Open student
          </Button>
        </Flex>
      }
    />
  );
}
