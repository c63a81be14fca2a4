/** The Temporal UI's page of one workflow; ids hold `:` and whatever the entity id holds. */
export function temporalWorkflowUrl(uiUrl: string, namespace: string, workflowId: string): string {
  const base = uiUrl.replace(/\/+$/, '');
  return `${base}/namespaces/${encodeURIComponent(namespace)}/workflows/${encodeURIComponent(workflowId)}`;
}
