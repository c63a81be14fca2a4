import { useQuery } from '@tanstack/react-query';
import { useNavigate, type LinkOptions } from '@tanstack/react-router';
import { useEffect, useId, useRef, useState, type KeyboardEvent } from 'react';
import type { SearchResults } from '../../domain/search/schemas';
import { formatMoney } from '../money/format';
import { searchQuery } from './queries';
import { orderNumber } from '../../domain/orders/rules';

/** Typing pauses this long before the search runs: one request per word, not per key. */
const TYPING_PAUSE_MS = 200;

type Result = {
  key: string;
  label: string;
  detail: string;
  link: Pick<LinkOptions, 'to' | 'params'>;
};

type Group = { title: string; results: Result[] };

/** The answer as the list shows it: customers, orders, products, each opening its page. */
function groupsOf(answer: SearchResults): Group[] {
  return [
    {
      title: 'Customers',
      results: answer.customers.map((customer): Result => ({
        key: `customer-${customer.id}`,
        label: customer.email,
        detail: customer.name ?? '',
        link: { to: '/dashboard/customers/$customerId', params: { customerId: customer.id } },
      })),
    },
    {
      title: 'Orders',
      results: answer.orders.map((order): Result => ({
        key: `order-${order.id}`,
        label: `Order ${orderNumber(order.id)}`,
        detail: `${order.customer_email} · ${order.product_name} · ${formatMoney(order.total_amount, order.currency)}`,
        link: { to: '/dashboard/orders/$orderId', params: { orderId: order.id } },
      })),
    },
    {
      title: 'Products',
      // No page of its own: the catalog lists it.
      results: answer.products.map((product): Result => ({
        key: `product-${product.id}`,
        label: product.name,
        detail: product.is_archived ? 'Archived' : '',
        link: { to: '/dashboard/products' },
      })),
    },
  ].filter((group) => group.results.length > 0);
}

function useSettled(value: string): string {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(value), TYPING_PAUSE_MS);
    return () => clearTimeout(timer);
  }, [value]);
  return settled;
}

/**
 * The top bar's search over the active organization's customers, orders and products (a combobox:
 * arrows move through the results, Enter opens one, Escape closes the list, then clears the text).
 */
export function GlobalSearch({ organizationId }: { organizationId: string | null }) {
  const id = useId();
  const listId = `${id}-results`;
  const navigate = useNavigate();
  const input = useRef<HTMLInputElement>(null);
  const [text, setText] = useState('');
  const [isOpen, setOpen] = useState(false);
  const [activeIndex, setActiveIndex] = useState(-1);
  const term = useSettled(text.trim());
  const search = useQuery({
    ...searchQuery(organizationId ?? '', term),
    enabled: organizationId !== null && term.length > 0,
  });
  const groups = search.data && term.length > 0 ? groupsOf(search.data) : [];
  const results = groups.flatMap((group) => group.results);
  const optionId = (result: Result) => `${id}-${result.key}`;
  const active = activeIndex >= 0 ? results[activeIndex] : undefined;
  const isWaiting = text.trim() !== term || search.isFetching;
  const showList = isOpen && text.trim().length > 0;

  // New results start unselected: Enter on a stale choice would open the wrong page.
  useEffect(() => setActiveIndex(-1), [term, search.data]);
  const activeId = showList && active ? optionId(active) : undefined;
  useEffect(() => {
    if (activeId) document.getElementById(activeId)?.scrollIntoView({ block: 'nearest' });
  }, [activeId]);

  function open(result: Result) {
    setOpen(false);
    setText('');
    input.current?.blur();
    void navigate(result.link);
  }

  function onKeyDown(event: KeyboardEvent<HTMLInputElement>) {
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      event.preventDefault();
      setOpen(true);
      if (results.length === 0) return;
      const down = event.key === 'ArrowDown';
      setActiveIndex((index) => {
        if (down) return index + 1 >= results.length ? 0 : index + 1;
        return index <= 0 ? results.length - 1 : index - 1;
      });
    } else if (event.key === 'Enter') {
      const chosen = active ?? (results.length === 1 ? results[0] : undefined);
      if (chosen) {
        event.preventDefault();
        open(chosen);
      }
    } else if (event.key === 'Escape') {
      // The first Escape only closes the list (the browser would also empty a search field).
      if (showList) {
        event.preventDefault();
        setOpen(false);
      } else setText('');
    }
  }

  return (
    <div className="global-search" role="search">
      <input
        ref={input}
        type="search"
        role="combobox"
        aria-label="Search customers, orders and products"
        aria-autocomplete="list"
        aria-expanded={showList}
        aria-controls={listId}
        aria-activedescendant={activeId}
        placeholder={
          organizationId ? 'Search customers, orders, products…' : 'Choose an organization to search'
        }
        disabled={organizationId === null}
        autoComplete="off"
        value={text}
        onChange={(event) => {
          setText(event.target.value);
          setOpen(true);
        }}
        onFocus={() => setOpen(true)}
        onBlur={() => setOpen(false)}
        onKeyDown={onKeyDown}
      />
      <div className="global-search-popup" hidden={!showList}>
        <p className="global-search-status muted" role="status">
          {!showList
            ? ''
            : search.isError
              ? search.error.message
              : isWaiting && results.length === 0
                ? 'Searching…'
                : results.length === 0
                  ? `Nothing matches “${text.trim()}”.`
                  : ''}
        </p>
        <div id={listId} role="listbox" aria-label="Search results">
          {groups.map((group) => (
            <div key={group.title} role="group" aria-labelledby={`${id}-${group.title}`}>
              <div id={`${id}-${group.title}`} className="global-search-group" role="presentation">
                {group.title}
              </div>
              {group.results.map((result) => (
                <div
                  key={result.key}
                  id={optionId(result)}
                  role="option"
                  aria-selected={result === active}
                  className="global-search-option"
                  // Keeps the focus in the field, which would otherwise close the list before the click.
                  onMouseDown={(event) => event.preventDefault()}
                  onClick={() => open(result)}
                >
                  <span className="global-search-label">{result.label}</span>
                  {result.detail ? <span className="global-search-detail">{result.detail}</span> : null}
                </div>
              ))}
            </div>
          ))}
        </div>
      </div>
    </div>
  );
}
