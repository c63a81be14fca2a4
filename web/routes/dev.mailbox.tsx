import { useQuery } from '@tanstack/react-query';
import { createFileRoute, Link } from '@tanstack/react-router';
import { z } from 'zod';
import type { MailboxMessage } from '../../domain/system/schemas';
import { sessionQuery, useSession } from '../auth/session';
import { Card, ErrorNote, formatDateTime } from '../components';
import { prefetch } from '../loaders';
import { MAILBOX_PAGE_SIZE, mailboxQuery, settingsQuery } from '../system/queries';

const searchSchema = z.object({
  page: z.coerce.number().int().min(1).optional().catch(undefined),
  message: z.string().optional().catch(undefined),
});

export const Route = createFileRoute('/dev/mailbox')({
  validateSearch: searchSchema,
  loaderDeps: ({ search }) => ({ page: search.page ?? 1 }),
  loader: ({ context: { queryClient }, deps: { page } }) => {
    // The page lists messages only with the mailbox on and someone signed in; until both are
    // known, it fetches them itself.
    const settings = queryClient.getQueryData(settingsQuery.queryKey);
    if (settings?.dev_mailbox && queryClient.getQueryData(sessionQuery.queryKey)) {
      prefetch(queryClient, mailboxQuery(page));
    }
  },
  component: MailboxPage,
});

const URL_PATTERN = /(https?:\/\/[^\s<>"]+)/g;

/** Plain text with its URLs as links (the emails' actions are links). */
function TextWithLinks({ text }: { text: string }) {
  return (
    <pre className="message-text" data-testid="message-text">
      {text.split(URL_PATTERN).map((part, index) =>
        index % 2 === 1 ? (
          <a key={index} href={part}>
            {part}
          </a>
        ) : (
          part
        ),
      )}
    </pre>
  );
}

function MessageView({ message }: { message: MailboxMessage }) {
  return (
    <Card title={message.subject}>
      <p>
        To {message.to} · {formatDateTime(message.created_at)}
      </p>
      <TextWithLinks text={message.text} />
    </Card>
  );
}

function Messages({ page, selected }: { page: number; selected?: string }) {
  const messages = useQuery(mailboxQuery(page));
  const pages = Math.max(1, messages.data?.pagination.max_page ?? 1);
  const open = messages.data?.items.find((message) => message.id === selected);
  return (
    <>
      <Card title="Messages">
        <ErrorNote message={messages.error?.message ?? null} />
        {messages.data?.items.length === 0 ? <p>No emails yet.</p> : null}
        <table>
          <thead>
            <tr>
              <th>To</th>
              <th>Subject</th>
              <th>When</th>
            </tr>
          </thead>
          <tbody>
            {(messages.data?.items ?? []).map((message) => (
              <tr
                key={message.id}
                data-testid="mailbox-row"
                aria-current={message.id === selected || undefined}
              >
                <td>{message.to}</td>
                <td>
                  <Link to="/dev/mailbox" search={{ page, message: message.id }}>
                    {message.subject}
                  </Link>
                </td>
                <td>{formatDateTime(message.created_at)}</td>
              </tr>
            ))}
          </tbody>
        </table>
        {pages > 1 ? (
          <nav className="pager" aria-label="Pages">
            {page > 1 ? (
              <Link to="/dev/mailbox" search={{ page: page - 1 }}>
                Newer
              </Link>
            ) : null}
            <span>
              Page {page} of {pages} ({MAILBOX_PAGE_SIZE} per page)
            </span>
            {page < pages ? (
              <Link to="/dev/mailbox" search={{ page: page + 1 }}>
                Older
              </Link>
            ) : null}
          </nav>
        ) : null}
      </Card>
      {open ? <MessageView message={open} /> : null}
    </>
  );
}

function MailboxPage() {
  const { page = 1, message } = Route.useSearch();
  const settings = useQuery(settingsQuery);
  const session = useSession();

  let body;
  if (settings.isPending || session.isPending) body = <p>Loading…</p>;
  else if (!settings.data?.dev_mailbox) {
    body = <p>The dev mailbox is off: this deployment sends email over SMTP or is not in sandbox mode.</p>;
  } else if (!session.data) {
    body = (
      <p>
        <Link to="/sign-in">Sign in</Link> to read the emails sent to you.
      </p>
    );
  } else body = <Messages page={page} selected={message} />;

  return (
    <section>
      <h1>Dev mailbox</h1>
      <p>In sandbox mode without SMTP, Tollgate keeps every email here instead of sending it.</p>
      {body}
    </section>
  );
}
