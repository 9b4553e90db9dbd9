import { TestApp } from '../test-app';
import { tinyPng } from './images';

/** Creates, through the API, what a course needs: a location, an instructor and uploaded images. */
export async function courseRefs(t: TestApp, token: string, imageCount = 1) {
  const location = await t.http
    .post('/api/admin/location')
    .set('token', token)
    .send({ name: 'Main studio', address: '12 Kiln Street, Brooklyn, NY', timezone: 'America/New_York' })
    .expect(201);
  const instructor = await t.http.post('/api/admin/instructor').set('token', token).send({ first_name: 'Mira' }).expect(201);
  const images: string[] = [];
  for (let i = 0; i < imageCount; i++) {
    const upload = await t.http.post('/api/admin/upload').set('token', token).attach('file', tinyPng(), `photo-${i}.png`).expect(200);
    images.push(upload.body.url);
  }
  return {
    location_id: location.body.location_id as string,
    instructor_id: instructor.body.instructor_id as string,
    images,
  };
}

export function validCourse(refs: { location_id: string; instructor_id: string; images: string[] }) {
  return {
    name: 'Wheel throwing',
    material: 'Ceramics',
    priceType: 'standard',
    price: 4500,
    description: 'Learn to center clay and throw a cylinder.',
    capacity: 8,
    images: refs.images.slice(0, 1),
    location_id: refs.location_id,
    instructor_id: refs.instructor_id,
    level: 'Beginner',
  };
}

export function validCourseEdit(refs: { location_id: string; instructor_id: string; images: string[] }) {
  return {
    name: 'Wheel throwing for beginners',
    price: 5200,
    description: 'Center clay, throw a cylinder and trim it.',
    capacity: 10,
    level: 'Intermediate',
    category_id: 4,
    images: refs.images.slice(0, 1),
    instructor_id: refs.instructor_id,
    location_id: refs.location_id,
  };
}
