import type { Checkout } from '../../domain/checkouts/schemas';
import { formatMoney } from '../money/format';
import { Truncated } from '../components';
import type { Column } from '../resources/resource-page';

/** The buyer and the total of a checkout, as the checkouts list and a link's latest checkouts show them. */
export const CHECKOUT_BUYER_COLUMNS: Column<Checkout>[] = [
  {
    header: 'Customer',
    cell: (checkout) => (checkout.customer_email ? <Truncated text={checkout.customer_email} /> : '—'),
  },
  {
    header: 'Amount',
    className: 'nowrap',
    cell: (checkout) => formatMoney(checkout.total_amount, checkout.currency),
  },
];
