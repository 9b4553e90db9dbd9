import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useQuery } from '@tanstack/react-query';
import { Result } from 'antd';
import { ApiError, isApiError } from '../api/api-error';
import { renderWithProviders } from '../../testing';
import { QueryFailure, QueryGuard } from './query-guard';

/** A query whose answers are given in turn: an Error is a failed load. */
function Student({
  answers,
  keepDataOnError = false,
}: {
  answers: (string | Error)[];
  keepDataOnError?: boolean;
}) {
  const query = useQuery({
    queryKey: ['student'],
    queryFn: async () => {
      const next = answers.shift();
      if (next instanceof Error) throw next;
      return next ?? 'nobody';
    },
  });
  return (
    <QueryGuard
      query={query}
      title="Could not load this student"
      keepDataOnError={keepDataOnError}
      renderError={(error) =>
        isApiError(error) && error.status === 404 ? (
          <Result status="404" title="Student not found" />
        ) : undefined
      }
    >
      {(name) => (
        <>
          <p>Student: {name}</p>
          <button type="button" onClick={() => void query.refetch()}>
            Reload
          </button>
        </>
      )}
    </QueryGuard>
  );
}

const serverFailure = () =>
  new ApiError('API call failed', 500, { statusCode: 500, message: 'Something went wrong on our side' });

describe('QueryGuard', () => {
  it('shows the skeleton while loading, then the content', async () => {
    renderWithProviders(<Student answers={['Ada Lovelace']} />);
    expect(screen.getByRole('status', { name: 'Loading' })).toBeInTheDocument();
    expect(await screen.findByText('Student: Ada Lovelace')).toBeInTheDocument();
    expect(screen.queryByRole('status', { name: 'Loading' })).not.toBeInTheDocument();
  });

  it('a failed load shows the error with Retry, and Retry loads the content', async () => {
    renderWithProviders(<Student answers={[serverFailure(), 'Ada Lovelace']} />);
    expect(await screen.findByText('Could not load this student')).toBeInTheDocument();
    expect(screen.getByText('Something went wrong on our side')).toBeInTheDocument();
    expect(screen.queryByText(/Student:/)).not.toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Retry' }));
    expect(await screen.findByText('Student: Ada Lovelace')).toBeInTheDocument();
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });

  it('a failed reload shows the error unless the data is kept on error', async () => {
    renderWithProviders(<Student answers={['Ada Lovelace', serverFailure()]} />);
    await userEvent.click(await screen.findByRole('button', { name: 'Reload' }));
    expect(await screen.findByText('Could not load this student')).toBeInTheDocument();
    expect(screen.queryByText('Student: Ada Lovelace')).not.toBeInTheDocument();
  });

  it('keepDataOnError keeps the loaded data on screen after a failed reload', async () => {
    renderWithProviders(<Student keepDataOnError answers={['Ada Lovelace', serverFailure()]} />);
    await userEvent.click(await screen.findByRole('button', { name: 'Reload' }));
    await waitFor(() => expect(screen.getByRole('button', { name: 'Reload' })).toBeEnabled());
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(screen.getByText('Student: Ada Lovelace')).toBeInTheDocument();
    expect(screen.queryByText('Could not load this student')).not.toBeInTheDocument();
  });

  it('renderError replaces the Retry for the errors it knows', async () => {
    renderWithProviders(
      <Student answers={[new ApiError('API call failed', 404, { statusCode: 404, message: 'Not found' })]} />,
    );
    expect(await screen.findByText('Student not found')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Retry' })).not.toBeInTheDocument();
  });

  it('pending keeps the skeleton even with data', async () => {
    const query = { data: 'Ada', error: null, isError: false, isFetching: false, refetch: jest.fn() };
    const { rerender } = renderWithProviders(
      <QueryGuard query={query} title="Could not load" pending>
        {(name) => <p>Hello {name}</p>}
      </QueryGuard>,
    );
    expect(screen.getByRole('status', { name: 'Loading' })).toBeInTheDocument();
    rerender(
      <QueryGuard query={query} title="Could not load">
        {(name) => <p>Hello {name}</p>}
      </QueryGuard>,
    );
    expect(screen.getByText('Hello Ada')).toBeInTheDocument();
  });
});

describe('QueryFailure', () => {
  it('shows nothing while the query is fine, the error with Retry when it failed', async () => {
    const refetch = jest.fn();
    const fine = { error: null, isError: false, isFetching: false, refetch };
    const { rerender } = renderWithProviders(<QueryFailure query={fine} title="Could not load the orders" />);
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    rerender(
      <QueryFailure
        query={{ ...fine, isError: true, error: new TypeError('Failed to fetch') }}
        title="Could not load the orders"
      />,
    );
    expect(screen.getByText('Could not load the orders')).toBeInTheDocument();
    expect(screen.getByText('Check your connection and try again.')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Retry' }));
    expect(refetch).toHaveBeenCalledTimes(1);
  });
});
