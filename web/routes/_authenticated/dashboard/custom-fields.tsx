import { useQuery } from '@tanstack/react-query';
import { createFileRoute } from '@tanstack/react-router';
import { useState } from 'react';
import type { CustomField } from '../../../../domain/custom-fields/schemas';
import { customFieldsQuery } from '../../../catalog/queries';
import { Truncated } from '../../../components';
import { prefetch } from '../../../loaders';
import { ManagersOnly, managersOnlyActions } from '../../../organizations/managers-only';
import { useCanManageActiveOrganization } from '../../../organizations/roles';
import { DeleteButton, ResourceCard, ResourceTable, useEditor } from '../../../resources/resource-page';
import { CUSTOM_FIELD_TYPE_LABELS, CustomFieldForm } from './-components/custom-field-form';
import { PageTitle } from '../../../shell/page-title';

export const Route = createFileRoute('/_authenticated/dashboard/custom-fields')({
  loader: ({ context: { queryClient, organizationId } }) => {
    if (organizationId) prefetch(queryClient, customFieldsQuery(organizationId));
  },
  component: CustomFieldsPage,
});

function CustomFieldsPage() {
  return (
    <>
      <PageTitle title="Custom fields" />
      <CustomFieldsPageContent />
    </>
  );
}

function CustomFieldsPageContent() {
  const { organizationId } = Route.useRouteContext();
  if (!organizationId) return <p>Choose an organization to see its custom fields.</p>;
  return <CustomFields organizationId={organizationId} />;
}

function CustomFields({ organizationId }: { organizationId: string }) {
  const canManage = useCanManageActiveOrganization(Route.useRouteContext().session.user.id);
  const editor = useEditor<CustomField>();
  const [error, setError] = useState<string | null>(null);
  const fields = useQuery(customFieldsQuery(organizationId));
  const rowActions = managersOnlyActions<CustomField>({
    canManage,
    header: 'Actions',
    onEdit: editor.edit,
    more: (field) => (
      <DeleteButton
        label={`Delete ${field.name}`}
        question="Delete this field?"
        path={`/v1/custom-fields/${field.id}`}
        listKey={['custom-fields', organizationId]}
        onError={setError}
        onDeleted={() => setError(null)}
      />
    ),
  });
  return (
    <>
      <ManagersOnly
        canManage={canManage}
        title="Create a custom field"
        action="create, edit or delete custom fields"
      >
        <CustomFieldForm
          key={editor.formKey}
          organizationId={organizationId}
          field={editor.editing}
          onDone={editor.onDone}
        />
      </ManagersOnly>
      <ResourceCard
        title="Custom fields"
        error={fields.error?.message ?? error}
        items={fields.data?.items}
        empty="No custom fields yet."
      >
        <ResourceTable
          items={fields.data?.items}
          rowTestId="custom-field-row"
          columns={[
            { header: 'Name', cell: (field) => <Truncated text={field.name} /> },
            {
              header: 'Slug',
              cell: (field) => (
                <Truncated text={field.slug}>
                  <code>{field.slug}</code>
                </Truncated>
              ),
            },
            {
              header: 'Type',
              cell: (field) => (
                <Truncated
                  text={`${CUSTOM_FIELD_TYPE_LABELS[field.type]}${
                    field.type === 'select'
                      ? ` (${field.properties.options.map((option) => option.label).join(', ')})`
                      : ''
                  }`}
                />
              ),
            },
            ...rowActions,
          ]}
        />
      </ResourceCard>
    </>
  );
}
