import { fireEvent, screen } from '@testing-library/react';
import { renderWithProviders } from '@studio/ui/testing';
import { useDrawer } from '@studio/ui';
import { CustomerSection, type Customer } from './customer-section';

const ADA: Customer = {
  student_id: 's1',
  first_name: 'Ada',
  last_name: 'Lovelace',
  email: 'ada@example.com',
  phone: '+1 555 0100',
};

function OpenDrawer() {
  const { current } = useDrawer();
  return (
    <output aria-label="open drawer">
      {current ? `${current.type} ${JSON.stringify(current.data)}` : ''}
    </output>
  );
}

const render = (student: Customer) =>
  renderWithProviders(
    <>
      <CustomerSection student={student} />
      <OpenDrawer />
    </>,
  );

describe('CustomerSection', () => {
  it('names the customer, with email and phone; the name opens the student drawer', () => {
    render(ADA);
    const section = screen.getByRole('region', { name: 'Customer' });
    expect(section).toHaveTextContent('ada@example.com');
    expect(section).toHaveTextContent('Phone+1 555 0100');
    fireEvent.click(screen.getByRole('button', { name: 'Ada Lovelace' }));
    expect(screen.getByRole('status', { name: 'open drawer' }).textContent).toBe(
      'student {"student_id":"s1"}',
    );
  });

  it('leaves the phone out when there is none', () => {
    render({ ...ADA, phone: null });
    expect(screen.getByRole('region', { name: 'Customer' })).not.toHaveTextContent('Phone');
  });
});
