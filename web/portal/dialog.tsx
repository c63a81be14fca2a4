import { useEffect, useId, useRef, type KeyboardEvent, type ReactNode } from 'react';

const FOCUSABLE =
  'a[href], button:not([disabled]), input:not([disabled]), select:not([disabled]), textarea:not([disabled]), [tabindex]:not([tabindex="-1"])';

/**
 * A modal dialog on the native `<dialog>`: `showModal()` makes the rest of the page inert, Escape
 * closes it, and Tab wraps from its last control to its first (instead of leaving for the browser's
 * own controls). On closing, focus goes back to what opened it when that is still on the page.
 * Its content mounts on each opening, so a form inside starts afresh.
 */
export function PortalDialog(props: {
  open: boolean;
  onClose: () => void;
  title: string;
  testId?: string;
  children: ReactNode;
}) {
  const ref = useRef<HTMLDialogElement>(null);
  const opener = useRef<HTMLElement | null>(null);
  const titleId = useId();
  const { open } = props;

  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (open && !dialog.open) {
      opener.current = document.activeElement instanceof HTMLElement ? document.activeElement : null;
      dialog.showModal();
    }
    if (!open && dialog.open) dialog.close();
  }, [open]);

  function onClose() {
    const previous = opener.current;
    opener.current = null;
    if (previous?.isConnected) previous.focus();
    props.onClose();
  }

  function onKeyDown(event: KeyboardEvent<HTMLDialogElement>) {
    if (event.key !== 'Tab' || !ref.current) return;
    const controls = [...ref.current.querySelectorAll<HTMLElement>(FOCUSABLE)];
    const first = controls[0];
    const last = controls.at(-1);
    if (!first || !last) return;
    const active = document.activeElement;
    // A radio group is one stop: Shift+Tab from any of its radios leaves the group.
    const isAtFirstStop =
      active === first ||
      (first instanceof HTMLInputElement &&
        first.type === 'radio' &&
        active instanceof HTMLInputElement &&
        active.type === 'radio' &&
        active.name === first.name);
    if (event.shiftKey && isAtFirstStop) {
      event.preventDefault();
      last.focus();
    } else if (!event.shiftKey && active === last) {
      event.preventDefault();
      first.focus();
    }
  }

  return (
    <dialog
      ref={ref}
      className="dialog portal-dialog"
      aria-labelledby={titleId}
      data-testid={props.testId}
      onClose={onClose}
      onKeyDown={onKeyDown}
    >
      <h2 id={titleId}>{props.title}</h2>
      {open ? props.children : null}
    </dialog>
  );
}
