import { Link, useRouterState } from '@tanstack/react-router';
import { useEffect, useRef, useState, type ReactNode } from 'react';
import { OrganizationSwitcher } from '../organizations/switcher';
import { AccountMenu } from './account-menu';
import { GlobalSearch } from './global-search';
import { ModeBadge } from './mode-badge';
import { DashboardNavigation } from './navigation';
import './shell.css';

const SIDEBAR_ID = 'dashboard-sidebar';

const FOCUSABLE = 'a[href], button:not([disabled]), select:not([disabled]), input:not([disabled])';

/**
 * The seller dashboard's frame: a top bar (search, test or live, the menu button on narrow
 * screens) over a sidebar (organization, navigation, account) beside the page. Below 48rem the
 * sidebar folds behind "Menu": opening it moves the focus into it, Escape and following a link
 * close it, and the focus returns to the button.
 */
export function DashboardShell(props: {
  organizationId: string | null;
  user: { email: string; role?: string | null };
  children: ReactNode;
}) {
  const [isMenuOpen, setMenuOpen] = useState(false);
  const menuButton = useRef<HTMLButtonElement>(null);
  const sidebar = useRef<HTMLDivElement>(null);
  const pathname = useRouterState({ select: (state) => state.location.pathname });

  useEffect(() => setMenuOpen(false), [pathname]);

  useEffect(() => {
    if (!isMenuOpen) return;
    sidebar.current?.querySelector<HTMLElement>(FOCUSABLE)?.focus();
    function onKeyDown(event: globalThis.KeyboardEvent) {
      if (event.key !== 'Escape') return;
      setMenuOpen(false);
      menuButton.current?.focus();
    }
    document.addEventListener('keydown', onKeyDown);
    return () => document.removeEventListener('keydown', onKeyDown);
  }, [isMenuOpen]);

  return (
    <div className="shell" data-menu-open={isMenuOpen ? '' : undefined}>
      <header className="shell-topbar">
        <button
          ref={menuButton}
          type="button"
          className="shell-menu-button secondary"
          aria-expanded={isMenuOpen}
          aria-controls={SIDEBAR_ID}
          onClick={() => setMenuOpen((open) => !open)}
        >
          Menu
        </button>
        <Link to="/dashboard" className="brand">
          Tollgate
        </Link>
        <GlobalSearch organizationId={props.organizationId} />
        <ModeBadge />
      </header>
      <div ref={sidebar} id={SIDEBAR_ID} className="shell-sidebar">
        <OrganizationSwitcher />
        {/* Without an active organization every page would only say to choose one. */}
        {props.organizationId ? <DashboardNavigation /> : null}
        <AccountMenu email={props.user.email} role={props.user.role} />
      </div>
      <main className="shell-main">{props.children}</main>
    </div>
  );
}
