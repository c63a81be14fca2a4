import { useQuery } from '@tanstack/react-query';
import { createFileRoute, Link, useNavigate } from '@tanstack/react-router';
import type { FormEvent } from 'react';
import { z } from 'zod';
import { USERS_PAGE_SIZE, usersQuery } from '../../../admin/queries';
import { Card, ErrorNote, formatDateTime, formValues } from '../../../components';

const searchSchema = z.object({
  q: z.string().optional().catch(undefined),
  field: z.enum(['email', 'name']).optional().catch(undefined),
  page: z.coerce.number().int().min(1).optional().catch(undefined),
});

export const Route = createFileRoute('/_authenticated/admin/users/')({
  validateSearch: searchSchema,
  component: UsersPage,
});

function UsersPage() {
  const search = Route.useSearch();
  const navigate = useNavigate({ from: Route.fullPath });
  const users = useQuery(usersQuery(search));
  const page = search.page ?? 1;
  const pages = Math.max(1, Math.ceil((users.data?.total ?? 0) / USERS_PAGE_SIZE));

  function onSearch(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const { q = '', field = 'email' } = formValues(event.currentTarget);
    void navigate({ search: { q: q || undefined, field: field as 'email' | 'name', page: undefined } });
  }

  return (
    <section>
      <h1>Users</h1>
      <Card title="All users">
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
        <ErrorNote message={users.error?.message ?? null} />
        <table>
          <thead>
            <tr>
              <th>Name</th>
              <th>Email</th>
              <th>Role</th>
              <th>Status</th>
              <th>Joined</th>
            </tr>
          </thead>
          <tbody>
            {(users.data?.users ?? []).map((user) => (
              <tr key={user.id} data-testid="user-row">
                <td>
                  <Link to="/admin/users/$userId" params={{ userId: user.id }}>
                    {user.name}
                  </Link>
                </td>
                <td>{user.email}</td>
                <td>{user.role ?? 'user'}</td>
                <td>{user.banned ? 'Banned' : 'Active'}</td>
                <td>{formatDateTime(user.createdAt)}</td>
              </tr>
            ))}
          </tbody>
        </table>
        <nav className="pager" aria-label="Pages">
          <button
            type="button"
            className="secondary"
            disabled={page <= 1}
            onClick={() => void navigate({ search: { ...search, page: page - 1 } })}
          >
            Previous page
          </button>
          <span>
            Page {page} of {pages}
          </span>
          <button
            type="button"
            className="secondary"
            disabled={page >= pages}
            onClick={() => void navigate({ search: { ...search, page: page + 1 } })}
          >
            Next page
          </button>
        </nav>
      </Card>
    </section>
  );
}
