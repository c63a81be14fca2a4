// The hosted checkout's fields that depend on the price: which of the checkout's products to buy
// (each with its price, in the buyer's words) and the amount a pay-what-you-want price asks for.
import type { CheckoutPublic } from '../../domain/checkouts/schemas';
import { priceType } from '../../domain/prices/registry';
import type { AmountBounds, SeatRange } from '../../domain/prices/strategy';
import { FormField } from '../forms/form-field';
import { minorUnitDigits } from '../../domain/money/rules';
import { formatMoney } from '../money/format';
import { describeCheckoutPrice } from './summary';

export function ProductChoice(props: {
  checkout: Pick<CheckoutPublic, 'products' | 'product_id'>;
  disabled: boolean;
  onChoose: (productId: string) => void;
}) {
  return (
    <fieldset className="product-choice" disabled={props.disabled}>
      <legend>Product</legend>
      {props.checkout.products.map((product) => {
        const price = product.prices[0];
        return (
          <label key={product.id} className="checkbox">
            <input
              type="radio"
              name="product"
              value={product.id}
              checked={product.id === props.checkout.product_id}
              onChange={() => props.onChoose(product.id)}
            />
            {product.name}
            {price ? (
              <span className="muted">
                {' '}
                · {describeCheckoutPrice(price)}
                {priceType(price.amount_type).words.isPerPeriod && product.recurring_interval
                  ? ` / ${product.recurring_interval}`
                  : ''}
              </span>
            ) : null}
          </label>
        );
      })}
    </fieldset>
  );
}

/** The amount the buyer chooses, typed in major units within the price's bounds. */
export function BuyerAmountField(props: {
  currency: string;
  bounds: AmountBounds;
  value: string;
  error: string | undefined;
  onChange: (amount: string) => void;
}) {
  const { currency, bounds } = props;
  return (
    <FormField
      label={`Amount (${currency.toUpperCase()})`}
      field="amount"
      required
      error={props.error}
      hint={[
        bounds.minimum === null ? null : `Minimum ${formatMoney(bounds.minimum, currency)}`,
        bounds.maximum === null ? null : `maximum ${formatMoney(bounds.maximum, currency)}`,
      ]
        .filter(Boolean)
        .join(', ')}
    >
      {(control) => (
        <input
          {...control}
          inputMode={minorUnitDigits(currency) > 0 ? 'decimal' : 'numeric'}
          value={props.value}
          onChange={(event) => props.onChange(event.target.value)}
        />
      )}
    </FormField>
  );
}

/** The seats the buyer buys (seat-based prices), a whole number within the range shown. */
export function SeatsField(props: {
  range: SeatRange;
  value: string;
  error: string | undefined;
  onChange: (seats: string) => void;
}) {
  return (
    <FormField
      label="Seats"
      field="seats"
      required
      error={props.error}
      hint={
        props.range.maximum === null
          ? `At least ${props.range.minimum}`
          : `${props.range.minimum} to ${props.range.maximum}`
      }
    >
      {(control) => (
        <input
          {...control}
          type="number"
          inputMode="numeric"
          min={props.range.minimum}
          {...(props.range.maximum === null ? {} : { max: props.range.maximum })}
          step={1}
          value={props.value}
          onChange={(event) => props.onChange(event.target.value)}
        />
      )}
    </FormField>
  );
}
