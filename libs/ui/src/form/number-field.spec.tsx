import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useForm } from 'react-hook-form';
import { Form } from 'antd';
import { NumberField } from './number-field';

interface Values {
  capacity: number | '';
}

function CapacityForm({ onValue }: { onValue: (value: Values['capacity']) => void }) {
  const { control, handleSubmit, setError } = useForm<Values>({ defaultValues: { capacity: 8 } });
  return (
    <form onSubmit={handleSubmit((values) => onValue(values.capacity))}>
      <Form layout="vertical" component={false}>
        <NumberField control={control} name="capacity" label="Capacity" required />
      </Form>
      <button type="button" onClick={() => setError('capacity', { message: 'Capacity is required' })}>
        Fail
      </button>
      <button type="submit">Save</button>
    </form>
  );
}

describe('NumberField', () => {
  it('labels a text input by the field name and hands the form a number', async () => {
    const onValue = jest.fn();
    render(<CapacityForm onValue={onValue} />);
    const input = screen.getByLabelText('Capacity');
    expect(input).toHaveAttribute('id', 'capacity');
    expect(input).toHaveAttribute('inputmode', 'numeric');
    expect(input).toHaveValue('8');

    await userEvent.clear(input);
    await userEvent.type(input, '12');
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(onValue).toHaveBeenLastCalledWith(12);

    await userEvent.clear(input);
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(onValue).toHaveBeenLastCalledWith('');
  });

  it('shows the rule message under the input and marks the input red', async () => {
    render(<CapacityForm onValue={() => undefined} />);
    await userEvent.click(screen.getByRole('button', { name: 'Fail' }));
    expect(await screen.findByText('Capacity is required')).toBeInTheDocument();
    expect(screen.getByLabelText('Capacity').closest('.ant-input-affix-wrapper, .ant-input')).toHaveClass(
      /status-error/,
    );
  });
});
