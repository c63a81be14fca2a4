import { queryOptions } from '@tanstack/react-query';
import { listResourceSchema } from '../../domain/platform/schemas';
import {
  mailboxMessageSchema,
  publicSettingsSchema,
  readinessReportSchema,
} from '../../domain/system/schemas';
import { getJson } from '../api';

export const READINESS_REFRESH_MS = 5_000;

export const readinessQuery = queryOptions({
  queryKey: ['system', 'readiness'],
  // 503 still carries the report: it says which check failed.
  queryFn: () => getJson('/readyz', readinessReportSchema, { acceptStatuses: [503] }),
  refetchInterval: READINESS_REFRESH_MS,
});

export const settingsQuery = queryOptions({
  queryKey: ['system', 'settings'],
  queryFn: () => getJson('/api/settings', publicSettingsSchema),
  staleTime: Infinity,
});

export const MAILBOX_PAGE_SIZE = 20;

export const mailboxQuery = (page: number) =>
  queryOptions({
    queryKey: ['system', 'mailbox', page],
    queryFn: () =>
      getJson(
        `/api/dev/mailbox?page=${page}&limit=${MAILBOX_PAGE_SIZE}`,
        listResourceSchema(mailboxMessageSchema),
      ),
  });
