import { act, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { MemoryRouter, useNavigate } from 'react-router-dom';
import { Providers } from '@studio/ui/testing';
import { useDrawerView, useGallery } from '@studio/ui';
import { DrawerViewHost } from './drawer-view-host';
import { GalleryHost } from './gallery-host';

let views: ReturnType<typeof useDrawerView>;
let gallery: ReturnType<typeof useGallery>;
let navigate: ReturnType<typeof useNavigate>;
function Handles() {
  views = useDrawerView();
  gallery = useGallery();
  navigate = useNavigate();
  return null;
}

function renderHosts() {
  render(
    <MemoryRouter initialEntries={['/admin/courses']}>
      <Providers>
        <Handles />
        <DrawerViewHost />
        <GalleryHost />
      </Providers>
    </MemoryRouter>,
  );
}

describe('DrawerViewHost', () => {
  it('shows CALENDAR_SIDEBAR with its event and day, and runs the fetch callback on close', async () => {
    const refetch = jest.fn();
    renderHosts();
    act(() => views.open('CALENDAR_SIDEBAR', { eventId: 'e42', selectedDate: '2026-03-14', fetch: refetch }));
    expect(await screen.findByText('Calendar')).toBeInTheDocument();
    expect(screen.getByText('e42')).toBeInTheDocument();
    expect(screen.getByText('2026-03-14')).toBeInTheDocument();
    fireEvent.click(screen.getByRole('button', { name: 'Close' }));
    await waitFor(() => expect(screen.queryByText('e42')).not.toBeInTheDocument());
    expect(refetch).toHaveBeenCalledTimes(1);
  });

  it('closes on a route change', async () => {
    renderHosts();
    act(() => views.open('FILTER_MENU'));
    expect(await screen.findByText('Filters')).toBeInTheDocument();
    act(() => navigate('/admin/orders'));
    await waitFor(() => expect(screen.queryByText('Filters')).not.toBeInTheDocument());
  });
});

describe('GalleryHost', () => {
  it('opens on the given slide and steps through the images', async () => {
    renderHosts();
    act(() => gallery.open(['/a.png', '/b.png', '/c.png'], 1));
    expect(await screen.findByRole('img', { name: 'Image 2 of 3' })).toHaveAttribute('src', '/b.png');
    fireEvent.click(screen.getByRole('button', { name: 'Next image' }));
    expect(screen.getByRole('img', { name: 'Image 3 of 3' })).toHaveAttribute('src', '/c.png');
    fireEvent.click(screen.getByRole('button', { name: 'Next image' }));
    expect(screen.getByRole('img', { name: 'Image 1 of 3' })).toBeInTheDocument();
  });
});
