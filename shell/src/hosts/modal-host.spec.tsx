import { act, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { MemoryRouter, useNavigate } from 'react-router-dom';
import { Providers } from '@studio/ui/testing';
import { useModal } from '@studio/ui';
import { ModalHost } from './modal-host';

let modal: ReturnType<typeof useModal>;
let navigate: ReturnType<typeof useNavigate>;
function Handles() {
  modal = useModal();
  navigate = useNavigate();
  return null;
}

function renderHost() {
  render(
    <MemoryRouter initialEntries={['/admin/courses']}>
      <Providers>
        <Handles />
        <ModalHost />
      </Providers>
    </MemoryRouter>,
  );
}

/** An outside click: press and release on the area around the dialog. */
function clickOutside() {
  const wrap = document.querySelector('.ant-modal-wrap')!;
  fireEvent.mouseDown(wrap);
  fireEvent.mouseUp(wrap);
  fireEvent.click(wrap);
}

describe('ModalHost', () => {
  it('an outside click does not close CREATE_NEW_ACCOUNT', async () => {
    renderHost();
    act(() => modal.open('CREATE_NEW_ACCOUNT', { email: 'new@demo.studio' }));
    expect(await screen.findByText('Create a new account')).toBeInTheDocument();
    clickOutside();
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(screen.getByText('Create a new account')).toBeInTheDocument();
    expect(screen.getByText('new@demo.studio')).toBeInTheDocument();
  });

  it('an outside click closes the other views and runs onClose', async () => {
    const onClose = jest.fn();
    renderHost();
    act(() => modal.open('SIGN_IN', { onClose }));
    expect(await screen.findByText('Sign in')).toBeInTheDocument();
    clickOutside();
    await waitFor(() => expect(screen.queryByText('Sign in')).not.toBeInTheDocument());
    expect(onClose).toHaveBeenCalled();
  });

  it('exit labels become buttons that run their callbacks', async () => {
    const onExit = jest.fn();
    const onConfirm = jest.fn();
    renderHost();
    act(() =>
      modal.open('LEAVE_CHECKOUT', {
        back_url: '/admin/orders',
        exitLabels: { confirm: 'Stay', cancel: 'Leave' },
        onExit,
        onConfirm,
      }),
    );
    fireEvent.click(await screen.findByRole('button', { name: 'Leave' }));
    expect(onExit).toHaveBeenCalledTimes(1);
    expect(onConfirm).not.toHaveBeenCalled();
    await waitFor(() => expect(screen.queryByText('Leave checkout?')).not.toBeInTheDocument());
  });

  it('closes on a route change, even CREATE_NEW_ACCOUNT', async () => {
    renderHost();
    act(() => modal.open('CREATE_NEW_ACCOUNT'));
    await screen.findByText('Create a new account');
    act(() => navigate('/admin/students'));
    await waitFor(() => expect(screen.queryByText('Create a new account')).not.toBeInTheDocument());
  });
});
