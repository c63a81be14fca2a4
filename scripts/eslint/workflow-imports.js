// Workflow code is replayed deterministically inside Temporal's sandbox, so it may only import
// the workflow SDK, pure domain files, sibling workflow files, and activity *types*.
// See DESIGN.md ("Workflows stay deterministic and small").

const PURE_DOMAIN_FILE = /^\.\.\/domain\/[a-z0-9-]+\/(schemas|rules)\.js$/;
const SIBLING_WORKFLOW_FILE = /^\.\/[a-z0-9-]+\.js$/;
const ACTIVITY_FILE = /^\.\.\/activities\/[a-z0-9-/]+\.js$/;

/** @type {import('eslint').Rule.RuleModule} */
export const workflowImportsRule = {
  meta: {
    type: 'problem',
    docs: { description: 'Restrict workflow imports to deterministic modules' },
    messages: {
      forbidden:
        "Workflows may import only '@temporalio/workflow', domain schemas.ts/rules.ts, sibling workflows and activity types; '{{source}}' is not allowed.",
      typeOnly:
        "Activities may be imported into workflows as types only: use 'import type' for '{{source}}'.",
    },
    schema: [],
  },
  create(context) {
    function check(node, source, isTypeOnly) {
      if (source === '@temporalio/workflow' || source.startsWith('@temporalio/workflow/')) return;
      if (PURE_DOMAIN_FILE.test(source) || SIBLING_WORKFLOW_FILE.test(source)) return;
      if (ACTIVITY_FILE.test(source)) {
        if (!isTypeOnly) context.report({ node, messageId: 'typeOnly', data: { source } });
        return;
      }
      context.report({ node, messageId: 'forbidden', data: { source } });
    }
    return {
      ImportDeclaration(node) {
        const allSpecifiersAreTypes =
          node.specifiers.length > 0 && node.specifiers.every((s) => s.importKind === 'type');
        check(node, String(node.source.value), node.importKind === 'type' || allSpecifiersAreTypes);
      },
      ExportNamedDeclaration(node) {
        if (node.source) check(node, String(node.source.value), node.exportKind === 'type');
      },
      ExportAllDeclaration(node) {
        check(node, String(node.source.value), node.exportKind === 'type');
      },
      ImportExpression(node) {
        context.report({ node, messageId: 'forbidden', data: { source: 'dynamic import()' } });
      },
    };
  },
};
