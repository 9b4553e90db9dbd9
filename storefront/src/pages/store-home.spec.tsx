import { screen, within } from '@testing-library/dom';
import { render } from 'preact';
import { act } from 'preact/test-utils';
import { course, product, store } from '../testing/fixtures';
import { StoreHomePage } from './store-home';

const base = '/s/demo-studio';

function show(data = store()) {
  document.body.innerHTML = '<div id="app"></div>';
  act(() => render(<StoreHomePage data={data} base={base} />, document.getElementById('app')!));
}

describe('the store home', () => {
  it("shows the studio's name, its courses as cards linking to their pages, and its products", () => {
    show();
    expect(screen.getByRole('heading', { level: 1, name: 'Demo Studio' })).toBeInTheDocument();
    const courses = screen.getByRole('region', { name: 'Courses' });
    const [card] = within(courses).getAllByRole('listitem');
    expect(within(card).getByRole('link', { name: 'Intro to Wheel Throwing' })).toHaveAttribute(
      'href',
      `${base}/activity/${course().activity_id}`,
    );
    expect(card).toHaveTextContent('Center clay, pull walls');
    expect(card).toHaveTextContent('$65.00');
    // The next session in the studio's zone, the zone named.
    expect(card).toHaveTextContent(/Tue, Dec 1(, 2026)? 6:00 PM EST/);
    expect(card).toHaveTextContent('Main studio');
    expect(card.querySelector('img')).toHaveAttribute('src', '/api/media/wheel-1.png');

    const products = screen.getByRole('region', { name: 'Products' });
    const item = within(products).getByRole('listitem');
    expect(within(item).getByRole('link', { name: 'Studio membership' })).toHaveAttribute(
      'href',
      product().url,
    );
    expect(item).toHaveTextContent('$49.00 / month');
  });

  it('says Free for a free course and a lead magnet, and when nothing is open for booking', () => {
    const [card] = store().courses;
    show(
      store({
        courses: [{ ...card, free: true, price_cents: 0 }],
        products: [
          product({ kind: 'leadMagnet', price_cents: 0, renewal_interval_unit: null, name: 'Glaze guide' }),
        ],
      }),
    );
    expect(within(screen.getByRole('region', { name: 'Courses' })).getByText('Free')).toBeInTheDocument();
    expect(within(screen.getByRole('region', { name: 'Products' })).getByText('Free')).toBeInTheDocument();

    show(store({ courses: [], products: [] }));
    expect(screen.getByText('No courses are open for booking right now.')).toBeInTheDocument();
    expect(screen.queryByRole('region', { name: 'Products' })).toBeNull();
  });
});
