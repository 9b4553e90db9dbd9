import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { ApiError } from '../api/api-error';
import { renderWithProviders } from '../../testing';
import { QueryError } from './query-error';

describe('QueryError', () => {
  it("shows what failed with the server's message and retries on click", async () => {
    const retry = jest.fn();
    renderWithProviders(
      <QueryError
        title="Could not load this student"
        error={
          new ApiError('API call failed', 500, {
            statusCode: 500,
            message: 'Something went wrong on our side',
          })
        }
        onRetry={retry}
      />,
    );
    expect(screen.getByText('Could not load this student')).toBeInTheDocument();
    expect(screen.getByText('Something went wrong on our side')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Retry' }));
    expect(retry).toHaveBeenCalledTimes(1);
  });

  it('a network failure asks to check the connection', () => {
    renderWithProviders(
      <QueryError
        title="Could not load courses"
        error={new TypeError('Failed to fetch')}
        onRetry={jest.fn()}
      />,
    );
    expect(screen.getByText('Check your connection and try again.')).toBeInTheDocument();
  });
});
