// "Workflow: <id>" on an entity's page, linking to the workflow in the Temporal UI when the
// deployment names one (TEMPORAL_UI_URL); operators go there to see what it waits for.
import { useQuery } from '@tanstack/react-query';
import { Truncated } from '../components';
import { settingsQuery } from './queries';
import { temporalWorkflowUrl } from './temporal-ui';
import './workflow-link.css';

/** `inTable`: a column headed "Workflow" holds a short head of the id, not the label and all of it. */
export function WorkflowLink({ workflowId, inTable = false }: { workflowId: string; inTable?: boolean }) {
  const settings = useQuery(settingsQuery);
  const uiUrl = settings.data?.temporal_ui_url;
  return (
    <span className={inTable ? 'workflow-link in-table' : 'workflow-link'} data-testid="workflow-link">
      {inTable ? null : <span className="muted">Workflow: </span>}
      {uiUrl && settings.data ? (
        <a
          href={temporalWorkflowUrl(uiUrl, settings.data.temporal_namespace, workflowId)}
          target="_blank"
          rel="noreferrer"
        >
          <Truncated text={workflowId} />
        </a>
      ) : (
        <Truncated text={workflowId} />
      )}
    </span>
  );
}
