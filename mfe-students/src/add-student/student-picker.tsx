import { useEffect, useState } from 'react';
import { STUDENT_SEARCH_DEBOUNCE_MS } from '@studio/contracts';
import { Select } from '@studio/ui';
import { searchStudents, type StudentListItem } from './add-student.api';

interface StudentPickerProps {
  value?: string;
  onChange: (studentId: string | undefined) => void;
  status?: 'error';
}

const label = (s: StudentListItem) => `${s.first_name} ${s.last_name} (${s.email})`;

/** Student picker: the server searches name and email, asked once typing pauses. */
export function StudentPicker({ value, onChange, status }: StudentPickerProps) {
  const [search, setSearch] = useState('');
  const [students, setStudents] = useState<StudentListItem[]>([]);
  const [loading, setLoading] = useState(false);

  useEffect(() => {
    const controller = new AbortController();
    const timer = setTimeout(() => {
      setLoading(true);
      searchStudents(search, controller.signal)
        .then(setStudents)
        .catch((error: unknown) => {
          if (!controller.signal.aborted) {
            console.error('Could not search students', error);
            setStudents([]);
          }
        })
        .finally(() => !controller.signal.aborted && setLoading(false));
    }, STUDENT_SEARCH_DEBOUNCE_MS);
    return () => {
      clearTimeout(timer);
      controller.abort();
    };
  }, [search]);

  return (
    <Select
      id="student_id"
      aria-label="Student"
      showSearch={{ filterOption: false, onSearch: setSearch }}
      allowClear
      placeholder="Search students by name or email"
      status={status}
      loading={loading}
      value={value || undefined}
      onChange={(id: string | undefined) => onChange(id)}
      notFoundContent={loading ? 'Searching…' : 'No students found'}
      options={students.map((s) => ({ value: s.student_id, label: label(s) }))}
      style={{ width: '100%' }}
    />
  );
}
