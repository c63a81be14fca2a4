import { Link } from '@tanstack/react-router';

/** An order's number (the head of its id, as the receipt prints it), linking to the order's page. */
export function OrderNumberLink({ orderId }: { orderId: string }) {
  return (
    <Link to="/dashboard/orders/$orderId" params={{ orderId }}>
      {orderId.slice(0, 8)}
    </Link>
  );
}
