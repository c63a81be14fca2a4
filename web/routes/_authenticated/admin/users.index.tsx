import { useQuery } from '@tanstack/react-query';
import { createFileRoute, Link, useNavigate } from '@tanstack/react-router';
import type { FormEvent } from 'react';
import { z } from 'zod';
import { USERS_PAGE_SIZE, usersQuery } from '../../../admin/queries';
import { formatDateTime, formValues, Pager } from '../../../components';
import { prefetch } from '../../../loaders';
import { ResourceCard, ResourceTable } from '../../../resources/resource-page';

const searchSchema = z.object({
  q: z.string().optional().catch(undefined),
  field: z.enum(['email', 'name']).optional().catch(undefined),
  page: z.coerce.number().int().min(1).optional().catch(undefined),
});

export const Route = createFileRoute('/_authenticated/admin/users/')({
  validateSearch: searchSchema,
  loaderDeps: ({ search }) => search,
  loader: ({ context, deps }) => prefetch(context.queryClient, usersQuery(deps)),
  component: UsersPage,
});

function UsersPage() {
  const search = Route.useSearch();
  const navigate = useNavigate({ from: Route.fullPath });
  const users = useQuery(usersQuery(search));
  const page = search.page ?? 1;

  function onSearch(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const { q = '', field = 'email' } = formValues(event.currentTarget);
    void navigate({ search: { q: q || undefined, field: field as 'email' | 'name', page: undefined } });
  }

  return (
    <section>
      <h1>Users</h1>
      <ResourceCard
        title="All users"
        toolbar={
          <form onSubmit={onSearch} className="inline-form" role="search">
            <label className="field">
              <span>Search users</span>
              <input name="q" type="search" defaultValue={search.q ?? ''} />
            </label>
            <label className="field">
              <span>Search in</span>
              <select name="field" aria-label="Search in" defaultValue={search.field ?? 'email'}>
                <option value="email">Email</option>
                <option value="name">Name</option>
              </select>
            </label>
            <button type="submit">Search</button>
          </form>
        }
        error={users.error?.message ?? null}
        items={users.data?.users}
        footer={
          <Pager
            page={page}
            maxPage={Math.ceil((users.data?.total ?? 0) / USERS_PAGE_SIZE)}
            onPage={(next) => void navigate({ search: { ...search, page: next } })}
          />
        }
      >
        <ResourceTable
          items={users.data?.users}
          rowTestId="user-row"
          columns={[
            {
              header: 'Name',
              cell: (user) => (
                <Link to="/admin/users/$userId" params={{ userId: user.id }}>
                  {user.name}
                </Link>
              ),
            },
            { header: 'Email', cell: (user) => user.email },
            { header: 'Role', cell: (user) => user.role ?? 'user' },
            { header: 'Status', cell: (user) => (user.banned ? 'Banned' : 'Active') },
            { header: 'Joined', cell: (user) => formatDateTime(user.createdAt) },
          ]}
        />
      </ResourceCard>
    </section>
  );
}
