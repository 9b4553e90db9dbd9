import { MODAL_VIEWS_STICKY, type ModalView } from '@studio/contracts';
import { Button, Modal, Typography, useModal } from '@studio/ui';
import { useCloseOnRouteChange } from './use-close-on-route-change';

const TITLES: Record<ModalView, string> = {
  SIGN_IN: 'Sign in',
  SIGN_UP: 'Sign up',
  CREATE_NEW_ACCOUNT: 'Create a new account',
  SIGN_UP_ORG: 'Sign up your organization',
  FORGOT_PASSWORD: 'Forgot password',
  ADD_REVIEW: 'Add a review',
  LEAVE_CHECKOUT: 'Leave checkout?',
  APPLY_GIFTCARD: 'Apply a gift card',
  REPORT_LISTING: 'Report this listing',
  CANCEL_BOOKING: 'Cancel booking',
  MODIFY_BOOKING: 'Modify booking',
  CONTACT_HOST: 'Contact host',
  SHARE: 'Share',
  SEARCH_MODAL: 'Search',
  QUANTITY_MODAL: 'Quantity',
};

/** The global modal host (spec 001 §2). The views' bodies come later; their state is here now. */
export function ModalHost() {
  const { current, close } = useModal();
  useCloseOnRouteChange(close);
  if (!current) return null;

  const { view, state } = current;
  const dismiss = () => {
    close();
    state.onClose?.();
  };
  const footer =
    state.exitLabels?.confirm || state.exitLabels?.cancel ? (
      <>
        {state.exitLabels.cancel ? (
          <Button
            onClick={() => {
              state.onExit?.();
              dismiss();
            }}
          >
            {state.exitLabels.cancel}
          </Button>
        ) : null}
        {state.exitLabels.confirm ? (
          <Button
            type="primary"
            onClick={() => {
              state.onConfirm?.();
              dismiss();
            }}
          >
            {state.exitLabels.confirm}
          </Button>
        ) : null}
      </>
    ) : null;

  return (
    <Modal
      open
      title={TITLES[view]}
      onCancel={dismiss}
      footer={footer}
      // An outside click must not throw away a half-made account.
      mask={{ closable: !MODAL_VIEWS_STICKY.includes(view) }}
      destroyOnHidden
      rootClassName={`studio-modal-${view.toLowerCase()}`}
    >
      <section aria-label={TITLES[view]} data-view={view}>
        {state.email ? <Typography.Text type="secondary">{state.email}</Typography.Text> : null}
      </section>
    </Modal>
  );
}
