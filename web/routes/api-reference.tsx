import { queryOptions, useQuery } from '@tanstack/react-query';
import { createFileRoute } from '@tanstack/react-router';
import { useState } from 'react';
import { z } from 'zod';
import { API_VERSIONS, CURRENT_API_VERSION, type ApiVersion } from '../../domain/platform/api-versions';
import { getJson } from '../api';
import { ErrorNote } from '../components';
import { prefetch } from '../loaders';

export const Route = createFileRoute('/api-reference')({
  loader: ({ context }) => prefetch(context.queryClient, openApiQuery('unversioned')),
  component: ApiReferencePage,
});

type JsonSchema = Record<string, unknown>;

const operationSchema = z.object({
  operationId: z.string(),
  summary: z.string(),
  /** Said of operations that are Tollgate's own, not Polar's. */
  'x-tollgate': z.string().optional(),
  tags: z.array(z.string()),
  parameters: z
    .array(
      z.object({
        name: z.string(),
        in: z.string(),
        required: z.boolean(),
        schema: z.record(z.string(), z.unknown()),
      }),
    )
    .default([]),
  requestBody: z
    .object({
      // JSON mostly; the OAuth token, revoke and introspect endpoints take a form (RFC 6749).
      content: z.record(z.string(), z.object({ schema: z.record(z.string(), z.unknown()) })),
    })
    .optional(),
  responses: z.record(
    z.string(),
    z.object({
      description: z.string(),
      // JSON mostly; an export answers text/csv.
      content: z.record(z.string(), z.object({ schema: z.record(z.string(), z.unknown()) })).optional(),
    }),
  ),
});

const documentSchema = z.object({
  info: z.object({ title: z.string(), version: z.string(), description: z.string().optional() }),
  paths: z.record(z.string(), z.record(z.string(), operationSchema)),
});

type Operation = z.infer<typeof operationSchema> & { method: string; path: string };

/** The unversioned API (what the SDKs without a version read), or one of Polar's dated versions. */
type DocumentVersion = ApiVersion | 'unversioned';

const documentUrl = (version: DocumentVersion) =>
  version === 'unversioned' ? '/v1/openapi.json' : `/${version}/openapi.json`;

const openApiQuery = (version: DocumentVersion) =>
  queryOptions({
    queryKey: ['openapi', version],
    queryFn: () => getJson(documentUrl(version), documentSchema),
  });

/** A schema's type in a word or two: enough to read a field list without a schema viewer. */
function typeOf(schema: JsonSchema | boolean | undefined): string {
  // JSON Schema allows `true`/`false` as schemas (zod writes `items: false` for tuples).
  if (typeof schema !== 'object' || schema === null) return 'any';
  if (Array.isArray(schema.prefixItems)) {
    return `[${(schema.prefixItems as JsonSchema[]).map(typeOf).join(', ')}]`;
  }
  if (Array.isArray(schema.enum)) return schema.enum.map((value) => JSON.stringify(value)).join(' | ');
  if ('const' in schema) return JSON.stringify(schema.const);
  const variants = (schema.anyOf ?? schema.oneOf) as JsonSchema[] | undefined;
  if (variants) return variants.map(typeOf).join(' | ');
  if (schema.type === 'array') return `${typeOf(schema.items as JsonSchema | undefined)}[]`;
  if (Array.isArray(schema.type)) return schema.type.join(' | ');
  if (typeof schema.format === 'string') return `${String(schema.type)} (${schema.format})`;
  return typeof schema.type === 'string' ? schema.type : 'any';
}

function Fields({ schema }: { schema: JsonSchema }) {
  const variants = (schema.oneOf ?? schema.anyOf) as JsonSchema[] | undefined;
  if (variants && variants.every((variant) => variant.type === 'object')) {
    return (
      <>
        {variants.map((variant, index) => (
          <div key={index} className="schema-variant">
            <p className="muted">One of:</p>
            <Fields schema={variant} />
          </div>
        ))}
      </>
    );
  }
  const properties = (schema.properties ?? {}) as Record<string, JsonSchema>;
  const required = new Set((schema.required ?? []) as string[]);
  if (Object.keys(properties).length === 0) return <code>{typeOf(schema)}</code>;
  return (
    <table className="schema-table">
      <tbody>
        {Object.entries(properties).map(([name, property]) => (
          <tr key={name}>
            <td>
              <code>{name}</code>
              {required.has(name) ? <span className="required"> required</span> : null}
            </td>
            <td>
              <code>{typeOf(property)}</code>
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

function ResponseBody({ content }: { content: Operation['responses'][string]['content'] }) {
  const json = content?.['application/json'];
  if (json) return <Fields schema={json.schema} />;
  const other = Object.keys(content ?? {})[0];
  return other ? (
    <p>
      A <code>{other}</code> body.
    </p>
  ) : (
    <p>No body.</p>
  );
}

function OperationCard({ operation }: { operation: Operation }) {
  const [open, setOpen] = useState(false);
  const success = Object.entries(operation.responses).find(([status]) => status.startsWith('2'));
  return (
    <li className="operation" data-operation={operation.operationId}>
      <button type="button" className="operation-summary" aria-expanded={open} onClick={() => setOpen(!open)}>
        <span className={`method method-${operation.method}`}>{operation.method.toUpperCase()}</span>
        <code>{operation.path}</code>
        <span>{operation.summary}</span>
      </button>
      {open ? (
        <div className="operation-details">
          <p>
            Operation <code>{operation.operationId}</code>
          </p>
          {operation['x-tollgate'] ? <p className="muted">{operation['x-tollgate']}</p> : null}
          {operation.parameters.length > 0 ? (
            <>
              <h4>Parameters</h4>
              <table className="schema-table">
                <tbody>
                  {operation.parameters.map((parameter) => (
                    <tr key={`${parameter.in}:${parameter.name}`}>
                      <td>
                        <code>{parameter.name}</code> <span className="muted">({parameter.in})</span>
                        {parameter.required ? <span className="required"> required</span> : null}
                      </td>
                      <td>
                        <code>{typeOf(parameter.schema)}</code>
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </>
          ) : null}
          {operation.requestBody ? (
            <>
              <h4>Request body</h4>
              {Object.entries(operation.requestBody.content).map(([mediaType, body]) => (
                <div key={mediaType}>
                  {mediaType === 'application/json' ? null : <p className="muted">A {mediaType} body.</p>}
                  <Fields schema={body.schema} />
                </div>
              ))}
            </>
          ) : null}
          {success ? (
            <>
              <h4>Response {success[0]}</h4>
              <ResponseBody content={success[1].content} />
            </>
          ) : null}
          <p className="muted">
            Errors:{' '}
            {Object.keys(operation.responses)
              .filter((status) => !status.startsWith('2'))
              .join(', ')}
          </p>
        </div>
      ) : null}
    </li>
  );
}

function ApiReferencePage() {
  const [version, setVersion] = useState<DocumentVersion>('unversioned');
  const document = useQuery(openApiQuery(version));
  const versionSwitch = (
    <label className="field api-version-switch">
      API version
      <select value={version} onChange={(event) => setVersion(event.target.value as DocumentVersion)}>
        <option value="unversioned">No Polar-Version header (every field)</option>
        {API_VERSIONS.map((each) => (
          <option key={each} value={each}>
            {each}
            {each === CURRENT_API_VERSION ? ' (current)' : ''}
          </option>
        ))}
      </select>
    </label>
  );
  if (!document.data) {
    return (
      <section>
        <h1>API reference</h1>
        {versionSwitch}
        {document.error ? <ErrorNote message={document.error.message} /> : <p>Loading the API reference…</p>}
      </section>
    );
  }
  const operations: Operation[] = Object.entries(document.data.paths).flatMap(([path, methods]) =>
    Object.entries(methods).map(([method, operation]) => ({ ...operation, method, path })),
  );
  const tags = [...new Set(operations.map((operation) => operation.tags[0] ?? 'other'))].sort();
  return (
    <section>
      <h1>API reference</h1>
      {versionSwitch}
      <p>
        {document.data.info.title} {document.data.info.version}. {document.data.info.description} The
        machine-readable document is <a href={documentUrl(version)}>{documentUrl(version)}</a>
        {version === 'unversioned' ? '' : ` (requests send the header Polar-Version: ${version})`}.
      </p>
      {tags.map((tag) => (
        // Keyed by version too: a switched document opens with every operation closed.
        <section key={`${version}:${tag}`} aria-labelledby={`tag-${tag}`}>
          <h2 id={`tag-${tag}`}>{tag}</h2>
          <ul className="plain-list operations">
            {operations
              .filter((operation) => (operation.tags[0] ?? 'other') === tag)
              .map((operation) => (
                <OperationCard key={`${operation.method} ${operation.path}`} operation={operation} />
              ))}
          </ul>
        </section>
      ))}
    </section>
  );
}
