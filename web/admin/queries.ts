import { queryOptions } from '@tanstack/react-query';
import { stuckWorkReportSchema } from '../../domain/operators/schemas';
import { getJson } from '../api';
import { authClient, unwrap } from '../auth/client';

export const USERS_PAGE_SIZE = 20;

export type UserSearch = { q?: string; field?: 'email' | 'name'; page?: number };

export const adminKeys = {
  users: ['admin', 'users'] as const,
  user: (userId: string) => ['admin', 'users', userId] as const,
  sessions: (userId: string) => ['admin', 'users', userId, 'sessions'] as const,
};

export const usersQuery = ({ q, field = 'email', page = 1 }: UserSearch) =>
  queryOptions({
    queryKey: [...adminKeys.users, { q, field, page }],
    queryFn: () =>
      unwrap(
        authClient.admin.listUsers({
          query: {
            ...(q ? { searchValue: q, searchField: field, searchOperator: 'contains' as const } : {}),
            limit: USERS_PAGE_SIZE,
            offset: (page - 1) * USERS_PAGE_SIZE,
            sortBy: 'createdAt',
            sortDirection: 'desc',
          },
        }),
      ),
  });

export const userQuery = (userId: string) =>
  queryOptions({
    queryKey: adminKeys.user(userId),
    queryFn: () => unwrap(authClient.admin.getUser({ query: { id: userId } })),
  });

export const userSessionsQuery = (userId: string) =>
  queryOptions({
    queryKey: adminKeys.sessions(userId),
    queryFn: () => unwrap(authClient.admin.listUserSessions({ userId })),
  });

/** The operators' page refreshes on its own: stuck work is what changes while nobody looks. */
export const STUCK_WORK_REFRESH_MS = 30_000;

export const stuckWorkQuery = queryOptions({
  queryKey: ['admin', 'stuck-work'],
  queryFn: () => getJson('/api/operators/stuck-work', stuckWorkReportSchema),
  refetchInterval: STUCK_WORK_REFRESH_MS,
});
