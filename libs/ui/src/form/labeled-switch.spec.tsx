import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { LabeledSwitch } from './labeled-switch';

describe('LabeledSwitch', () => {
  it('is a switch named by the label shown beside it, and reports each toggle', async () => {
    const onChange = jest.fn();
    render(<LabeledSwitch id="sync" label="Sync with Eventbrite" checked={false} onChange={onChange} />);
    const toggle = screen.getByRole('switch', { name: 'Sync with Eventbrite' });
    expect(toggle).toHaveAttribute('id', 'sync');
    expect(toggle).toHaveAttribute('aria-checked', 'false');
    expect(screen.getByText('Sync with Eventbrite')).toBeVisible();

    await userEvent.click(toggle);
    expect(onChange).toHaveBeenCalledTimes(1);
    expect(onChange).toHaveBeenCalledWith(true);
  });

  it('toggles when its words are clicked, once', async () => {
    const onChange = jest.fn();
    render(<LabeledSwitch label="Classes here happen online" checked={false} onChange={onChange} />);
    await userEvent.click(screen.getByText('Classes here happen online'));
    expect(onChange).toHaveBeenCalledTimes(1);
    expect(onChange).toHaveBeenCalledWith(true);
  });

  it('cannot be toggled while disabled or loading', async () => {
    const onChange = jest.fn();
    const { rerender } = render(<LabeledSwitch label="Set capacity" checked disabled onChange={onChange} />);
    await userEvent.click(screen.getByRole('switch', { name: 'Set capacity' }));
    rerender(<LabeledSwitch label="Set capacity" checked loading onChange={onChange} />);
    await userEvent.click(screen.getByRole('switch', { name: 'Set capacity' }));
    expect(onChange).not.toHaveBeenCalled();
    expect(screen.getByRole('switch', { name: 'Set capacity' })).toHaveAttribute('aria-checked', 'true');
  });
});
