import { useState } from 'react';
import type { CheckoutLink } from '../../../../../domain/checkout-links/schemas';

/** A link's label, or the products it sells when it has none. */
export const linkName = (link: CheckoutLink) =>
  link.label ?? link.products.map((product) => product.name).join(', ');

export function CopyUrl({ url }: { url: string }) {
  const [copied, setCopied] = useState(false);
  return (
    <button
      type="button"
      className="secondary"
      onClick={() => void navigator.clipboard.writeText(url).then(() => setCopied(true))}
    >
      {copied ? 'Copied' : 'Copy URL'}
    </button>
  );
}
