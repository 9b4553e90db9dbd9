import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { FormDrawer } from './form-drawer';

describe('FormDrawer', () => {
  it('is a form named by its title, with Cancel, the extra actions and the submit button in the footer', async () => {
    const onSubmit = jest.fn((event: { preventDefault(): void }) => event.preventDefault());
    const close = jest.fn();
    render(
      <FormDrawer
        title="Edit Product"
        extra={<span>Listed</span>}
        onSubmit={onSubmit}
        close={close}
        submitting={false}
        actions={<button type="button">Share</button>}
      >
        <label>
          Name
          <input />
        </label>
      </FormDrawer>,
    );
    const form = screen.getByRole('form', { name: 'Edit Product' });
    expect(form).toHaveAttribute('novalidate');
    expect(screen.getByRole('heading', { name: 'Edit Product' })).toBeInTheDocument();
    expect(screen.getByText('Listed')).toBeInTheDocument();
    expect(form).toContainElement(screen.getByLabelText('Name'));

    const footer = screen.getByRole('group', { name: 'Drawer actions' });
    const buttons = Array.from(footer.querySelectorAll('button')).map((b) => b.textContent);
    expect(buttons).toEqual(['Cancel', 'Share', 'Save']);

    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(onSubmit).toHaveBeenCalledTimes(1);
    // Outside a drawer host Cancel is the close itself.
    await userEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(close).toHaveBeenCalledTimes(1);
  });

  it('names the submit button as asked and shows a form error above the fields', () => {
    render(
      <FormDrawer
        title="New Course"
        onSubmit={() => undefined}
        close={() => undefined}
        submitting={false}
        submitLabel="Create course"
        formError="Fix the fields below."
      >
        <p>Fields</p>
      </FormDrawer>,
    );
    expect(screen.getByRole('button', { name: 'Create course' })).toHaveAttribute('type', 'submit');
    const alert = screen.getByRole('alert');
    expect(alert).toHaveTextContent('Fix the fields below.');
    expect(
      alert.compareDocumentPosition(screen.getByText('Fields')) & Node.DOCUMENT_POSITION_FOLLOWING,
    ).toBeTruthy();
  });

  it('shows no form error while there is none', () => {
    render(
      <FormDrawer title="Settings" onSubmit={() => undefined} close={() => undefined} submitting={false}>
        <p>Fields</p>
      </FormDrawer>,
    );
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });
});
