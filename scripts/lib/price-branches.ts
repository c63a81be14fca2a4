// Where code asks a price which type it is: `amount_type` / `amountType` compared with a value or
// switched on. Outside domain/prices/ the registry answers instead (docs/prices.md); `npm run
// structure` counts them and domain/prices/registry.test.ts fails on one.
import ts from 'typescript';

const PRICE_TYPE_NAMES = new Set(['amount_type', 'amountType']);

/** The expression without the casts and brackets around it: `(row.amountType as AmountType)`. */
function unwrapped(node: ts.Node): ts.Node {
  let current = node;
  while (
    ts.isParenthesizedExpression(current) ||
    ts.isAsExpression(current) ||
    ts.isSatisfiesExpression(current) ||
    ts.isNonNullExpression(current) ||
    ts.isTypeAssertionExpression(current)
  ) {
    current = current.expression;
  }
  return current;
}

function isPriceType(node: ts.Node): boolean {
  const inner = unwrapped(node);
  const name = ts.isPropertyAccessExpression(inner)
    ? inner.name.text
    : ts.isIdentifier(inner)
      ? inner.text
      : ts.isElementAccessExpression(inner) && ts.isStringLiteral(inner.argumentExpression)
        ? inner.argumentExpression.text
        : null;
  return name !== null && PRICE_TYPE_NAMES.has(name);
}

const COMPARISONS = new Set([
  ts.SyntaxKind.EqualsEqualsEqualsToken,
  ts.SyntaxKind.ExclamationEqualsEqualsToken,
  ts.SyntaxKind.EqualsEqualsToken,
  ts.SyntaxKind.ExclamationEqualsToken,
]);

/** How many places in the file branch on the price type. */
export function priceTypeBranches(source: ts.SourceFile): number {
  let count = 0;
  const visit = (node: ts.Node) => {
    if (ts.isBinaryExpression(node)) {
      if (COMPARISONS.has(node.operatorToken.kind) && (isPriceType(node.left) || isPriceType(node.right)))
        count += 1;
    } else if (ts.isSwitchStatement(node) && isPriceType(node.expression)) {
      count += 1;
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return count;
}
