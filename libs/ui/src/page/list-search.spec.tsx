import { useState } from 'react';
import { act, fireEvent, render, screen } from '@testing-library/react';
import {
  LIST_SEARCH_DEBOUNCE_MS,
  ListSearch,
  countText,
  emptyListText,
  listPagination,
  thumbnailColumn,
  useListSearch,
} from './list-search';

function List() {
  const [query, setQuery] = useState({ search: '', page: 3, limit: 20 });
  const search = useListSearch(setQuery);
  return (
    <>
      <ListSearch search={search} label="Search courses" placeholder="Search by name" />
      <output>{`${query.search}|${query.page}|${query.limit}`}</output>
    </>
  );
}

describe('ListSearch', () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  it('searches after a pause in typing, from the first page, and keeps the other parts of the query', () => {
    render(<List />);
    const box = screen.getByRole('searchbox', { name: 'Search courses' });
    expect(box).toHaveAttribute('placeholder', 'Search by name');
    fireEvent.change(box, { target: { value: ' clay ' } });
    act(() => jest.advanceTimersByTime(LIST_SEARCH_DEBOUNCE_MS - 1));
    expect(screen.getByRole('status')).toHaveTextContent('|3|20');
    act(() => jest.advanceTimersByTime(1));
    expect(screen.getByRole('status')).toHaveTextContent('clay|1|20');
  });

  it('searches at once on Enter', () => {
    render(<List />);
    const box = screen.getByRole('searchbox', { name: 'Search courses' });
    fireEvent.change(box, { target: { value: 'wheel' } });
    fireEvent.keyDown(box, { key: 'Enter', code: 'Enter', keyCode: 13 });
    expect(screen.getByRole('status')).toHaveTextContent('wheel|1|20');
  });
});

describe('list texts', () => {
  it('counts in the singular and the plural', () => {
    expect(countText('course')(1)).toBe('1 course');
    expect(countText('course')(0)).toBe('0 courses');
    expect(countText('student')(12)).toBe('12 students');
  });

  it('says nothing matches the search, or that there is nothing yet', () => {
    expect(emptyListText('discount', 'SPRING')).toBe('No discounts match “SPRING”');
    expect(emptyListText('discount', '')).toBe('No discounts yet');
  });
});

describe('listPagination and thumbnailColumn', () => {
  it('pages a server list with its count in words and no size changer', () => {
    const onChange = jest.fn();
    const pagination = listPagination('course', { current: 2, pageSize: 20, total: 41 }, onChange);
    expect(pagination).toMatchObject({
      current: 2,
      pageSize: 20,
      total: 41,
      showSizeChanger: false,
      onChange,
    });
    expect(pagination.showTotal(41)).toBe('41 courses');
    expect('onChange' in listPagination('order', { current: 1, pageSize: 20, total: 1 })).toBe(false);
  });

  it('shows a row’s picture as a decorative thumbnail, or nothing', () => {
    const column = thumbnailColumn<{ image: string | null }>((row) => row.image);
    const { container } = render(<>{column.render(undefined, { image: '/api/media/a.png' })}</>);
    expect(container.querySelector('img')).toHaveAttribute('src', '/api/media/a.png');
    expect(container.querySelector('img')).toHaveAttribute('alt', '');
    expect(column.render(undefined, { image: null })).toBeNull();
  });
});
