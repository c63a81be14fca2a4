import type { ProrationPreview } from '../../domain/subscriptions/schemas';

const WORDS = {
  buyer: { gained: 'You gain', lost: 'You lose', same: 'Your benefits stay the same.' },
  seller: {
    gained: 'The customer gains',
    lost: 'The customer loses',
    same: 'The customer keeps the same benefits.',
  },
} as const;

/**
 * Next to the money of a plan change's preview: the benefits the new plan adds and those the
 * current one gives that the new one does not, in the words of who reads it.
 */
export function BenefitChanges({
  preview,
  reader,
}: {
  preview: ProrationPreview;
  reader: 'buyer' | 'seller';
}) {
  const words = WORDS[reader];
  const groups = [
    { key: 'gained', label: words.gained, benefits: preview.benefits_gained },
    { key: 'lost', label: words.lost, benefits: preview.benefits_lost },
  ].filter((group) => group.benefits.length > 0);
  if (groups.length === 0) {
    return (
      <p className="muted" data-testid="benefit-changes">
        {words.same}
      </p>
    );
  }
  return (
    <div className="benefit-changes" data-testid="benefit-changes">
      {groups.map((group) => (
        <div key={group.key} data-testid={`benefits-${group.key}`}>
          <p className="benefit-changes-label">{group.label}</p>
          <ul className="plain-list" aria-label={group.label}>
            {group.benefits.map((benefit) => (
              <li key={benefit.id} className="wrap">
                {benefit.description}
              </li>
            ))}
          </ul>
        </div>
      ))}
    </div>
  );
}
