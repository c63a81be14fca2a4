// The next renewal's order, estimated by the API (GET …/upcoming-invoice): its lines and totals as
// the renewal will write them, for the seller's subscription page and the buyer's usage page.
import type {
  UpcomingInvoice,
  UpcomingInvoiceLine,
  UpcomingInvoiceMeter,
} from '../../domain/subscriptions/schemas';
import { formatMoney } from '../money/format';
import { formatDate } from '../components';
import { formatUnits } from '../portal/format';
import { describeMeteredCharge, describeUpcomingCharge } from './usage-format';
import './upcoming-invoice.css';

const signedMoney = (amount: number, currency: string) =>
  amount < 0 ? `−${formatMoney(-amount, currency)}` : formatMoney(amount, currency);

export const formatPeriod = (start: string | null, end: string | null) =>
  `${formatDate(start)} – ${formatDate(end)}`;

/** How a line came about: the period a fee pays for, or how a metered line was counted. */
function lineDetail(line: UpcomingInvoiceLine, currency: string): string | null {
  if (line.meter) return describeMeteredCharge(line.meter, currency);
  if (line.type === 'fixed') return formatPeriod(line.period_start, line.period_end);
  return null;
}

/** The estimate's lines and totals; what an ended plan (or one that bills nothing) says instead. */
export function UpcomingInvoiceDetails({ invoice }: { invoice: UpcomingInvoice }) {
  const money = (amount: number) => signedMoney(amount, invoice.currency);
  if (invoice.billed_at === null) {
    return (
      <p data-testid="upcoming-invoice-summary">
        {invoice.ends_subscription
          ? `Nothing is left to bill: the subscription ends on ${formatDate(invoice.period_end)}.`
          : 'Nothing more will be billed.'}
      </p>
    );
  }
  return (
    <div className="upcoming-invoice" data-testid="upcoming-invoice">
      <p>
        Next invoice:{' '}
        <strong data-testid="upcoming-invoice-summary">
          {describeUpcomingCharge(invoice, formatDate(invoice.billed_at))}
        </strong>
      </p>
      <table className="upcoming-invoice-lines">
        <caption className="visually-hidden">The lines of the next invoice</caption>
        <thead>
          <tr>
            <th scope="col">Line</th>
            <th scope="col">Amount</th>
          </tr>
        </thead>
        <tbody>
          {invoice.lines.map((line, index) => {
            const detail = lineDetail(line, invoice.currency);
            return (
              <tr key={index} data-testid="upcoming-invoice-line" data-type={line.type}>
                <td>
                  <span className="upcoming-invoice-label">{line.label}</span>
                  {detail ? <span className="upcoming-invoice-detail muted">{detail}</span> : null}
                </td>
                <td data-testid="upcoming-invoice-line-amount">{money(line.amount)}</td>
              </tr>
            );
          })}
        </tbody>
        <tfoot>
          <tr>
            <th scope="row">Subtotal</th>
            <td data-testid="upcoming-invoice-subtotal">{money(invoice.subtotal_amount)}</td>
          </tr>
          {invoice.discount_amount > 0 ? (
            <tr>
              <th scope="row">Discount</th>
              <td data-testid="upcoming-invoice-discount">{money(-invoice.discount_amount)}</td>
            </tr>
          ) : null}
          <tr>
            <th scope="row">Tax</th>
            <td data-testid="upcoming-invoice-tax">{money(invoice.tax_amount)}</td>
          </tr>
          <tr className="upcoming-invoice-total">
            <th scope="row">Total</th>
            <td data-testid="upcoming-invoice-total">{money(invoice.total_amount)}</td>
          </tr>
        </tfoot>
      </table>
      <p className="muted">
        An estimate from the usage so far: usage until {formatDate(invoice.period_end)} is added to it.
        {invoice.carried_credit_amount > 0
          ? ` ${money(invoice.carried_credit_amount)} of credit is left for the invoice after it.`
          : ''}
      </p>
    </div>
  );
}

/** One metered price's period so far: what was used, credited, and what it bills. */
export function MeterUsageFacts({ meter, currency }: { meter: UpcomingInvoiceMeter; currency: string }) {
  return (
    <dl className="upcoming-invoice-facts">
      <dt>Used</dt>
      <dd data-testid="meter-consumed">{formatUnits(meter.consumed_units)}</dd>
      <dt>Credits</dt>
      <dd data-testid="meter-credited">{formatUnits(meter.credited_units)}</dd>
      <dt>Amount so far</dt>
      <dd data-testid="meter-amount">
        {formatMoney(meter.amount, currency)}
        <span className="muted"> ({describeMeteredCharge(meter, currency)})</span>
      </dd>
    </dl>
  );
}
