import { Link } from '@tanstack/react-router';
import { orderNumber } from '../../domain/orders/rules';

/** An order's number (`orderNumber`, as the receipt, the invoice and emails write it), linking to its page. */
export function OrderNumberLink({ orderId }: { orderId: string }) {
  return (
    <Link to="/dashboard/orders/$orderId" params={{ orderId }} className="order-number">
      {orderNumber(orderId)}
    </Link>
  );
}
