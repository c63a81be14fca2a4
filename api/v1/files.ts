import {
  fileCreateSchema,
  filePatchSchema,
  fileReadSchema,
  fileUploadCompletedSchema,
  fileUploadSchema,
} from '../../domain/files/schemas.js';
import {
  completeFileUpload,
  createFile,
  deleteFile,
  listFiles,
  updateFile,
  type FilesContext,
} from '../../domain/files/service.js';
import {
  idParamsSchema,
  listResourceSchema,
  oneOrManyUuids,
  pageQuerySchema,
} from '../../domain/platform/schemas.js';
import type { OperationRegistry } from '../http/operations.js';

const listQuerySchema = pageQuerySchema.extend({
  organization_id: oneOrManyUuids.optional(),
  ids: oneOrManyUuids.optional(),
});

const common = { tag: 'files', errors: ['NotPermitted', 'ResourceNotFound'] } as const;

export function registerFileOperations(api: OperationRegistry, ctx: FilesContext) {
  api.add(
    {
      ...common,
      method: 'get',
      path: '/files/',
      operationId: 'files:list',
      summary: 'List files',
      query: listQuerySchema,
      response: listResourceSchema(fileReadSchema),
    },
    async ({ query, caller }) => listFiles(ctx, caller, query),
  );
  api.add(
    {
      ...common,
      method: 'post',
      path: '/files/',
      operationId: 'files:create',
      summary: 'Create a file and get the URLs to upload its parts to',
      body: fileCreateSchema,
      response: fileUploadSchema,
    },
    async ({ body, caller }) => createFile(ctx, caller, body),
  );
  api.add(
    {
      ...common,
      method: 'post',
      path: '/files/{id}/uploaded',
      operationId: 'files:uploaded',
      summary: 'Complete an upload: checks size and SHA-256 of the stored bytes',
      params: idParamsSchema,
      body: fileUploadCompletedSchema,
      response: fileReadSchema,
      status: 200,
    },
    async ({ params, body, caller }) => completeFileUpload(ctx, caller, params.id, body),
  );
  api.add(
    {
      ...common,
      method: 'patch',
      path: '/files/{id}',
      operationId: 'files:update',
      summary: 'Rename a file or set its version',
      params: idParamsSchema,
      body: filePatchSchema,
      response: fileReadSchema,
    },
    async ({ params, body, caller }) => updateFile(ctx, caller, params.id, body),
  );
  api.add(
    {
      ...common,
      method: 'delete',
      path: '/files/{id}',
      operationId: 'files:delete',
      summary: 'Delete a file and its bytes',
      params: idParamsSchema,
      status: 204,
    },
    async ({ params, caller }) => {
      await deleteFile(ctx, caller, params.id);
    },
  );
}
