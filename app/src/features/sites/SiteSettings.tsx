/** A site's name and visibility (changing who reads it takes a site admin: the API's 403 says so). */
import { type FormEvent, useId, useState } from 'react';
import { ApiErrorText } from '../layout/ApiErrorText';
import { useUpdateSite } from './queries';
import type { Site, SiteVisibility } from './types';
import { VisibilitySelect } from './VisibilitySelect';

export function SiteSettings({ organizationId, site }: { organizationId: string; site: Site }) {
  const update = useUpdateSite(organizationId, site.id);
  const [title, setTitle] = useState(site.title);
  const [visibility, setVisibility] = useState<SiteVisibility>(site.visibility);
  const titleId = useId();
  const visibilityId = useId();

  function submit(event: FormEvent) {
    event.preventDefault();
    // Only what changed: sending the visibility unchanged is no change, but a title alone needs no admin.
    const body: { title?: string; visibility?: SiteVisibility } = {};
    if (title.trim() !== site.title) body.title = title.trim();
    if (visibility !== site.visibility) body.visibility = visibility;
    update.mutate(body);
  }

  return (
    <form onSubmit={submit} className="stacked-form">
      <h2>Settings</h2>
      <label htmlFor={titleId}>Site name</label>
      <input id={titleId} type="text" required value={title} onChange={(e) => setTitle(e.target.value)} />
      <label htmlFor={visibilityId}>Visibility</label>
      <VisibilitySelect id={visibilityId} value={visibility} onChange={setVisibility} />
      <div className="actions">
        <button type="submit" disabled={update.isPending}>
          Save settings
        </button>
      </div>
      {update.isSuccess ? <p role="status">Saved.</p> : null}
      <ApiErrorText error={update.error} />
    </form>
  );
}
