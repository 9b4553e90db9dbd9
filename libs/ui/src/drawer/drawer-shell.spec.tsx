import { render, screen } from '@testing-library/react';
import { DrawerSection, DrawerShell } from './drawer-shell';

describe('DrawerShell', () => {
  it('scrolls its sections in their own box and keeps the footer outside it, so the footer never covers a field', () => {
    render(
      <DrawerShell title="New Course" footer={<button>Create course</button>}>
        <DrawerSection title="Intake">
          <label>
            Last field
            <input />
          </label>
        </DrawerSection>
      </DrawerShell>,
    );
    const lastField = screen.getByLabelText('Last field');
    const scroller = lastField.closest<HTMLElement>('[data-drawer-scroll]')!;
    const footer = screen.getByRole('group', { name: 'Drawer actions' });

    expect(scroller.style.overflowY).toBe('auto');
    expect(scroller.style.minHeight).toBe('0');
    // The footer is a sibling after the scrolling box, not inside it, and is not laid over it.
    expect(scroller.contains(footer)).toBe(false);
    expect(scroller.compareDocumentPosition(footer) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
    expect(footer.style.position).toBe('');
    expect(footer.style.flex).toBe('0 0 auto');
    expect(footer).toContainElement(screen.getByRole('button', { name: 'Create course' }));
    // The shell fills the drawer body, so the scrolling box ends where the footer starts.
    const shell = scroller.parentElement!;
    expect(shell.style.position).toBe('absolute');
    expect(shell.style.inset).toBe('0');
  });

  it('has no footer bar when the drawer has no actions', () => {
    render(<DrawerShell title="Student">body</DrawerShell>);
    expect(screen.queryByRole('group', { name: 'Drawer actions' })).not.toBeInTheDocument();
  });
});
