import { fireEvent, screen, waitFor } from '@testing-library/react';
import { okBody } from '@studio/ui/testing';

export const LOCATION_ID = '3f1c5d2e-8a4b-4c6d-9e0f-1a2b3c4d5e6f';
export const INSTRUCTOR_ID = '4a2d6e3f-9b5c-4d7e-8f10-2b3c4d5e6f70';
export const WAIVER_ID = '5b3e7f40-ac6d-4e8f-9a21-3c4d5e6f7081';

/** The lists the course forms load, typed by the generated response bodies. */
export const REFERENCE_ROUTES = {
  'GET /api/admin/location': okBody<'/api/admin/location', 'get'>({
    locations: [
      {
        location_id: LOCATION_ID,
        name: 'Main studio',
        address: '1 Clay St',
        timezone: 'America/New_York',
        online: false,
      },
    ],
  }),
  'GET /api/admin/instructor': okBody<'/api/admin/instructor', 'get'>({
    instructors: [{ instructor_id: INSTRUCTOR_ID, first_name: 'Ada', last_name: 'Potter', photo_url: null }],
  }),
  'GET /api/admin/waiver': okBody<'/api/admin/waiver', 'get'>({
    waivers: [{ template_id: WAIVER_ID, name: 'Studio waiver' }],
    totalCount: 1,
    page: 1,
    limit: 1000,
  }),
};

/** Opens an antd Select by its accessible name and clicks the option with that text. */
export async function pickOption(name: string, option: string) {
  fireEvent.mouseDown(screen.getByRole('combobox', { name }));
  const item = await waitFor(() => {
    const found = [...document.querySelectorAll<HTMLElement>('.ant-select-item-option')].filter(
      (el) => el.getAttribute('title') === option || el.textContent === option,
    );
    if (found.length === 0) throw new Error(`no option ${option}`);
    return found[found.length - 1];
  });
  fireEvent.click(item);
}

export function type(label: string, value: string) {
  // The first match: a checkout field further down may reuse the label (Description).
  fireEvent.change(screen.getAllByLabelText(label)[0], { target: { value } });
}

export function pngFile(name = 'pot.png', bytes = 64): File {
  return new File([new Uint8Array(bytes)], name, { type: 'image/png' });
}

export function uploadFiles(files: File[]) {
  fireEvent.change(screen.getByTestId('course-image-input'), { target: { files } });
}
