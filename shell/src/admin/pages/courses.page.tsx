import { Button, useDrawer } from '@studio/ui';
import { PageFrame } from './page-frame';

export function CoursesPage() {
  const drawer = useDrawer();
  return (
    <PageFrame
      title="Courses"
      actions={<Button onClick={() => drawer.open('share', { mode: 'course' })}>Share course</Button>}
    />
  );
}
