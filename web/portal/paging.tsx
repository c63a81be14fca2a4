import { z } from 'zod';

/** `?page=2` of a portal list; anything else reads as the first page. */
export const portalPageSearchSchema = z.object({
  page: z.coerce.number().int().min(1).optional().catch(undefined),
});

/** The search that shows `page`: the first page keeps the address bare. */
export const pageSearch = (page: number) => ({ page: page > 1 ? page : undefined });

/**
 * "Previous" and "Next" under a portal list, shown only when there is more than one page (or the
 * buyer is past the last one, e.g. after deleting its only item). At either end the button stays
 * focusable (`aria-disabled`, not `disabled`), so a keyboard user's focus is never dropped; after a
 * move, focus goes to the list (`listId`), which the router has scrolled back into view.
 */
export function PortalPager(props: {
  page: number;
  maxPage: number;
  listId: string;
  onPage: (page: number) => void;
}) {
  const { page } = props;
  const last = Math.max(1, props.maxPage);
  if (last <= 1 && page <= 1) return null;

  function go(next: number) {
    if (next < 1 || next > Math.max(last, page)) return;
    props.onPage(next);
    requestAnimationFrame(() => document.getElementById(props.listId)?.focus());
  }

  const isFirst = page <= 1;
  const isLast = page >= last;
  return (
    <nav className="pager portal-pager" aria-label="Pages" data-testid="portal-pager">
      <button
        type="button"
        className="secondary"
        aria-disabled={isFirst}
        onClick={() => go(page > last ? last : page - 1)}
      >
        Previous
      </button>
      <span aria-live="polite">
        Page {page} of {last}
      </span>
      <button type="button" className="secondary" aria-disabled={isLast} onClick={() => go(page + 1)}>
        Next
      </button>
    </nav>
  );
}
