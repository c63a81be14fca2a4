import { useEffect, type ReactNode } from 'react';

/**
 * A dashboard page's one H1, naming the page ("Orders", "Order 3F2A91C0"), and the browser tab's
 * title with it. `children` sit beside the heading (a page's main action).
 */
export function PageTitle({ title, children }: { title: string; children?: ReactNode }) {
  useEffect(() => {
    const before = document.title;
    document.title = `${title} · Tollgate`;
    return () => {
      document.title = before;
    };
  }, [title]);
  return (
    <div className="page-title">
      <h1 className="shell-title">{title}</h1>
      {children}
    </div>
  );
}
