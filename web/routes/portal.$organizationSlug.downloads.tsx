import { useQuery } from '@tanstack/react-query';
import { createFileRoute } from '@tanstack/react-router';
import { ErrorNote } from '../components';
import { prefetch } from '../loaders';
import { portalBenefitGrantsQuery, portalDownloadablesQuery } from '../portal/queries';
import { readPortalToken } from '../portal/session';

export const Route = createFileRoute('/portal/$organizationSlug/downloads')({
  loader: ({ context: { queryClient }, params: { organizationSlug } }) => {
    if (readPortalToken(organizationSlug)) prefetch(queryClient, portalDownloadablesQuery(organizationSlug));
  },
  component: DownloadsPage,
});

function DownloadsPage() {
  const { organizationSlug: slug } = Route.useParams();
  const downloads = useQuery(portalDownloadablesQuery(slug));
  const grants = useQuery(portalBenefitGrantsQuery(slug));
  const benefitName = (benefitId: string) =>
    grants.data?.items.find((grant) => grant.benefit_id === benefitId)?.benefit.description;
  const items = downloads.data?.items;
  return (
    <>
      <h1>Downloads</h1>
      <ErrorNote message={downloads.error?.message ?? null} />
      {downloads.isPending ? <p role="status">Loading your files…</p> : null}
      {items?.length === 0 ? <p className="muted">No files to download yet.</p> : null}
      {items && items.length > 0 ? (
        <>
          <ul className="portal-list">
            {items.map((downloadable) => {
              const { file } = downloadable;
              const from = benefitName(downloadable.benefit_id);
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
    </>
  );
}
