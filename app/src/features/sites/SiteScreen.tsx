/**
 * `/o/{organizationId}/sites/{siteId}` (the Site's `urls.app`): whether it is published and where,
 * "Publish" / "Unpublish", then tabs for its content (site spaces and sections), its settings, its
 * share links and its appearance.
 */
import { useSuspenseQuery } from '@tanstack/react-query';
import { Link, useParams } from '@tanstack/react-router';
import { Tabs } from 'radix-ui';
import { type ReactNode, Suspense } from 'react';
import { ApiErrorText } from '../layout/ApiErrorText';
import { Loading } from '../layout/Loading';
import { OrgLayout } from '../organizations/OrgLayout';
import { siteQuery, useSetPublished } from './queries';
import { ShareLinks } from './ShareLinks';
import { SiteAppearance } from './SiteAppearance';
import { SiteSettings } from './SiteSettings';
import { SiteStructure } from './SiteStructure';
import type { Site } from './types';

export function SiteScreen() {
  const { organizationId, siteId } = useParams({ from: '/o/$organizationId/sites/$siteId' });
  const { data: site } = useSuspenseQuery(siteQuery(organizationId, siteId));
  const ids = { organizationId, siteId };
  return (
    <OrgLayout organizationId={organizationId}>
      <p className="space-title">
        <Link to="/o/$organizationId/sites" params={{ organizationId }}>
          Sites
        </Link>
      </p>
      <h1>{site.title}</h1>
      <Publishing organizationId={organizationId} site={site} />
      <Tabs.Root defaultValue="content">
        <Tabs.List aria-label="Site administration" className="tab-list">
          <Tabs.Trigger value="content">Content</Tabs.Trigger>
          <Tabs.Trigger value="settings">Settings</Tabs.Trigger>
          {site.permissions.admin ? <Tabs.Trigger value="share-links">Share links</Tabs.Trigger> : null}
          <Tabs.Trigger value="appearance">Appearance</Tabs.Trigger>
        </Tabs.List>
        <Panel value="content">
          <SiteStructure {...ids} />
        </Panel>
        <Panel value="settings">
          <SiteSettings organizationId={organizationId} site={site} />
        </Panel>
        {site.permissions.admin ? (
          <Panel value="share-links">
            <ShareLinks {...ids} />
          </Panel>
        ) : null}
        <Panel value="appearance">
          <SiteAppearance {...ids} />
        </Panel>
      </Tabs.Root>
    </OrgLayout>
  );
}

/** A tab's panel, loading on its own so the rest of the screen stays. */
function Panel({ value, children }: { value: string; children: ReactNode }) {
  return (
    <Tabs.Content value={value} className="tab-panel">
      <Suspense fallback={<Loading label="Loading" />}>{children}</Suspense>
    </Tabs.Content>
  );
}

function Publishing({ organizationId, site }: { organizationId: string; site: Site }) {
  const setPublished = useSetPublished(organizationId, site.id);
  return (
    <section aria-labelledby="publishing-heading" className="publishing">
      <h2 id="publishing-heading" className="visually-hidden">
        Publishing
      </h2>
      {site.published && site.urls.published ? (
        <p>
          Published at <a href={site.urls.published}>{site.urls.published}</a>
        </p>
      ) : (
        <p>Not published.</p>
      )}
      {site.permissions.admin ? (
        <div className="actions">
          {site.published ? (
            <button type="button" onClick={() => setPublished.mutate(false)} disabled={setPublished.isPending}>
              Unpublish
            </button>
          ) : (
            <button
              type="button"
              className="primary"
              onClick={() => setPublished.mutate(true)}
              disabled={setPublished.isPending}
            >
              Publish
            </button>
          )}
        </div>
      ) : null}
      <ApiErrorText error={setPublished.error} />
    </section>
  );
}
