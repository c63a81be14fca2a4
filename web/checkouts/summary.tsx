import type { ProductPrice } from '../../domain/products/schemas';
import { priceType } from '../../domain/prices/registry';
import { formatMoney } from '../money/format';
import type { CheckoutPublic } from '../../domain/checkouts/schemas';
import { periodLengthWords } from '../../domain/subscriptions/cadence';
import {
  checkoutCadence,
  checkoutInterval,
  checkoutTrialEnd,
  describeCheckoutPlan,
  MeteredPrices,
  meteredPricesOf,
} from './plan';

/** " / month", " every 3 months". */
function intervalSuffix(checkout: Pick<CheckoutPublic, 'product' | 'product_price'>): string {
  const cadence = checkoutCadence(checkout);
  if (!cadence) return '';
  return cadence.count === 1 ? ` / ${cadence.interval}` : ` every ${periodLengthWords(cadence)}`;
}

/** "Billed monthly", "Billed every 3 months". */
function billedWords(checkout: Pick<CheckoutPublic, 'product' | 'product_price'>): string | null {
  const cadence = checkoutCadence(checkout);
  if (!cadence) return null;
  if (cadence.count > 1) return `Billed every ${periodLengthWords(cadence)}`;
  return { day: 'Billed daily', week: 'Billed weekly', month: 'Billed monthly', year: 'Billed yearly' }[
    cadence.interval
  ];
}

/** A price as the buyer reads it, in its own currency. */
export function describeCheckoutPrice(price: ProductPrice): string {
  return priceType(price.amount_type).words.checkout(price, { money: formatMoney });
}

/** "LAUNCH: 20 % off", and for a plan how long: "the first payment", "for 3 months", "forever". */
function describeDiscount(
  discount: NonNullable<CheckoutPublic['discount']>,
  currency: string,
  isPlan: boolean,
): string {
  const value =
    discount.type === 'percentage'
      ? `${(discount.basis_points ?? 0) / 100} % off`
      : `${formatMoney(discount.amount ?? 0, discount.currency ?? currency)} off`;
  const duration = !isPlan
    ? ''
    : discount.duration === 'repeating' && discount.duration_in_months
      ? ` for ${discount.duration_in_months} months`
      : discount.duration === 'forever'
        ? ' forever'
        : ' the first payment';
  return `${discount.code ?? discount.name}: ${value}${duration}`;
}

/** How the seats bought add up to the subtotal, tier by tier; nothing for a price not sold by the seat. */
function SeatMath({ checkout }: { checkout: CheckoutPublic }) {
  if (checkout.seats == null) return null;
  const lines = priceType(checkout.product_price.amount_type).words.seatMath(
    checkout.product_price,
    checkout.seats,
    { money: formatMoney },
  );
  return (
    <div className="seat-math" data-testid="seat-math">
      <p>{`${checkout.seats} ${checkout.seats === 1 ? 'seat' : 'seats'}`}</p>
      <ul>
        {lines.map((line, index) => (
          // Two tiers can read alike ("2 seats × $0.00 = $0.00"): the position keys them.
          <li key={`${index}:${line}`}>{line}</li>
        ))}
      </ul>
    </div>
  );
}

/** The amounts lines; announced politely as they change while the buyer types. */
export function CheckoutTotals({ checkout, isUpdating }: { checkout: CheckoutPublic; isUpdating: boolean }) {
  const money = (amount: number) => formatMoney(amount, checkout.currency);
  const interval = checkoutInterval(checkout);
  return (
    <div className="checkout-totals" aria-live="polite" aria-busy={isUpdating} data-testid="checkout-totals">
      <SeatMath checkout={checkout} />
      <dl>
        <dt>Subtotal</dt>
        <dd data-testid="subtotal-amount">{money(checkout.amount)}</dd>
        {checkout.discount ? (
          <>
            <dt>Discount ({describeDiscount(checkout.discount, checkout.currency, interval !== null)})</dt>
            <dd data-testid="discount-amount">−{money(checkout.discount_amount)}</dd>
          </>
        ) : null}
        <dt>Taxes</dt>
        <dd data-testid="tax-amount">
          {checkout.tax_amount === null ? (
            <span className="muted">Calculated from your billing address</span>
          ) : (
            money(checkout.tax_amount)
          )}
        </dd>
        {/* A plan's first period is what is charged now (nothing during a free trial); later ones
            follow its interval. */}
        <dt className="total">{interval ? 'Due today' : 'Total'}</dt>
        <dd className="total" data-testid="total-amount">
          {money(checkoutTrialEnd(checkout) ? 0 : checkout.total_amount)}
        </dd>
      </dl>
      {interval ? (
        <>
          {/* What the renewals will charge, not the first period's price for good. */}
          <p className="billing-note" data-testid="billing-note">
            {describeCheckoutPlan(checkout)} until you cancel.
          </p>
          <MeteredPrices
            prices={meteredPricesOf(checkout.product)}
            interval={interval}
            count={checkout.product.recurring_interval_count ?? 1}
            meterInterval={checkout.product.meter_interval}
            meterIntervalCount={checkout.product.meter_interval_count}
          />
        </>
      ) : null}
    </div>
  );
}

export function ProductSummary({ checkout }: { checkout: CheckoutPublic }) {
  const media = checkout.product.medias[0];
  const interval = checkoutInterval(checkout);
  const type = priceType(checkout.product_price.amount_type);
  return (
    <div className="product-summary">
      <p className="muted">{checkout.organization.name}</p>
      {media ? <img src={media.public_url} alt="" className="product-image" /> : null}
      <h1>{checkout.product.name}</h1>
      <p className="product-price">
        {describeCheckoutPrice(checkout.product_price)}
        {type.words.isPerPeriod ? intervalSuffix(checkout) : ''}
        {type.billing === 'in_advance' && meteredPricesOf(checkout.product).length > 0 ? ' plus usage' : ''}
      </p>
      {interval ? (
        <p className="muted" data-testid="billing-interval">
          {billedWords(checkout)}
        </p>
      ) : null}
      {checkout.product.description ? <p>{checkout.product.description}</p> : null}
      {checkout.product.benefits.length > 0 ? (
        <>
          <h2 className="benefits-heading">Included</h2>
          <ul className="benefits">
            {checkout.product.benefits.map((benefit) => (
              <li key={benefit.id}>{benefit.description}</li>
            ))}
          </ul>
        </>
      ) : null}
    </div>
  );
}
