/** `/o/{organizationId}/sites`: the organization's sites, each a link to its screen, and "New site". */
import { useSuspenseQuery } from '@tanstack/react-query';
import { Link, useNavigate, useParams } from '@tanstack/react-router';
import { type FormEvent, useId, useState } from 'react';
import { Modal } from '../controls/Modal';
import { ApiErrorText } from '../layout/ApiErrorText';
import { OrgLayout } from '../organizations/OrgLayout';
import { organizationQuery, organizationSpacesQuery } from '../organizations/queries';
import { sitesQuery, useCreateSite } from './queries';
import type { SiteVisibility } from './types';
import { VISIBILITY_LABELS, VisibilitySelect } from './VisibilitySelect';

export function SitesScreen() {
  const { organizationId } = useParams({ from: '/o/$organizationId/sites' });
  const { data: organization } = useSuspenseQuery(organizationQuery(organizationId));
  const { data: sites } = useSuspenseQuery(sitesQuery(organizationId));
  return (
    <OrgLayout organizationId={organizationId}>
      <p className="space-title">{organization.title}</p>
      <h1>Sites</h1>
      {organization.permissions?.createContent ? <NewSiteDialog organizationId={organizationId} /> : null}
      {sites.length === 0 ? (
        <p>No sites yet.</p>
      ) : (
        <ul className="cards">
          {sites.map((site) => (
            <li key={site.id}>
              <Link to="/o/$organizationId/sites/$siteId" params={{ organizationId, siteId: site.id }}>
                {site.title}
              </Link>{' '}
              <span className="muted">
                {site.published ? 'Published' : 'Not published'} · {VISIBILITY_LABELS[site.visibility]} ·{' '}
                {site.siteSpaces === 1 ? '1 space' : `${site.siteSpaces} spaces`}
              </span>
            </li>
          ))}
        </ul>
      )}
    </OrgLayout>
  );
}

function NewSiteDialog({ organizationId }: { organizationId: string }) {
  const [open, setOpen] = useState(false);
  return (
    <Modal
      open={open}
      onOpenChange={setOpen}
      trigger={<button type="button">New site</button>}
      title="New site"
      description="A site publishes spaces of the organization. You can add spaces and sections later."
    >
      <NewSiteForm organizationId={organizationId} onCancel={() => setOpen(false)} />
    </Modal>
  );
}

function NewSiteForm({ organizationId, onCancel }: { organizationId: string; onCancel: () => void }) {
  const { data: spaces } = useSuspenseQuery(organizationSpacesQuery(organizationId));
  const create = useCreateSite(organizationId);
  const navigate = useNavigate();
  const [title, setTitle] = useState('');
  const [visibility, setVisibility] = useState<SiteVisibility>('public');
  const [chosen, setChosen] = useState<string[]>([]);
  const titleId = useId();
  const visibilityId = useId();

  function submit(event: FormEvent) {
    event.preventDefault();
    create.mutate(
      { title: title.trim(), visibility, spaces: chosen },
      {
        onSuccess: (site) =>
          navigate({ to: '/o/$organizationId/sites/$siteId', params: { organizationId, siteId: site.id } }),
      },
    );
  }

  return (
    <form onSubmit={submit} className="stacked-form">
      <label htmlFor={titleId}>Site title</label>
      <input id={titleId} type="text" required value={title} onChange={(e) => setTitle(e.target.value)} />
      <label htmlFor={visibilityId}>Visibility</label>
      <VisibilitySelect id={visibilityId} value={visibility} onChange={setVisibility} />
      {spaces.length > 0 ? (
        <fieldset className="checks">
          <legend>Spaces to publish</legend>
          {spaces.map((space) => (
            <label key={space.id}>
              <input
                type="checkbox"
                checked={chosen.includes(space.id)}
                onChange={(e) =>
                  setChosen((now) => (e.target.checked ? [...now, space.id] : now.filter((id) => id !== space.id)))
                }
              />{' '}
              {space.title}
            </label>
          ))}
        </fieldset>
      ) : null}
      <div className="actions">
        <button type="submit" disabled={create.isPending}>
          Create site
        </button>
        <button type="button" onClick={onCancel}>
          Cancel
        </button>
      </div>
      <ApiErrorText error={create.error} />
    </form>
  );
}
