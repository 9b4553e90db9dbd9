import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useForm } from 'react-hook-form';
import { Form, Input } from 'antd';
import { ApiError } from '../api/api-error';
import { renderWithProviders } from '../../testing';
import { FormField } from './form-field';
import { setServerFieldErrors, type ServerFieldNames } from './server-field-errors';

interface Values {
  code: string;
  end_date: string;
}

/** A form whose save fails with the given error; says whether any field took a message. */
function DiscountForm({ error, fields }: { error: unknown; fields: ServerFieldNames<Values> }) {
  const form = useForm<Values>({ defaultValues: { code: 'SPRING', end_date: '' } });
  const onSubmit = form.handleSubmit(() => {
    const shown = setServerFieldErrors(error, form.setError, fields);
    if (!shown) form.setError('root', { message: 'Could not save the discount' });
  });
  return (
    <form onSubmit={onSubmit} aria-label="Discount">
      <Form layout="vertical" component={false}>
        <FormField control={form.control} name="code" label="Code">
          {(field) => <Input {...field} id="code" />}
        </FormField>
        <FormField control={form.control} name="end_date" label="End date">
          {(field) => <Input {...field} id="end_date" />}
        </FormField>
      </Form>
      {form.formState.errors.root ? <p>{form.formState.errors.root.message}</p> : null}
      <button type="submit">Save</button>
    </form>
  );
}

const refused = (errors: Record<string, string>) =>
  new ApiError('API call failed', 400, { statusCode: 400, message: 'Validation failed', errors });

describe('setServerFieldErrors', () => {
  it("shows the server's message under the field it names", async () => {
    renderWithProviders(
      <DiscountForm error={refused({ code: 'This code is already used' })} fields={['code', 'end_date']} />,
    );
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('This code is already used')).toBeInTheDocument();
    expect(screen.queryByText('Could not save the discount')).not.toBeInTheDocument();
  });

  it("maps the API's field name to the form's and a nested path to its top-level field", async () => {
    renderWithProviders(
      <DiscountForm
        error={refused({ expiration_date: 'Must be after the start date', 'code.0': 'Letters only' })}
        fields={{ expiration_date: 'end_date', code: 'code' }}
      />,
    );
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Must be after the start date')).toBeInTheDocument();
    expect(screen.getByText('Letters only')).toBeInTheDocument();
  });

  it('an error naming no field of the form (or no API error at all) shows no field message', async () => {
    const { unmount } = renderWithProviders(
      <DiscountForm error={refused({ owner: 'Not yours' })} fields={['code', 'end_date']} />,
    );
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Could not save the discount')).toBeInTheDocument();
    expect(screen.queryByText('Not yours')).not.toBeInTheDocument();
    unmount();
    renderWithProviders(<DiscountForm error={new TypeError('Failed to fetch')} fields={['code']} />);
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Could not save the discount')).toBeInTheDocument();
  });
});
