import { useQuery } from '@tanstack/react-query';
import { createFileRoute } from '@tanstack/react-router';
import { ErrorNote } from '../components';
import { prefetch } from '../loaders';
import { pageSearch, portalPageSearchSchema, PortalPager } from '../portal/paging';
import { portalBenefitNamesQuery, portalDownloadablesQuery } from '../portal/queries';
import { readPortalToken } from '../portal/session';

export const Route = createFileRoute('/portal/$organizationSlug/downloads')({
  validateSearch: portalPageSearchSchema,
  loaderDeps: ({ search }) => ({ page: search.page ?? 1 }),
  loader: ({ context: { queryClient }, params: { organizationSlug }, deps: { page } }) => {
    if (readPortalToken(organizationSlug))
      prefetch(queryClient, portalDownloadablesQuery(organizationSlug, page));
  },
  component: DownloadsPage,
});

const LIST_ID = 'portal-downloads-list';

function DownloadsPage() {
  const { organizationSlug: slug } = Route.useParams();
  const page = Route.useSearch().page ?? 1;
  const navigate = Route.useNavigate();
  const downloads = useQuery(portalDownloadablesQuery(slug, page));
  const names = useQuery(portalBenefitNamesQuery(slug));
  const items = downloads.data?.items;
  return (
    <>
      <h1>Downloads</h1>
      <ErrorNote message={downloads.error?.message ?? null} />
      {downloads.isPending ? <p role="status">Loading your files…</p> : null}
      {items?.length === 0 && page === 1 ? <p className="muted">No files to download yet.</p> : null}
      {items && items.length > 0 ? (
        <>
          <ul id={LIST_ID} className="portal-list" tabIndex={-1} aria-label="Your files">
            {items.map((downloadable) => {
              const { file } = downloadable;
              const from = names.data?.get(downloadable.benefit_id);
              return (
                <li key={downloadable.id} className="portal-item portal-file" data-testid="portal-download">
                  <div className="grow">
                    <h3 className="wrap" data-testid="download-name">
                      {file.name}
                    </h3>
                    <p className="muted">
                      <span data-testid="download-size">{file.size_readable}</span>
                      {from ? <span className="wrap"> · {from}</span> : null}
                    </p>
                  </div>
                  <a
                    className="button-link"
                    href={file.download.url}
                    download={file.name}
                    aria-label={`Download ${file.name}`}
                    data-testid="download-link"
                  >
                    Download
                  </a>
                </li>
              );
            })}
          </ul>
          <p className="muted">Download links work for 10 minutes; this page renews them by itself.</p>
        </>
      ) : null}
      <PortalPager
        page={page}
        maxPage={downloads.data?.pagination.max_page ?? 1}
        listId={LIST_ID}
        onPage={(next) => void navigate({ search: pageSearch(next) })}
      />
    </>
  );
}
